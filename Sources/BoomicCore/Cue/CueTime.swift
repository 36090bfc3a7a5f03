/// A time in a CUE sheet, `mm:ss:ff`: minutes, seconds and CD frames, 75 frames a second.
///
/// Kept as frames, so that samples come out exact: at 44.1 kHz a frame is 588 samples; at any
/// rate it is `frames × rate / 75` in integers (a fraction of a sample, at rates 75 does not
/// divide, is dropped).
public struct CueTime: Comparable, Hashable, Sendable {
    public static let framesPerSecond = 75
    public var frames: Int

    public init(frames: Int) { self.frames = frames }

    public init(minutes: Int, seconds: Int, frames: Int) {
        self.frames = (minutes * 60 + seconds) * Self.framesPerSecond + frames
    }

    /// `mm:ss:ff` with seconds below 60 and frames below 75; minutes may pass 99 (long images).
    public init?(_ text: Substring) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let m = Int(parts[0]), let s = Int(parts[1]), let f = Int(parts[2]), s < 60, f < Self.framesPerSecond
        else { return nil }
        self.init(minutes: m, seconds: s, frames: f)
    }

    /// The sample of a file at `rate` Hz this time falls on.
    public func samples(atRate rate: Int) -> Int { frames * rate / Self.framesPerSecond }

    /// `mm:ss:ff`, as sheets spell it.
    public var text: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        let f = frames % Self.framesPerSecond, s = frames / Self.framesPerSecond
        return "\(two(s / 60)):\(two(s % 60)):\(two(f))"
    }

    public static func < (a: CueTime, b: CueTime) -> Bool { a.frames < b.frames }
}
