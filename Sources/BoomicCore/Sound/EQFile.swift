import Foundation

/// Equalizer APO configuration text as AutoEq writes it: `Preamp: -6.1 dB`,
/// `Filter 1: ON PK Fc 105 Hz Gain -3.1 dB Q 0.70` (also `LSC`/`HSC` shelves, and `LS`/`HS`
/// with a Q), and `GraphicEQ: 20 -1.2; 31 -0.8; …`. Comments (`#`) and blank lines are skipped,
/// and so are filters switched `OFF`; any other line is refused by number rather than guessed
/// at, since a filter read wrongly is heard wrongly.
public enum EQFile {
    public static func parse(_ text: String, path: String) throws(EQSpecError) -> EQSpec {
        var spec = EQSpec()
        var preamp: Double?
        var sawAnything = false
        // Windows editors (Equalizer APO's home) may start the file with a byte-order mark.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // By `isNewline`, not "\n": a CRLF is one Character, which a split on "\n" never finds.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            func fail(_ reason: String) -> EQSpecError { .badFile(path: path, line: index + 1, reason: reason) }
            guard let colon = line.firstIndex(of: ":") else { throw fail("expected 'Preamp:', 'Filter:' or 'GraphicEQ:'") }
            let command = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let rest = String(line[line.index(after: colon)...])
            let words = rest.split(whereSeparator: \.isWhitespace).map(String.init)
            if command == "preamp" {
                guard let value = words.first.flatMap(EQSpec.decimal), words.count <= 2 else { throw fail("bad preamp '\(rest)'") }
                preamp = (preamp ?? 0) + value // Equalizer APO adds up repeated preamps
            } else if command == "filter" || command.hasPrefix("filter ") {
                guard let state = words.first?.uppercased(), state == "ON" || state == "OFF" else {
                    throw fail("a filter is 'ON' or 'OFF'")
                }
                if state == "OFF" { continue }
                spec.bands.append(try filter(Array(words.dropFirst()), fail: fail))
            } else if command == "graphiceq" {
                guard spec.curve.isEmpty else { throw fail("a second 'GraphicEQ:' line") }
                spec.curve = try curve(rest, fail: fail)
            } else {
                throw fail("'\(OneLine.excerpt(String(line[..<colon]), around: 0)):' is not supported; only Preamp, Filter and GraphicEQ")
            }
            sawAnything = true
        }
        guard sawAnything else { throw .notAnEQFile(path: path) }
        guard spec.bands.count <= EQSpec.maxParametricBands else { throw .tooManyBands(spec.bands.count) }
        spec.preamp = preamp
        return spec
    }

    /// `PK Fc 105 Hz Gain -3.1 dB Q 0.70`; a shelf without a Q gets 0.707 (Equalizer APO's
    /// default slope).
    private static func filter(_ words: [String], fail: (String) -> EQSpecError) throws(EQSpecError) -> EQBand {
        guard let type = words.first?.uppercased() else { throw fail("a filter needs a type") }
        let kind: EQBand.Kind
        switch type {
        case "PK", "PEQ": kind = .peaking
        case "LSC", "LS": kind = .lowShelf
        case "HSC", "HS": kind = .highShelf
        default: throw fail("filter type '\(OneLine.excerpt(type, around: 0))' is not supported; only PK, LSC and HSC")
        }
        func value(after key: String) -> Double? {
            guard let i = words.firstIndex(where: { $0.caseInsensitiveCompare(key) == .orderedSame }), i + 1 < words.count else { return nil }
            return EQSpec.decimal(words[i + 1])
        }
        guard let fc = value(after: "Fc"), fc > 0 else { throw fail("a filter needs 'Fc' and a frequency in Hz") }
        guard let gain = value(after: "Gain") else { throw fail("a filter needs 'Gain' and a value in dB") }
        let q = value(after: "Q") ?? (kind == .peaking ? nil : 0.707)
        guard let q, q > 0 else { throw fail("a peaking filter needs 'Q' and a positive value") }
        return EQBand(kind, frequency: fc, gain: gain, q: q)
    }

    /// `20 -1.2; 31 -0.8; …`: points in rising frequency.
    private static func curve(_ text: String, fail: (String) -> EQSpecError) throws(EQSpecError) -> [EQCurvePoint] {
        var points: [EQCurvePoint] = []
        for item in text.split(separator: ";") {
            let pair = item.split(whereSeparator: \.isWhitespace).map(String.init)
            guard pair.count == 2, let f = EQSpec.decimal(pair[0]), let g = EQSpec.decimal(pair[1]), f > 0 else {
                throw fail("bad GraphicEQ point '\(OneLine.excerpt(item.trimmingCharacters(in: .whitespaces), around: 0))'; expected 'FREQ GAIN'")
            }
            guard f > (points.last?.frequency ?? 0) else { throw fail("GraphicEQ frequencies must rise; \(pair[0]) comes after \(EQSpecError.number(points.last!.frequency))") }
            points.append(EQCurvePoint(frequency: f, gain: g))
        }
        guard points.count >= 2 else { throw fail("a GraphicEQ curve needs at least two points") }
        return points
    }
}
