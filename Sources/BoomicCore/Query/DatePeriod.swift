import Foundation

/// A date as people type it in queries (`2026`, `2026-01`, `2026-01-15`, `2026-01-15T10:30`),
/// read as the period it names: its first instant and the first instant after it.
enum DatePeriod {
    static func parse(_ text: String, timeZone: TimeZone) -> (start: Double, end: Double)? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let ymd = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(ymd.count), ymd.allSatisfy({ $0 != nil }), parts[0].split(separator: "-")[0].count == 4 else { return nil }
        var c = DateComponents()
        c.year = ymd[0]; c.month = ymd.count > 1 ? ymd[1] : 1; c.day = ymd.count > 2 ? ymd[2] : 1
        guard (1...12).contains(c.month!), (1...31).contains(c.day!) else { return nil }
        var step: Calendar.Component = ymd.count == 1 ? .year : ymd.count == 2 ? .month : .day
        if parts.count == 2 {
            let hm = parts[1].split(separator: ":").map { Int($0) }
            guard ymd.count == 3, (1...2).contains(hm.count), hm.allSatisfy({ $0 != nil }),
                  (0...23).contains(hm[0]!), (0...59).contains(hm.count > 1 ? hm[1]! : 0) else { return nil }
            c.hour = hm[0]; c.minute = hm.count > 1 ? hm[1] : 0
            step = hm.count == 1 ? .hour : .minute
        }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        guard let start = cal.date(from: c), let end = cal.date(byAdding: step, value: 1, to: start) else { return nil }
        return (start.timeIntervalSince1970, end.timeIntervalSince1970)
    }
}
