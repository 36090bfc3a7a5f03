import Foundation
import Synchronization

/// An HTTP/1.1 client for the media tests that keeps the body as bytes (`RawHTTP` reads text):
/// the request as written, `Connection: close`, the answer read to the end, a chunked body
/// decoded. Its blocking socket runs on a thread of its own.
enum MediaHTTP {
    struct Answer: CustomStringConvertible {
        var status: Int
        /// Header names in lowercase.
        var headers: [String: String]
        var body: [UInt8]
        var description: String { "\(status) \(headers) \(body.count) bytes: \(String(decoding: body.prefix(300), as: UTF8.self))" }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func send(_ port: Int, _ method: String, _ path: String, headers: [String: String] = [:]) async throws -> Answer {
        let raw: Result<[UInt8], Failure> = await withCheckedContinuation { done in
            Thread.detachNewThread {
                done.resume(returning: Result { () throws(Failure) in
                    let socket = try Connection(port: port)
                    try socket.send(request(port, method, path, headers))
                    return try socket.readToEnd()
                })
            }
        }
        return try parse(raw.get(), method: method)
    }

    static func request(_ port: Int, _ method: String, _ path: String, _ headers: [String: String]) -> [UInt8] {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        let all = ["Host": "127.0.0.1:\(port)", "Connection": "close"].merging(headers) { $1 }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// A blocking loopback connection; closed when dropped.
    final class Connection {
        let fd: Int32

        /// - Parameter receiveBuffer: a small `SO_RCVBUF` for a client that reads slowly.
        init(port: Int, receiveBuffer: Int? = nil) throws(Failure) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if var size = receiveBuffer.map(Int32.init) {
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(fd); throw Failure(description: "connect to \(port): \(errno)") }
        }

        deinit { close(fd) }

        func send(_ bytes: [UInt8]) throws(Failure) {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { throw Failure(description: "send: \(errno)") }
                sent += n
            }
        }

        /// Up to `count` bytes; empty at the end.
        func read(_ count: Int) throws(Failure) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n >= 0 else { throw Failure(description: "recv: \(errno)") }
            return Array(buffer[..<n])
        }

        func readToEnd() throws(Failure) -> [UInt8] {
            var answer: [UInt8] = []
            while true {
                let chunk = try read(1 << 16)
                if chunk.isEmpty { return answer }
                answer += chunk
            }
        }
    }

    static func parse(_ bytes: [UInt8], method: String = "GET") throws -> Answer {
        let end = Array("\r\n\r\n".utf8)
        guard let split = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(end) }) else {
            throw Failure(description: "no header end in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<split], as: UTF8.self).components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw Failure(description: "no status in \(lines)")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(split + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            var decoded: [UInt8] = [], at = 0
            while let lineEnd = (at..<max(at, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }),
                  let size = Int(String(decoding: body[at..<lineEnd], as: UTF8.self), radix: 16), size > 0 {
                let start = lineEnd + 2
                decoded += body[start..<min(body.count, start + size)]
                at = start + size + 2
            }
            body = decoded
        }
        return Answer(status: status, headers: headers, body: body)
    }
}
