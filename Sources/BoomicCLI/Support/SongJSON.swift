import BoomicCore
import Foundation
import Synchronization

/// The `--json` shape of a song (DESIGN §4): the design's field names, numbers as numbers,
/// missing values omitted, `artist` the display string and `artists` the list, and each field
/// as its `json` column in the field table (`SongField.table`) says: tags with `#`, `bitrate` in
/// bit/s (as beets stores it), moments as dates, stickers as an object, and the user's own
/// fields as keys of their own (their names never collide with the others: every known name is
/// refused for a user field).
struct SongJSON: Encodable {
    let song: Song

    init(_ song: Song) { self.song = song }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Made once: a key per field.
    private static let keys = SongField.table.map { Key(stringValue: $0.name) }

    /// `name=value` entries as (name, value); the last of a name wins.
    private static func pairs(_ entries: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for e in entries {
            guard let eq = e.firstIndex(of: "=") else { continue }
            out[String(e[..<eq])] = String(e[e.index(after: eq)...])
        }
        return out
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        let s = song
        try c.encode(s.id.description, forKey: Key(stringValue: "id"))
        try c.encodeIfPresent(s.artist, forKey: Key(stringValue: "artist"))
        for (spec, k) in zip(SongField.table, Self.keys) {
            switch (spec.json, spec.access) {
            case (.hidden, _):
                continue
            case (.value, .text(let get, _)):
                try c.encodeIfPresent(get(s), forKey: k)
            case (.value, .number(let get, _, _)):
                try c.encodeIfPresent(get(s), forKey: k)
            case (.value, .decimal(let get, _, _)):
                try c.encodeIfPresent(get(s), forKey: k)
            case (.value, .flag(let get, _)):
                try c.encode(get(s), forKey: k)
            case (.value, .list(let get, _)):
                let v = get(s)
                if spec.log == .always || !v.isEmpty { try c.encode(v, forKey: k) }
            case (.bitsPerSecond, .number(let get, _, _)):
                try c.encodeIfPresent(get(s).map { $0 * 1000 }, forKey: k)
            case (.date, .decimal(let get, _, _)):
                try c.encodeIfPresent(get(s).map(Formatting.isoDate), forKey: k)
            case (.hashTags, .list(let get, _)):
                try c.encode(get(s).map { "#" + $0 }, forKey: k)
            case (.nameValueMap, .list(let get, _)):
                let v = get(s)
                if !v.isEmpty { try c.encode(Self.pairs(v), forKey: k) }
            case (.topLevelKeys, .list(let get, _)):
                for (name, value) in Self.pairs(get(s)) { try c.encode(value, forKey: Key(stringValue: name)) }
            default:
                preconditionFailure("field \(spec.name): its json form does not fit its type")
            }
        }
    }
}

enum JSONOut {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// Prints one JSON array, one element per line, so large outputs stream and diff well.
    static func printArray<T: Encodable>(_ items: some Sequence<T>) throws {
        let enc = encoder()
        var out = Out.Batch()
        out.line("[")
        var pending: String?
        for item in items {
            if let p = pending { out.line(p + ",") }
            pending = String(decoding: try enc.encode(item), as: UTF8.self)
        }
        if let p = pending { out.line(p) }
        out.line("]")
    }
}

enum Formatting {
    /// `1 song`, `3 songs`: a count with its noun, for the messages that report one.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// `2026-11-30 21:42:37`: the local time at `t` (seconds since 1970), as `yyyy-MM-dd HH:mm:ss`.
    ///
    /// The offset comes from Foundation's `TimeZone.current`, the zone dates in queries and REFs
    /// are read in, and the fields from libc's `gmtime_r` of the shifted time, not a
    /// `DateFormatter`: its first use in a process costs about 2.2 M instructions, more than
    /// `history -n 1` spends on the rest of its output. Times outside the years 1600–9999 (the
    /// formatter's Julian calendar before 1582, its eras, libc's limits) go to the formatters.
    static func localTime(_ t: Double) -> String {
        guard let (fields, _) = local(t) else { return slow.withLock { $0.text.string(from: Date(timeIntervalSince1970: t)) } }
        return stamp(fields, separator: " ")
    }

    /// `2026-11-30T21:42:37+01:00`, or `…Z` in UTC: RFC 3339 in the local zone, as
    /// `ISO8601DateFormatter` with `.withInternetDateTime` writes it.
    static func isoDate(_ t: Double) -> String {
        guard let (fields, offset) = local(t) else { return slow.withLock { $0.iso.string(from: Date(timeIntervalSince1970: t)) } }
        return stamp(fields, separator: "T") + zone(offset)
    }

    /// The formatters, for the times `local` leaves to them; made at their first use.
    private static let slow = Mutex(SlowFormatters())

    private struct SlowFormatters {
        lazy var text: DateFormatter = {
            let f = DateFormatter()
            f.dateFormat = "yyyy-MM-dd HH:mm:ss"
            f.timeZone = .current
            return f
        }()
        lazy var iso: ISO8601DateFormatter = {
            let f = ISO8601DateFormatter()
            f.timeZone = .current
            f.formatOptions = [.withInternetDateTime]
            return f
        }()
    }

    /// The broken-down local time at `t` and the zone's offset from UTC there; nil outside
    /// 1600–9999. The second shown is the one the instant falls in after rounding to the
    /// millisecond, as Foundation's formatters round (CFDateFormatter adds half a millisecond).
    private static func local(_ t: Double) -> (tm, Int)? {
        guard t.isFinite, t > -11_676_096_000, t < 253_402_214_400 else { return nil }
        let date = Date(timeIntervalSince1970: t)
        let offset = TimeZone.current.secondsFromGMT(for: date)
        let seconds = ((t * 1000 + 0.5).rounded(.down) / 1000).rounded(.down)
        var shifted = time_t(seconds) + time_t(offset)
        var fields = tm()
        guard gmtime_r(&shifted, &fields) != nil else { return nil }
        let year = Int(fields.tm_year) + 1900
        guard year >= 1600, year <= 9999 else { return nil }
        return (fields, offset)
    }

    /// `yyyy-MM-dd HH:mm:ss` of broken-down time, with `separator` between date and time.
    static func stamp(_ f: tm, separator: Character) -> String {
        var s = digits(Int(f.tm_year) + 1900, 4)
        s += "-" + digits(Int(f.tm_mon) + 1, 2) + "-" + digits(Int(f.tm_mday), 2)
        s.append(separator)
        s += digits(Int(f.tm_hour), 2) + ":" + digits(Int(f.tm_min), 2) + ":" + digits(Int(f.tm_sec), 2)
        return s
    }

    /// `Z` for UTC, else `+hh:mm` or `-hh:mm`, and `:ss` when the offset has seconds (an old
    /// local mean time), as ICU writes the pattern `XXXXX`.
    static func zone(_ offset: Int) -> String {
        guard offset != 0 else { return "Z" }
        let a = abs(offset)
        var s = (offset < 0 ? "-" : "+") + digits(a / 3600, 2) + ":" + digits(a / 60 % 60, 2)
        if a % 60 != 0 { s += ":" + digits(a % 60, 2) }
        return s
    }

    /// `n` in decimal with leading zeros to `width` digits.
    private static func digits(_ n: Int, _ width: Int) -> String {
        let text = String(abs(n))
        let padded = text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        return n < 0 ? "-" + padded : padded
    }

    static func duration(_ d: Double?) -> String {
        guard let d else { return "" }
        let s = Int(d.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
