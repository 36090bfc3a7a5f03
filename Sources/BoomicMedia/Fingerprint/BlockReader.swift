/// Serves small reads from one cached block, so walking a container's headers costs one system
/// call instead of one per header (a FLAC's metadata blocks, an Ogg file's header pages).
///
/// Reads of `blockSize` bytes or more go straight to the source. Used by one file on one thread.
final class BlockReader {
    private let source: AudioRange.Reader
    private let blockSize: Int
    private var start: Int64 = 0
    private var block: [UInt8] = []
    private var isLoaded = false

    init(blockSize: Int = 4096, source: @escaping AudioRange.Reader) {
        self.blockSize = blockSize
        self.source = source
    }

    func read(_ offset: Int64, _ count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        if count >= blockSize { return source(offset, count) }
        let end = start + Int64(block.count)
        let blockReachedEOF = block.count < blockSize
        if isLoaded, offset >= start, offset + Int64(count) <= end || (blockReachedEOF && offset <= end) {
            let from = Int(offset - start)
            return Array(block[from..<min(block.count, from + count)])
        }
        block = source(offset, blockSize)
        start = offset
        isLoaded = true
        return Array(block.prefix(count))
    }

    /// A `Reader` closure over this cache.
    var reader: AudioRange.Reader {
        { [self] offset, count in read(offset, count) }
    }
}
