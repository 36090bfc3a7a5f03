import BoomicSystem
import Glibc

/// What libmpg123 reads an MP3 file through: the file's bytes, except that a stretch where the
/// chain of frames breaks (a damaged header, and the rest of that frame) reads as zeros.
///
/// Why: libmpg123 resyncs past a damaged header by searching for the next bytes that look like
/// one, and in a frame's data such bytes are common, so it can lock onto a false frame and
/// lose time. This reader walks the frame chain strictly (every header of the stream's own
/// kind, each at the end of the one before) and, where it breaks, finds the next frame that
/// starts a chain of two; zeros hold no false header, so libmpg123 lands exactly there, and
/// `MP3Decoder` sees the jump and puts silence of the lost frames' length in their place.
///
/// The walk follows the reads, a few frames ahead, so it costs no extra pass over the file.
/// Free-format streams (no length in the header) are read as they are.
/// Not `Sendable`: it belongs to its decoder's thread.
final class MP3FrameGuard {
    /// The file, opened by `AudioFile` (never by path again), and its descriptor.
    private let file: FileDescriptor
    private let fd: Int32
    private let size: Int
    /// Where libmpg123 reads next.
    private var offset = 0
    /// The audio frames lie before this (tags at the end of the file after it).
    private var audioEnd: Int
    /// The first frame's header: the stream's kind. Nil until found, or for free format.
    private var first: MPEGFrameHeader?
    /// Where the walk expects the next frame header; nil when it does not walk (yet).
    private var walk: Int?
    /// Stretches read as zeros, in file order.
    private(set) var damaged: [Range<Int>] = []
    /// The walk's window on the file: `cacheCount` bytes from `cacheStart`.
    private let cache: UnsafeMutableRawBufferPointer
    private var cacheStart = 0
    private var cacheCount = 0
    /// What libmpg123 reads, read ahead (apart from `cache`, which the walk moves).
    /// Both windows are memory allocated once rather than arrays: every use of an array held by
    /// a class is checked for exclusive access at run time, and those checks cost as much as
    /// the rest of the reading and walking.
    private let ahead: UnsafeMutableRawBufferPointer
    private var aheadStart = 0
    private var aheadCount = 0
    private static let window = 65_536

    init(path: String) throws(AudioError) {
        file = try AudioFile.open(path)
        fd = file.rawValue
        cache = .allocate(byteCount: Self.window, alignment: 16)
        ahead = .allocate(byteCount: Self.window, alignment: 16)
        var st = stat()
        fstat(fd, &st)
        size = Int(st.st_size)
        audioEnd = size
        audioEnd = trailingTagsStart()
        let start = leadingTagsEnd()
        if let s = (start..<min(audioEnd, start + 65_536)).first(where: { startsChain(at: $0) }) {
            first = header(at: s)
            walk = s
        }
    }

    deinit {
        cache.deallocate()
        ahead.deallocate()
    }

    // MARK: What libmpg123 calls

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        // From a 64 KiB read-ahead: libmpg123 asks for a header, then a frame, a few hundred
        // bytes at a time, and a system call for each shows in the profile.
        if offset < aheadStart || offset >= aheadStart + aheadCount {
            aheadStart = offset
            let got = pread(fd, ahead.baseAddress, Self.window, off_t(offset))
            aheadCount = max(0, got)
            if got < 0 { return got }
        }
        let n = min(count, aheadStart + aheadCount - offset)
        guard n > 0 else { return 0 }
        buffer.copyMemory(from: ahead.baseAddress! + (offset - aheadStart), byteCount: n)
        let range = offset..<(offset + n)
        advanceWalk(through: range.upperBound)
        if !damaged.isEmpty {
            for d in damaged.reversed() where d.overlaps(range) {
                let z = d.clamped(to: range)
                (buffer + (z.lowerBound - offset)).initializeMemory(as: UInt8.self, repeating: 0, count: z.count)
            }
        }
        offset += n
        return n
    }

    func seek(_ to: Int, whence: Int32) -> Int {
        let target: Int
        switch whence {
        case SEEK_SET: target = to
        case SEEK_CUR: target = offset + to
        case SEEK_END: target = size + to
        default: return -1
        }
        guard target >= 0 else { return -1 }
        offset = target
        return target
    }

    // MARK: The walk

    /// Walks the chain up to `end` (plus what the last frame spans), when the reads have
    /// come to it: a read far ahead of the walk (libmpg123 probing the end for a tag) is
    /// left alone.
    private func advanceWalk(through end: Int) {
        guard let first, var at = walk, end > at - 65_536, at < audioEnd else { return }
        while at < min(end + 8, audioEnd) {
            if let h = header(at: at), h.matches(first) {
                at += h.length
                continue
            }
            // The chain breaks here: the next frame that starts a chain of two ends the damage.
            let next = ((at + 1)..<audioEnd).first { startsChain(at: $0) } ?? audioEnd
            damaged.append(at..<next)
            at = next
        }
        walk = at
    }

    /// A header of the stream's kind at `at`, followed by another (or by the audio's end).
    private func startsChain(at: Int) -> Bool {
        guard let h = header(at: at), first.map({ h.matches($0) }) ?? true else { return false }
        let next = at + h.length
        if next >= audioEnd { return next <= size }
        guard let h2 = header(at: next) else { return false }
        return h2.matches(h)
    }

    private func header(at: Int) -> MPEGFrameHeader? {
        guard at + 4 <= size else { return nil }
        return MPEGFrameHeader(byte(at), byte(at + 1), byte(at + 2), byte(at + 3))
    }

    /// Where ID3v2 tags at the start end.
    private func leadingTagsEnd() -> Int {
        var at = 0
        while at + 10 <= size, byte(at) == 0x49, byte(at + 1) == 0x44, byte(at + 2) == 0x33 {
            let length = (6...9).reduce(0) { $0 << 7 | Int(byte(at + $1) & 0x7F) } // syncsafe
            at += 10 + length + (byte(at + 5) & 0x10 != 0 ? 10 : 0)
        }
        return at
    }

    /// Where an ID3v1 and an APEv2 tag at the end start (the audio ends there).
    private func trailingTagsStart() -> Int {
        var end = size
        if end >= 128, bytes(end - 128, 3) == Array("TAG".utf8) { end -= 128 }
        if end >= 32, bytes(end - 32, 8) == Array("APETAGEX".utf8) {
            let footer = bytes(end - 32, 32)
            let length = Int(footer[12]) | Int(footer[13]) << 8 | Int(footer[14]) << 16 | Int(footer[15]) << 24
            let hasHeader = footer[23] & 0x80 != 0
            end -= length + (hasHeader ? 32 : 0)
        }
        return max(0, end)
    }

    private func bytes(_ at: Int, _ count: Int) -> [UInt8] { (at..<(at + count)).map(byte) }

    /// The file's byte at `at`, through a 64 KiB window.
    private func byte(_ at: Int) -> UInt8 {
        if at < cacheStart || at >= cacheStart + cacheCount {
            cacheStart = at
            cacheCount = max(0, pread(fd, cache.baseAddress, Self.window, off_t(at)))
            if cacheCount == 0 { return 0 }
        }
        return cache[at - cacheStart]
    }
}
