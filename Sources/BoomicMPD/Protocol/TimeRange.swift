#if canImport(Glibc)
import Glibc
#endif

/// A song's `START:END` as `rangeid` takes it, read as MPD 0.23 reads it (`parse_time_range`):
/// each side a C float (`strtof`: spaces before it, `1e1`, `0x1`, `inf` and `nan` are numbers),
/// either side empty for the song's edge, neither negative, and the end, when given and not 0,
/// after the start; in milliseconds, as MPD's `SongTime` keeps them. A value too large for that
/// is 0, as MPD's conversion leaves it on this platform.
enum TimeRange {
    /// nil for MPD's `Bad range`.
    static func parse(_ text: String) -> (start: UInt32, end: UInt32)? {
        text.withCString { base -> (start: UInt32, end: UInt32)? in
            var stop: UnsafeMutablePointer<CChar>?
            let start = strtof(base, &stop)
            guard let afterStart = stop, afterStart.pointee == UInt8(ascii: ":"), !(start < 0) else { return nil }
            let startMS = afterStart == UnsafeMutablePointer(mutating: base) ? 0 : milliseconds(start)
            let endText = afterStart + 1
            let end = strtof(endText, &stop)
            guard let afterEnd = stop, afterEnd.pointee == 0, !(end < 0) else { return nil }
            let endMS = afterEnd == endText ? 0 : milliseconds(end)
            guard endMS == 0 || endMS > startMS else { return nil }
            return (startMS, endMS)
        }
    }

    private static func milliseconds(_ seconds: Float) -> UInt32 {
        let ms = seconds * 1000
        guard ms.isFinite, ms >= 0, ms < Float(UInt32.max) else { return 0 }
        return UInt32(ms)
    }
}
