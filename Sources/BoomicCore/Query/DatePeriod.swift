import Foundation

/// A date as people type it (`2026`, `2026-01`, `2026-01-15`, `2026-01-15T10:30`), read as the
/// period it names: its first instant and the first instant after it. Queries, taglist rules
/// and REFs (`--as-of 2026-11-01`) all read dates through here, so they agree on what a day is.
public enum DatePeriod {
    public static func parse(_ text: String, timeZone: TimeZone) -> (start: Double, end: Double)? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let ymd = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(ymd.count), ymd.allSatisfy({ $0 != nil }), parts[0].split(separator: "-")[0].count == 4 else { return nil }
        var hour: Int?, minute: Int?
        if parts.count == 2 {
            let hm = parts[1].split(separator: ":").map { Int($0) }
            guard ymd.count == 3, (1...2).contains(hm.count), hm.allSatisfy({ $0 != nil }) else { return nil }
            hour = hm[0]
            minute = hm.count > 1 ? hm[1] : nil
        }
        if ymd.count < 3 {
            return period(year: ymd[0]!, month: ymd.count > 1 ? ymd[1]! : nil, day: nil, timeZone: timeZone)
        }
        return period(year: ymd[0]!, month: ymd[1]!, day: ymd[2]!, hour: hour, minute: minute, timeZone: timeZone)
    }

    /// The period named by a date down to whichever component is given last: a year, a month, a
    /// day, an hour, a minute or a second. Nil for a date the calendar does not have (30 February,
    /// month 13, hour 24), which a lenient calendar would silently move to another day.
    public static func period(year: Int, month: Int?, day: Int?, hour: Int? = nil, minute: Int? = nil,
                              second: Int? = nil, timeZone: TimeZone) -> (start: Double, end: Double)? {
        guard (1...12).contains(month ?? 1), (1...31).contains(day ?? 1), (0...23).contains(hour ?? 0),
              (0...59).contains(minute ?? 0), (0...60).contains(second ?? 0) else { return nil }
        var c = DateComponents()
        c.year = year; c.month = month ?? 1; c.day = day ?? 1
        c.hour = hour ?? 0; c.minute = minute ?? 0; c.second = second ?? 0
        let step: Calendar.Component = second != nil ? .second : minute != nil ? .minute : hour != nil ? .hour
            : day != nil ? .day : month != nil ? .month : .year
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        guard let start = cal.date(from: c), cal.component(.day, from: start) == c.day,
              cal.component(.month, from: start) == c.month,
              let end = cal.date(byAdding: step, value: 1, to: start) else { return nil }
        return (start.timeIntervalSince1970, end.timeIntervalSince1970)
    }
}

extension Ref {
    /// For a date REF, the first instant after the moment it names: `--as-of 2026-11-01` is the
    /// state at the end of that day, so every transaction before this instant is in it. Nil for
    /// other REFs and for dates the calendar does not have.
    public func end(in timeZone: TimeZone) -> Double? {
        guard case let .date(y, mo, d, h, mi, s) = self else { return nil }
        return DatePeriod.period(year: y, month: mo, day: d, hour: h, minute: mi, second: s, timeZone: timeZone)?.end
    }
}
