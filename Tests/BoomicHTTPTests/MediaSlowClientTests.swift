@testable import BoomicHTTP
import BoomicTestSupport
import Foundation
import Glibc
import Testing

/// A client that stops reading a transcode holds the encoder (back pressure through the
/// response writer, the socket and the pipe), not a growing buffer; a client that leaves ends
/// it: no `boomic-ffmpeg` is left running.
@Suite(.serialized) struct MediaSlowClientTests {
    /// This process's `boomic-ffmpeg` children encoding 8 kHz (the long song's rate: no other
    /// test transcodes one), with the bytes each wrote so far (`wchar`).
    static func encoders() -> [(pid: Int32, written: Int)] {
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> (Int32, Int)? in
            guard let pid = Int32(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == me, stat.contains("(boomic-ffmpeg)"),
                  let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  String(decoding: command, as: UTF8.self).split(separator: "\0").contains("8000") else { return nil }
            let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
            let written = io.split(separator: "\n").first { $0.hasPrefix("wchar:") }
                .flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
            return (pid, written)
        }
    }

    /// Ten minutes of mono Opus asked at 510 kbit/s is sent at 256 (libopus's most for one
    /// channel), 19 MB. The client takes 64 KiB and stops: the encoder's output stops growing
    /// far short of that, and when the client leaves the encoder is gone.
    @Test func aSlowClientHoldsTheEncoderAndOneThatLeavesEndsIt() async throws {
        let f = try await MediaFixture.shared.value
        let id = try f.id("Long.flac")
        #expect(Self.encoders().isEmpty, "an encoder left from before")
        let connection = try MediaHTTP.Connection(port: f.port, receiveBuffer: 8192)
        try connection.send(MediaHTTP.request(f.port, "GET", f.path("stream", "id=\(id)&format=opus&maxBitRate=510"), [:]))
        var taken: [UInt8] = []
        while taken.count < 1 << 16 {
            let chunk = try connection.read(1 << 16)
            #expect(!chunk.isEmpty, "the answer ended: \(String(decoding: taken.prefix(600), as: UTF8.self))")
            if chunk.isEmpty { break }
            taken += chunk
        }
        try await waitUntil("an encoder running") { Self.encoders().count == 1 }
        // The encoder's output stops growing: it waits on the full pipe.
        var last = -1, still = 0
        try await waitUntil("the encoder to stall", timeout: .seconds(30)) {
            let now = Self.encoders().first?.written ?? -1
            still = now == last ? still + 1 : 0
            last = now
            return still >= 40
        }
        #expect(last < 10_000_000, "the encoder wrote \(last) bytes for a client that took \(taken.count)")
        #expect(Self.encoders().count == 1)
        // The client leaves: the encoder ends.
        _ = consume connection
        try await waitUntil("the encoder to end", timeout: .seconds(20)) { Self.encoders().isEmpty }
    }

    /// A client that leaves a file stream midway: the server goes on answering others.
    @Test func aClientThatLeavesAFileStream() async throws {
        let f = try await MediaFixture.shared.value
        let id = try f.id("Long.flac")
        do {
            let connection = try MediaHTTP.Connection(port: f.port, receiveBuffer: 4096)
            try connection.send(MediaHTTP.request(f.port, "GET", f.path("stream", "id=\(id)"), [:]))
            #expect(try !connection.read(4096).isEmpty)
        }
        let answer = try await f.get("stream", "id=\(try f.id("02 Plain.mp3"))")
        #expect(Bytes(answer.body) == Bytes(try f.bytes(of: try f.song("02 Plain.mp3").path)))
    }
}
