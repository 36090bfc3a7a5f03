/// An HTTP `Range` header (RFC 9110 §14) read against a file's size: the one range of bytes to
/// send, answered 206 with `Content-Range`.
///
/// Only single ranges are answered: `bytes=FIRST-LAST`, `bytes=FIRST-` (to the end) and
/// `bytes=-N` (the last N). A list of several ranges is answered with the whole file (200),
/// which the RFC allows a server to do. A header that is no range of bytes, or names none of the
/// file's bytes (a start at or past the end, `bytes=-0`), is unsatisfiable: 416 with
/// `Content-Range: bytes */SIZE`.
enum MediaRange: Equatable {
    /// No range asked (or several): the whole file.
    case whole
    /// The bytes `first...last` of the file, both within it.
    case part(ClosedRange<Int>)
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header else { self = .whole; return }
        let text = header.trimmingCharacters(in: " \t")
        guard text.lowercased().hasPrefix("bytes=") else { self = .unsatisfiable; return }
        let spec = text.dropFirst(6).trimmingCharacters(in: " \t")
        if spec.contains(",") { self = .whole; return }
        guard let dash = spec.firstIndex(of: "-") else { self = .unsatisfiable; return }
        let head = spec[..<dash], tail = spec[spec.index(after: dash)...]
        if head.isEmpty {
            // The last N bytes; a file shorter than N is sent whole.
            guard let n = Self.number(tail), n > 0, size > 0 else { self = .unsatisfiable; return }
            self = .part(max(0, size - n)...(size - 1))
            return
        }
        guard let first = Self.number(head), first < size else { self = .unsatisfiable; return }
        if tail.isEmpty { self = .part(first...(size - 1)); return }
        guard let last = Self.number(tail), last >= first else { self = .unsatisfiable; return }
        self = .part(first...min(last, size - 1))
    }

    /// Digits only (no sign, no space); a number too large for `Int` is `Int.max`, which lies
    /// past any file's end.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text) ?? .max
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        String(self.drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String { String(self).trimmingCharacters(in: set) }
}
