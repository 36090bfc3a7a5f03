/// How a song's channels become the sink's, by a fixed rule (MPD's, where it has one):
///
/// - the same count: unchanged;
/// - mono to stereo: copied to both; mono to more: copied to the front left and right, the
///   rest silent;
/// - to mono: the average of all channels;
/// - more than two to stereo: left is the average of the even channels (front left, centre,
///   surround left, …), right that of the odd ones, as MPD does;
/// - otherwise more to fewer: the first channels are kept, the rest dropped; fewer to more: the
///   channels are kept where they are, the new ones silent.
///
/// Copying keeps samples exact; averaging makes fractions, which a converter to integers dithers.
enum ChannelMap: Equatable {
    case same
    /// For each output channel, the input channel it copies, or nil for silence.
    case copy([Int?])
    /// For each output channel, the input channels it averages.
    case average([[Int]])

    init(from n: Int, to m: Int) {
        if n == m {
            self = .same
        } else if n == 1 {
            self = .copy((0..<m).map { $0 < 2 ? 0 : nil })
        } else if m == 1 {
            self = .average([Array(0..<n)])
        } else if m == 2 {
            self = .average([Array(stride(from: 0, to: n, by: 2)), Array(stride(from: 1, to: n, by: 2))])
        } else {
            self = .copy((0..<m).map { $0 < n ? $0 : nil })
        }
    }

    var isExact: Bool {
        if case .average = self { return false }
        return true
    }

    /// Maps `frames` frames of `n` channels into `out` (room for them in `m` channels), for a
    /// map that only copies (`isExact`): integers stay exact.
    func copy<T: Numeric>(_ input: UnsafePointer<T>, frames: Int, from n: Int, to m: Int, into out: UnsafeMutablePointer<T>) {
        switch self {
        case .same:
            out.update(from: input, count: frames * n)
        case .copy(let sources):
            for f in 0..<frames {
                for c in 0..<m { out[f * m + c] = sources[c].map { input[f * n + $0] } ?? 0 }
            }
        case .average:
            preconditionFailure("averaging is done by mix, in Double")
        }
    }

    /// Maps any way, in Double.
    func mix(_ input: UnsafePointer<Double>, frames: Int, from n: Int, to m: Int, into out: UnsafeMutablePointer<Double>) {
        guard case .average(let groups) = self else {
            return copy(input, frames: frames, from: n, to: m, into: out)
        }
        for f in 0..<frames {
            for c in 0..<m {
                var sum = 0.0
                for i in groups[c] { sum += input[f * n + i] }
                out[f * m + c] = groups[c].isEmpty ? 0 : sum / Double(groups[c].count)
            }
        }
    }
}
