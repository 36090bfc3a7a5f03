import BoomicSystem

/// The bytes of a snapshot image and whoever owns them: an array copied in (a read-only library,
/// the tests) or a mapped file (`library.image`). Immutable once made; the image reads them in
/// place, and a basis that keeps this value keeps the mapping alive.
///
/// `@unchecked Sendable`: the buffer is written only in `init`, or through the buffer `filled`
/// hands out before the value is shared (a mapping is never written at all), and freed only in
/// `deinit`, when nothing references it; every other access reads.
public final class ImageBytes: @unchecked Sendable {
    public let buffer: UnsafeRawBufferPointer
    private let release: () -> Void
    /// The file mapped, when the bytes are one; nil for a copy.
    public let mapping: MappedFile?

    /// A private copy of `bytes`, 8-byte aligned so fixed-width values load in place.
    public init(copying bytes: some Collection<UInt8>) {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 8)
        // One memcpy when the bytes are contiguous (an array, a SQLite blob): the generic copy
        // goes a byte at a time through the collection's witnesses, 0.2 s for a 10 MB image.
        if bytes.withContiguousStorageIfAvailable({ raw.copyMemory(from: UnsafeRawBufferPointer($0)) }) == nil {
            _ = raw.initializeMemory(as: UInt8.self, from: bytes)
        }
        buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(raw)[0..<bytes.count])
        release = { raw.deallocate() }
        mapping = nil
    }

    /// `count` bytes of private, 8-byte aligned memory, with the buffer to fill them through
    /// before the value is shared (a checkpoint read out of SQLite by incremental blob I/O).
    public static func filled(count: Int) -> (value: ImageBytes, buffer: UnsafeMutableRawBufferPointer) {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, count), alignment: 8)
        let buffer = UnsafeMutableRawBufferPointer(rebasing: raw[0..<count])
        return (ImageBytes(buffer: UnsafeRawBufferPointer(buffer), release: { raw.deallocate() }), buffer)
    }

    private init(buffer: UnsafeRawBufferPointer, release: @escaping () -> Void) {
        self.buffer = buffer
        self.release = release
        mapping = nil
    }

    /// A private copy of raw bytes (a checkpoint read out of SQLite): one memcpy.
    public convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(copying: UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    /// The bytes of a mapped file, read in place (a mapping starts on a page, so it is 8-byte
    /// aligned) and kept mapped for as long as this value lives.
    public init(mapping: MappedFile) {
        buffer = mapping.bytes
        release = {}
        self.mapping = mapping
    }

    deinit { release() }

    public var count: Int { buffer.count }
}
