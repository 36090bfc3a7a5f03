import Glibc

/// Times as Subsonic answers carry them: ISO 8601 in UTC to the millisecond
/// (`2024-05-04T10:00:00.000Z`), as Navidrome writes them and every client parses them.
enum SubsonicTime {
    /// Seconds since 1970 as ISO 8601; a time that is not finite as the epoch.
    static func iso(_ seconds: Double) -> String {
        let s = seconds.isFinite ? seconds : 0
        let whole = s.rounded(.down)
        var t = time_t(whole)
        var parts = tm()
        gmtime_r(&t, &parts)
        let millis = min(999, max(0, Int(((s - whole) * 1000).rounded(.down))))
        return pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
            + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
            + "." + pad(millis, 3) + "Z"
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
