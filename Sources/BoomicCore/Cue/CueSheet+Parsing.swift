extension CueSheet {
    /// Reads a sheet's bytes (`CueText` decides the encoding).
    public init(bytes: [UInt8]) throws(CueSheetError) {
        guard let text = CueText.decode(bytes) else { throw .undecodable }
        try self.init(parsing: text)
    }

    /// Reads a sheet's text. Commands are case-insensitive and may be indented; values may be
    /// quoted (`TITLE "A B"`, up to the line's last quote, as EAC writes a title with quotes in
    /// it) or bare. Commands Boomic has no use for (FLAGS, PREGAP, POSTGAP, INDEX 02 and later,
    /// other REM lines) are skipped. Wrong: no FILE, a TRACK before any FILE, a TRACK without
    /// INDEX 01, a time that is not `mm:ss:ff`, and INDEX 01 times that do not increase within a
    /// file or an INDEX 00 after its INDEX 01.
    public init(parsing text: String) throws(CueSheetError) {
        self.init()
        var lineNumber = 0
        var track: Track?
        var trackLine = 0
        var sawStart = false

        func finishTrack() throws(CueSheetError) {
            guard var t = track else { return }
            guard sawStart else { throw .line(trackLine, "track \(t.number) has no INDEX 01") }
            if let p = t.pregap, p > t.start { throw .line(trackLine, "track \(t.number)'s INDEX 00 is after its INDEX 01") }
            if let before = files[files.count - 1].tracks.last, t.start <= before.start {
                throw .line(trackLine, "track \(t.number) starts at \(t.start.text), not after track \(before.number) (\(before.start.text))")
            }
            if t.pregap.map({ p in files[files.count - 1].tracks.last.map { p < $0.start } ?? false }) == true {
                t.pregap = nil // a pregap reaching into the track before is no pregap
            }
            files[files.count - 1].tracks.append(t)
            track = nil
        }

        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = raw.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            guard !line.isEmpty else { continue }
            let command = line.prefix { $0 != " " && $0 != "\t" }.uppercased()
            let rest = line.dropFirst(command.count).drop { $0 == " " || $0 == "\t" }
            switch command {
            case "FILE":
                try finishTrack()
                let (name, after) = Self.value(rest, typed: true)
                guard let name, !name.isEmpty else { throw .line(lineNumber, "FILE names no file") }
                let type = after.split(separator: " ").first.map(String.init)
                files.append(File(name: name, type: type))
            case "TRACK":
                try finishTrack()
                guard !files.isEmpty else { throw .line(lineNumber, "TRACK comes before any FILE") }
                guard let n = rest.split(separator: " ").first.flatMap({ Int($0) }), n >= 0 else {
                    throw .line(lineNumber, "TRACK has no number")
                }
                track = Track(number: n, start: CueTime(frames: 0))
                trackLine = lineNumber
                sawStart = false
            case "INDEX":
                let parts = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard track != nil else { continue } // an INDEX outside a track says nothing of one
                guard parts.count >= 2, let n = Int(parts[0]) else { throw .line(lineNumber, "INDEX needs a number and a time") }
                guard let time = CueTime(parts[1]) else { throw .line(lineNumber, "INDEX time '\(parts[1])' is not mm:ss:ff") }
                if n == 0 { track!.pregap = time } else if n == 1 { track!.start = time; sawStart = true }
            case "TITLE", "PERFORMER", "SONGWRITER", "ISRC", "CATALOG":
                let v = Self.value(rest).value.flatMap { $0.isEmpty ? nil : $0 }
                if track != nil {
                    switch command {
                    case "TITLE": track!.title = v
                    case "PERFORMER": track!.performer = v
                    case "SONGWRITER": track!.songwriter = v
                    case "ISRC": track!.isrc = v
                    default: break
                    }
                } else {
                    switch command {
                    case "TITLE": title = v
                    case "PERFORMER": performer = v
                    case "SONGWRITER": songwriter = v
                    case "CATALOG": catalog = v
                    default: break
                    }
                }
            case "REM":
                let key = rest.prefix { $0 != " " && $0 != "\t" }.uppercased()
                let v = Self.value(rest.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }).value.flatMap { $0.isEmpty ? nil : $0 }
                switch (key, track != nil) {
                case ("DATE", true): track!.date = v
                case ("DATE", false): date = v
                case ("GENRE", true): track!.genre = v
                case ("GENRE", false): genre = v
                case ("COMMENT", true): track!.comment = v
                case ("COMMENT", false): comment = v
                case ("DISCNUMBER", false): discNumber = v.flatMap { Int($0) }
                case ("TOTALDISCS", false): discTotal = v.flatMap { Int($0) }
                default: break
                }
            default:
                continue
            }
        }
        try finishTrack()
        guard !files.isEmpty else { throw .noFile }
        files.removeAll { $0.tracks.isEmpty }
        guard !files.isEmpty else { throw CueSheetError("it names no TRACK") }
    }

    /// A command's value: from a leading quote to the line's last quote (EAC leaves quotes
    /// inside a title as they are), else the first word; and what follows it.
    static func value(_ rest: Substring, typed: Bool = false) -> (value: String?, after: Substring) {
        let trimmed = rest.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        let s = Substring(String(trimmed))
        guard !s.isEmpty else { return (nil, "") }
        if s.first == "\"" {
            let body = s.dropFirst()
            guard let close = body.lastIndex(of: "\"") else { return (String(body), "") }
            return (String(body[..<close]), body[body.index(after: close)...].drop { $0 == " " || $0 == "\t" })
        }
        // Unquoted: a FILE name may have spaces (`FILE my file.wav WAVE`), its type is the last word.
        let words = s.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if typed, words.count > 1, let last = words.last, ["WAVE", "MP3", "AIFF", "BINARY", "MOTOROLA", "FLAC"].contains(last.uppercased()) {
            return (words.dropLast().joined(separator: " "), last)
        }
        return (String(s), "")
    }
}
