/// What a key does in `boomic play` on a terminal.
enum PlayerKey: Equatable {
    case togglePause, next, previous, quit
    /// Seconds to move by: ←/→ 10 s, and spoken word's b (back 15 s) and f (forward 30 s).
    case seekBy(Double)
    case volume(Int)
    /// Tenths of speed to change by: `[` slower, `]` faster.
    case speed(Int)
    case toggleShuffle, cycleRepeat, cycleEQ

    /// The keys in what the terminal sent (raw mode: one read may hold several keys, and an
    /// arrow is three bytes, ESC [ C). Unknown bytes are ignored.
    static func decode(_ bytes: [UInt8]) -> [PlayerKey] {
        var keys: [PlayerKey] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                switch bytes[i + 2] {
                case UInt8(ascii: "C"): keys.append(.seekBy(10))
                case UInt8(ascii: "D"): keys.append(.seekBy(-10))
                case UInt8(ascii: "A"): keys.append(.volume(5))
                case UInt8(ascii: "B"): keys.append(.volume(-5))
                default: break
                }
                i += 3
                continue
            }
            switch b {
            case UInt8(ascii: " "): keys.append(.togglePause)
            case UInt8(ascii: "n"): keys.append(.next)
            case UInt8(ascii: "p"): keys.append(.previous)
            case UInt8(ascii: "q"), 0x03, 0x04: keys.append(.quit) // q, ^C, ^D
            case UInt8(ascii: "+"), UInt8(ascii: "="): keys.append(.volume(5))
            case UInt8(ascii: "-"): keys.append(.volume(-5))
            case UInt8(ascii: "s"): keys.append(.toggleShuffle)
            case UInt8(ascii: "r"): keys.append(.cycleRepeat)
            case UInt8(ascii: "e"): keys.append(.cycleEQ)
            case UInt8(ascii: "b"): keys.append(.seekBy(-15))
            case UInt8(ascii: "f"): keys.append(.seekBy(30))
            case UInt8(ascii: "["): keys.append(.speed(-1))
            case UInt8(ascii: "]"): keys.append(.speed(1))
            default: break
            }
            i += 1
        }
        return keys
    }
}
