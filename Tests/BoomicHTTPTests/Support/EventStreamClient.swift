import Foundation
import Synchronization

/// A Server-Sent Events client for the front's tests: one request on a blocking socket read by
/// a thread of its own (never a task of the pool the server answers on), the answer kept as it
/// comes, its events parsed on demand. `reads: false` never reads (a browser that stalls), with
/// a small receive buffer so that the server's writes back up.
final class EventStreamClient: Sendable {
    struct Event: CustomStringConvertible {
        var name: String
        var id: String?
        var data: String
        var description: String { "\(name)#\(id ?? "-") \(data.prefix(300))" }
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]) ?? [:] }
    }

    private let fd: Int32
    /// What the reading thread received, and whether the server closed the stream.
    private final class Received: Sendable {
        let bytes = Mutex<[UInt8]>([])
        let ended = Atomic<Bool>(false)
    }

    private let received = Received()

    init(port: Int, path: String, headers: [String: String], reads: Bool = true) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        guard fd >= 0 else { throw RawHTTP.Failure(description: "socket: \(errno)") }
        if !reads {
            var size: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawHTTP.Failure(description: "connect: \(errno)") }
        var text = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        let request = Array((text + "\r\n").utf8)
        let sent = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { throw RawHTTP.Failure(description: "send: \(errno)") }
        guard reads else { return }
        let descriptor = fd, received = received
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                received.bytes.withLock { $0 += buffer[..<n] }
            }
            received.ended.store(true, ordering: .releasing)
        }
    }

    /// Whether the server ended the stream (or the connection).
    var isEnded: Bool { received.ended.load(ordering: .acquiring) }

    /// Closes the socket (the browser leaves).
    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    deinit { Glibc.close(fd) }

    /// The status and headers (names in lowercase), once they came.
    var head: (status: Int, headers: [String: String])? {
        let text = String(decoding: received.bytes.withLock { $0 }, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        let status = lines.first?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers)
    }

    /// The body so far, its chunked framing taken off.
    var body: String {
        let bytes = received.bytes.withLock { $0 }
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return "" }
        var rest = bytes[end.upperBound...]
        var out: [UInt8] = []
        while let line = rest.firstRange(of: Array("\r\n".utf8)),
              let size = Int(String(decoding: rest[rest.startIndex..<line.lowerBound], as: UTF8.self), radix: 16), size > 0 {
            let start = line.upperBound
            guard rest.endIndex - start >= size else {
                out += rest[start...]
                break
            }
            out += rest[start..<(start + size)]
            rest = rest[(start + size)...].dropFirst(2)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The events received whole so far, comments left out.
    var events: [Event] {
        var list: [Event] = []
        for block in body.components(separatedBy: "\n\n").dropLast() {
            var event = Event(name: "message", data: "")
            var data: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix(":") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.hasPrefix(" ") ? String($0.dropFirst()) : String($0) }
                switch parts[0] {
                case "event": event.name = parts.count > 1 ? parts[1] : ""
                case "id": event.id = parts.count > 1 ? parts[1] : ""
                case "data": data.append(parts.count > 1 ? parts[1] : "")
                default: break
                }
            }
            guard !data.isEmpty else { continue }
            event.data = data.joined(separator: "\n")
            list.append(event)
        }
        return list
    }
}
