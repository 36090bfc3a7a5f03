import Foundation

/// `--eq SPEC` as text: a preset, a saved profile, a file, or bands.
extension EQSpec {
    /// SPEC looked up in the order, case blind: a preset, then a saved profile, then a
    /// file, else bands. The two lookups are the caller's, so that this stays pure: the library
    /// answers `savedProfile` (nil when there is none of that name) and `fileContents` reads a
    /// path (nil when no file is there; BoomicAudio's `EQSpec.resolve(_:savedProfile:)` reads the
    /// disk). Errors from either closure pass through unchanged.
    public static func resolve(
        _ spec: String,
        savedProfile: (String) throws -> EQSpec?,
        fileContents: (String) throws -> String?
    ) throws -> EQSpec {
        let text = spec.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw EQSpecError.empty }
        if let preset = EQPreset.named(text) { return preset }
        if let saved = try savedProfile(text) { return saved }
        if let contents = try fileContents(text) { return try EQFile.parse(contents, path: text) }
        guard text.contains("=") else { throw EQSpecError.unknown(text) }
        return try parseBands(text)
    }

    /// `60=+3,1k=-2,2.4k=+1,5k=-1.5`: a graphic band's frequency sets its slider; any other adds
    /// a peaking band (Q 1.41). Frequencies take `k` (kHz) and an optional `Hz`, gains an optional
    /// `dB`, case blind. Sliders are held to ±12 dB; so are added bands, for the same reason
    /// (the automatic preamp pays for every boost).
    public static func parseBands(_ text: String) throws(EQSpecError) -> EQSpec {
        var spec = EQSpec()
        var seen: [Double] = []
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        for item in items {
            let parts = item.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2,
                  let frequency = frequency(parts[0]), let gain = gain(parts[1])
            else { throw .badBand(item.trimmingCharacters(in: .whitespaces)) }
            guard (20...20000).contains(frequency) else { throw .frequencyOutOfRange(frequency) }
            guard sliderRange.contains(gain) else { throw .sliderOutOfRange(frequency: frequency, gain: gain) }
            guard !seen.contains(where: { abs($0 / frequency - 1) < 0.005 }) else { throw .duplicateFrequency(frequency) }
            seen.append(frequency)
            if let slider = graphicFrequencies.firstIndex(where: { abs($0 / frequency - 1) < 0.005 }) {
                spec.graphic[slider] = gain
            } else {
                spec.bands.append(EQBand(.peaking, frequency: frequency, gain: gain))
            }
        }
        guard spec.bands.count <= maxParametricBands else { throw .tooManyBands(spec.bands.count) }
        return spec
    }

    /// `60`, `1k`, `2.4K`, `1000Hz`, `1khz`.
    private static func frequency(_ text: Substring) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.hasSuffix("hz") { t.removeLast(2) }
        var scale = 1.0
        if t.hasSuffix("k") { t.removeLast(); scale = 1000 }
        guard let value = decimal(t), value > 0 else { return nil }
        return value * scale
    }

    /// `+3`, `-2.5`, `0`, `+1dB`.
    private static func gain(_ text: Substring) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.hasSuffix("db") { t.removeLast(2) }
        return decimal(t.trimmingCharacters(in: .whitespaces))
    }

    /// A plain signed decimal: `Double(_:)` alone would also take `inf`, `nan` and hex.
    static func decimal(_ text: String) -> Double? {
        var body = Substring(text)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        guard !body.isEmpty, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              body.filter({ $0 == "." }).count <= 1, body != "."
        else { return nil }
        return Double(text)
    }
}
