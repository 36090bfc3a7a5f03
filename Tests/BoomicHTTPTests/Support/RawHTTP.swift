import Foundation

/// A minimal HTTP/1.1 client for the front's tests: the request exactly as written (any
/// header, any method), `Connection: close`, the answer read to the end. Its blocking socket
/// runs on a thread of its own, never on a task of the pool the server's tasks run on.
enum RawHTTP {
    struct Answer: CustomStringConvertible {
        var status: Int
        /// Header names in lowercase.
        var headers: [String: String]
        var body: String
        var description: String { "\(status) \(headers) \(body)" }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// `method path` with `headers` and `body` to 127.0.0.1:`port`.
    static func send(_ port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: String = "") async throws -> Answer {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        var all = ["Host": "127.0.0.1:\(port)", "Connection": "close"].merging(headers) { $1 }
        if !body.isEmpty || method == "POST" { all["Content-Length"] = String(body.utf8.count) }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "\r\n" + body
        let request = text
        let raw: Result<[UInt8], Failure> = await withCheckedContinuation { done in
            Thread.detachNewThread { done.resume(returning: exchange(port, Array(request.utf8))) }
        }
        return try parse(raw.get())
    }

    static func get(_ port: Int, _ path: String, headers: [String: String] = [:]) async throws -> Answer {
        try await send(port, "GET", path, headers: headers)
    }

    private static func exchange(_ port: Int, _ request: [UInt8]) -> Result<[UInt8], Failure> {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failure(Failure(description: "socket: \(errno)")) }
        defer { close(fd) }
        // The front under test answers on tasks of the process's cooperative pool, which is as
        // wide as the machine's cores and which other suites' synchronous tests occupy while they
        // run (a CLI test running processes for seconds): on 2 cores the answer may wait for one
        // of them to end.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return .failure(Failure(description: "connect to \(port): \(errno)")) }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return .failure(Failure(description: "send: \(errno)")) }
            sent += n
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            guard n > 0 else { return .failure(Failure(description: "recv: \(errno) after \(answer.count) bytes")) }
            answer += buffer[..<n]
        }
        return .success(answer)
    }

    private static func parse(_ bytes: [UInt8]) throws -> Answer {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "no header end in \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw Failure(description: "no status in \(text)")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            var decoded = "", rest = Substring(body)
            while let end = rest.range(of: "\r\n"), let size = Int(rest[..<end.lowerBound], radix: 16), size > 0 {
                let start = end.upperBound
                let chunk = rest.utf8[start...].prefix(size)
                decoded += String(decoding: chunk, as: UTF8.self)
                rest = rest[rest.utf8.index(start, offsetBy: size)...].dropFirst(2)
            }
            body = decoded
        }
        return Answer(status: status, headers: headers, body: body)
    }
}
