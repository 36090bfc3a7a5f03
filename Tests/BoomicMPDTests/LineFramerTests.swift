@testable import BoomicMPD
import NIOCore
import Testing

/// Request lines from the byte stream, however the reads cut it: `\n` or `\r\n`, a line over
/// the limit reported once and skipped to its end, bad UTF-8 reported, and a last line
/// without its newline kept until it ends.
@Suite struct LineFramerTests {
    static func describe(_ lines: [RequestLine]) -> [String] {
        lines.map {
            switch $0 {
            case let .line(text): "line " + text
            case .tooLong: "too long"
            case .badText: "bad text"
            }
        }
    }

    /// The stream cut into reads of `size` bytes.
    static func frame(_ bytes: [UInt8], readsOf size: Int, limit: Int = 16) -> [String] {
        var framer = LineFramer(limit: limit)
        var lines: [RequestLine] = []
        var i = 0
        while i < bytes.count {
            framer.take(ByteBuffer(bytes: bytes[i..<min(bytes.count, i + size)]), into: &lines)
            i += size
        }
        return describe(lines)
    }

    @Test(arguments: [1, 2, 3, 7, 1000])
    func linesAreTheSameHoweverTheReadsCutThem(size: Int) {
        let stream = Array("status\r\nplay 3\n\nthis line is far too long for the limit\nping\n".utf8)
            + [0x66, 0xFF, 0x0A] + Array("unfinished".utf8)
        #expect(Self.frame(stream, readsOf: size)
            == ["line status", "line play 3", "line ", "too long", "line ping", "bad text"])
    }

    @Test func aLineOverTheLimitIsReportedOnceWhileItGoesOn() {
        var framer = LineFramer(limit: 8)
        var lines: [RequestLine] = []
        for _ in 0..<5 { framer.take(ByteBuffer(string: "xxxxxxxxxx"), into: &lines) }
        framer.take(ByteBuffer(string: "x\nok\n"), into: &lines)
        #expect(Self.describe(lines) == ["too long", "line ok"])
    }
}
