import Foundation
import Testing

/// What time travel, verify and import-json tests need beyond `Sandbox`: runs in a pinned time
/// zone, the lines of `boomic export` and small edits of them, and direct reads and writes of
/// `library.sqlite` (through Python's sqlite3, as a damaged disk or a hand edit would do it).
extension Sandbox {
    /// `boomic --library LIBRARY ARGS…` with extra environment (a `TZ`, say), recording an issue
    /// unless it exits 0 with nothing on stderr.
    @discardableResult
    func succeed(_ arguments: [String], environment: [String: String?],
                 sourceLocation: SourceLocation = #_sourceLocation) throws -> ProcessRun {
        let run = try boomic(arguments, environment: environment)
        #expect(run.succeeded && run.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
        return run
    }

    /// `boomic export` (to stdout), one transaction per line.
    func exportLines(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let run = try boomic("export")
        try #require(run.succeeded && run.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
        let end = try endLine(transactions: run.lines.count - 1)
        try #require(run.lines.last == end, "\(run)", sourceLocation: sourceLocation)
        return run.lines.dropLast()
    }

    /// The end line `boomic export` writes for this library: the count, and the music folders it
    /// remembers (none: no key).
    func endLine(transactions n: Int) throws -> String {
        var remembered: [String] = []
        if let data = FileManager.default.contents(atPath: library + "/folders.json") {
            remembered = try JSONDecoder().decode([String].self, from: data)
        }
        guard !remembered.isEmpty else { return #"{"end":{"transactions":\#(n)}}"# }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let folders = String(decoding: try encoder.encode(remembered), as: UTF8.self)
        return #"{"end":{"folders":\#(folders),"transactions":\#(n)}}"#
    }

    /// Writes `lines` (transaction lines, as `exportLines` gives them) as an export file in the
    /// sandbox, with the end line unless `end` is false, and returns its path.
    func exportFile(_ name: String, _ lines: [String], end: Bool = true) throws -> String {
        let path = root + "/" + name
        let all = lines + (end ? [#"{"end":{"transactions":\#(lines.count)}}"#] : [])
        try Data(all.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Replaces the library with one of `transactions` transactions, loaded with `import-json`
    /// (a hundred commands would take seconds): the samples' import, then edits of the three
    /// songs of `album:Blue Sketches`, each setting their comment to `c<seq>`. `import-json`
    /// writes the checkpoints that fall due as it loads (every 100 transactions) and the newest
    /// as `library.image`.
    func loadEdits(transactions: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try importSamples(sourceLocation: sourceLocation)
        try succeed(["modify", "-y", "album:Blue Sketches", "comment=c0"], sourceLocation: sourceLocation)
        var lines = try exportLines(sourceLocation: sourceLocation)
        var previous = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any],
                                    sourceLocation: sourceLocation)
        while lines.count < transactions {
            lines.append(try ExportLines.nextEdit(after: &previous, seq: lines.count + 1))
        }
        try FileManager.default.removeItem(atPath: library)
        try succeed(["import-json", try exportFile("edits.jsonl", lines)], sourceLocation: sourceLocation)
    }

    /// Loads the library's log again with more of `loadEdits`' edits after it, up to
    /// `transactions`: the same songs, the same first transactions.
    func extendEdits(to transactions: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var lines = try exportLines(sourceLocation: sourceLocation)
        var previous = try #require(try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any],
                                    sourceLocation: sourceLocation)
        while lines.count < transactions {
            lines.append(try ExportLines.nextEdit(after: &previous, seq: lines.count + 1))
        }
        try replaceLog(lines, sourceLocation: sourceLocation)
    }

    /// Replaces the library's log (and its checkpoints and image) with the transactions of
    /// `lines`, loaded by `import-json`; the rest of the folder (covers, remembered folders) stays.
    func replaceLog(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fm = FileManager.default
        let file = try exportFile("replaced-log.jsonl", lines)
        defer { try? fm.removeItem(atPath: file) }
        for name in try fm.contentsOfDirectory(atPath: library) where name.hasPrefix("library.") {
            try fm.removeItem(atPath: library + "/" + name)
        }
        try succeed(["import-json", file], sourceLocation: sourceLocation)
    }

    /// Runs a Python script on `library.sqlite` with `db` open (`sys.argv[1]` is its path, the
    /// `arguments` follow); the script must commit what it changes.
    func sqlite(_ script: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let run = try ChildProcess.run(systemPython, ["-c", "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\n" + script,
                                                      library + "/library.sqlite"] + arguments)
        try #require(run.succeeded, "\(run)", sourceLocation: sourceLocation)
        return run.stdout
    }

    /// The seqs of the stored checkpoints, ascending.
    func checkpointSeqs(sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int] {
        try sqlite("print(' '.join(str(r[0]) for r in db.execute('SELECT seq FROM checkpoints ORDER BY seq')))",
                   sourceLocation: sourceLocation).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    /// The stored bytes of the checkpoint at `seq`.
    func checkpointData(_ seq: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let hex = try sqlite("print(db.execute('SELECT hex(data) FROM checkpoints WHERE seq = ?', (int(sys.argv[2]),)).fetchone()[0])",
                             [String(seq)], sourceLocation: sourceLocation)
        return Self.bytes(hex: hex.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Replaces the checkpoint's bytes and, when given, its stored checksum.
    func storeCheckpoint(_ seq: Int, data: [UInt8], checksum: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let hex = data.map { String(format: "%02x", $0) }.joined()
        _ = try sqlite("""
            seq, data, checksum = int(sys.argv[2]), bytes.fromhex(sys.argv[3]), sys.argv[4]
            db.execute('UPDATE checkpoints SET data = ? WHERE seq = ?', (data, seq))
            if checksum: db.execute('UPDATE checkpoints SET checksum = ? WHERE seq = ?', (checksum, seq))
            db.commit()
            """, [String(seq), hex, checksum ?? ""], sourceLocation: sourceLocation)
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var i = hex.startIndex
        while let j = hex.index(i, offsetBy: 2, limitedBy: hex.endIndex), i < hex.endIndex {
            out.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return out
    }
}

/// Lines of `boomic export` and the edits tests make to them.
enum ExportLines {
    /// The line with each transaction's `timestamp` replaced by `times[seq - 1]`.
    static func retimed(_ lines: [String], _ times: [Double]) -> [String] {
        zip(lines, times).map { line, t in
            line.replacing(/"timestamp":[-0-9.eE+]+/, with: "\"timestamp\":\(t)")
        }
    }

    /// The transaction id of a line (lower case, as exported).
    static func id(_ line: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let t = object["transaction"] as? [String: Any] else { return nil }
        return t["id"] as? String
    }

    /// The line of an edit like `previous` (a `modify comment=…`) committed after it as `seq`:
    /// each song's comment goes from the previous value to `c<seq>`.
    static func nextEdit(after previous: inout [String: Any], seq: Int) throws -> String {
        var line = previous
        var t = try #require(line["transaction"] as? [String: Any])
        t["parent"] = try #require(t["id"] as? String)
        t["id"] = UUID().uuidString.lowercased()
        t["label"] = "modify comment=c\(seq)"
        let assertions = try #require(t["assertions"] as? [[String: Any]])
        t["assertions"] = try assertions.map { a in
            var update = try #require(a["update"] as? [String: Any])
            var fields = try #require(update["fields"] as? [String: Any])
            var comment = try #require(fields["comment"] as? [String: Any])
            comment["old"] = comment["new"]
            comment["new"] = "c\(seq)"
            fields["comment"] = comment
            update["fields"] = fields
            return ["update": update]
        }
        line["transaction"] = t
        line["seq"] = seq
        previous = line
        return String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The line with its `"seq":N` replaced.
    static func renumbered(_ line: String, _ seq: Int) -> String {
        line.replacing(/^\{"seq":[0-9]+/, with: "{\"seq\":\(seq)")
    }

    /// The transactions of a `modify` that sets fields to `pass K`, for K from 3 through `last`,
    /// made from `second`, the exported line of the one that set them to `pass 2` where they were
    /// `pass 1`, as the CLI would have committed them one after another: each with its own id,
    /// the one before it as parent, the next seq and a millisecond later.
    static func commentPasses(after second: String, through last: Int) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(second.utf8)) as? [String: Any])
        let t = try #require(object["transaction"] as? [String: Any])
        let seq = try #require(object["seq"] as? Int), time = try #require(t["timestamp"] as? Double)
        let id = try #require(t["id"] as? String), parent = try #require(t["parent"] as? String)
        try #require(second.contains("\"new\":\"pass 2\",\"old\":\"pass 1\""), "not the line of pass 2: \(second)")
        var out: [String] = [], previous = id
        for k in stride(from: 3, through: last, by: 1) {
            let next = UUID().uuidString.lowercased()
            let line = second.replacing(/pass ([12])\b/) { "pass \(k - 2 + Int($0.1)!)" }
                .replacing(id, with: next).replacing(parent, with: previous)
                .replacing(/"timestamp":[-0-9.eE+]+/, with: "\"timestamp\":\(time + Double(k - 2) / 1_000)")
            out.append(renumbered(line, seq + k - 2))
            previous = next
        }
        return out
    }
}

/// Seconds since 1970 of a wall-clock time in a time zone (`Asia/Kathmandu` is UTC+5:45 all
/// year: no daylight saving to dodge, and a quarter-hour offset no UTC mix-up hides behind).
func wallClock(_ zone: String, _ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, millis: Int = 0) -> Double {
    var cal = Calendar(identifier: .gregorian)
    cal.timeZone = TimeZone(identifier: zone)!
    let date = cal.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    return date.timeIntervalSince1970 + Double(millis) / 1_000
}

/// Expects what a user or script sees of a refused command: exit 1, nothing on stdout, and one
/// line on stderr (`Error: …`) containing `text`.
func expectOneLineError(_ run: ProcessRun, _ text: String = "", status: Int32 = 1,
                        sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!run.signaled && run.status == status, "\(run)", sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, "nothing on stdout: \(run)", sourceLocation: sourceLocation)
    #expect(run.errorLines.count == 1 && run.errorLines.first?.hasPrefix("Error: ") == true
            && (text.isEmpty || run.stderr.contains(text)), "one line on stderr with '\(text)': \(run)", sourceLocation: sourceLocation)
}
