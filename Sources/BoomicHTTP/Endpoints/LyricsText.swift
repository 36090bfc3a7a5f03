/// A song's lyrics as its file's tag holds them, read as OpenSubsonic's `structuredLyrics`: an
/// LRC text (`[mm:ss.xx]` before a line) is synced, with each line's start in milliseconds;
/// any other text is unsynced, one line per line of the text.
///
/// LRC's header tags (`[ar:…]`, `[ti:…]`, `[length:…]`) are dropped from the lines; `[offset:±N]`
/// (milliseconds, positive: the lines come sooner) is kept as OpenSubsonic's `offset`, whose sign
/// is the opposite (a negative offset shows a line sooner). A line with several times
/// (`[00:10.00][01:20.00]chorus`) is one line per time, in order of time.
struct LyricsText: Equatable {
    struct Line: Equatable {
        /// Milliseconds from the song's start; nil in unsynced lyrics.
        var start: Int?
        var text: String
    }

    var synced: Bool
    var lines: [Line]
    /// OpenSubsonic's `offset`, milliseconds.
    var offset: Int
    var artist: String?
    var title: String?

    init(_ text: String) {
        let rows = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        var timed: [(Int, Int, String)] = []
        var plain: [String] = []
        var offset = 0
        var artist: String?, title: String?
        for (index, row) in rows.enumerated() {
            var rest = Substring(row)
            var times: [Int] = []
            var header = false
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let ms = Self.milliseconds(inside) {
                    times.append(ms)
                } else if let colon = inside.firstIndex(of: ":"), inside[..<colon].allSatisfy(\.isLetter), times.isEmpty {
                    let key = inside[..<colon].lowercased()
                    let value = inside[inside.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    switch key {
                    case "offset": offset = -(Int(value.hasPrefix("+") ? String(value.dropFirst()) : value) ?? 0)
                    case "ar": artist = value
                    case "ti": title = value
                    default: break
                    }
                    header = true
                } else {
                    break
                }
                rest = rest[rest.index(after: close)...]
            }
            let line = String(rest).trimmingCharacters(in: .whitespaces)
            if !times.isEmpty {
                for t in times { timed.append((t, index, line)) }
            } else if !header {
                plain.append(String(row))
            }
        }
        self.artist = artist
        self.title = title
        if !timed.isEmpty {
            synced = true
            self.offset = offset
            lines = timed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { Line(start: $0.0, text: $0.2) }
        } else {
            synced = false
            self.offset = 0
            while plain.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { plain.removeLast() }
            while plain.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { plain.removeFirst() }
            lines = plain.map { Line(start: nil, text: $0) }
        }
    }

    /// The text without times, one line each: what `getLyrics` answers.
    var plainText: String { lines.map(\.text).joined(separator: "\n") }

    /// `mm:ss`, `mm:ss.xx` or `mm:ss.xxx` (also `mm:ss:xx`) as milliseconds; nil for anything else.
    static func milliseconds(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var secondsPart = parts[1], fraction: Substring = ""
        if parts.count == 3 { fraction = parts[2] } else if let dot = secondsPart.firstIndex(of: ".") {
            fraction = secondsPart[secondsPart.index(after: dot)...]
            secondsPart = secondsPart[..<dot]
        }
        let digits: (Substring) -> Bool = { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
        guard digits(parts[0]) || (parts[0].count <= 4 && parts[0].allSatisfy { $0.isASCII && $0.isNumber } && !parts[0].isEmpty),
              digits(secondsPart), fraction.isEmpty || digits(fraction),
              let minutes = Int(parts[0]), let seconds = Int(secondsPart), seconds < 60 else { return nil }
        var ms = 0
        if !fraction.isEmpty, let f = Int(fraction) {
            ms = fraction.count == 1 ? f * 100 : fraction.count == 2 ? f * 10 : f
        }
        return (minutes * 60 + seconds) * 1000 + ms
    }
}
