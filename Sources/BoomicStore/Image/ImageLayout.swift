import BoomicCore

/// The fixed parts of a snapshot image's layout (storage.md, "The image"), shared by the writer
/// and the reader.
///
/// ```
/// header, 72 bytes: magic "BOOMIMG\0"; container version (u32); block count (u32); codec format
///                   (u64); seq (u64); total length (u64); directory offset (u64); directory length
///                   (u64); xxh64 of the directory's extent (u64); xxh64 of the 64 bytes before it
/// blocks, each starting 8-aligned, zero-padded to the next multiple of 8
/// directory: per block its kind (u32), name length (u32), offset (u64), length (u64), the name's
///            UTF-8 zero-padded to a multiple of 8, then the xxh64 of each 4 KiB segment of its
///            padded extent (the last one shorter); 16 KiB in container version 2, still read
/// ```
/// Every byte lies under one checksum (the header's, the directory's or a segment's), so any
/// flipped byte is found: at open for the header and directory, at a segment's first touch for
/// the rest. A segment rather than a whole block is the unit so that reading 100 songs of a
/// million checks what those songs lie in, not every column they have a value in. All numbers
/// are little-endian.
enum ImageLayout {
    static let magic: [UInt8] = Array("BOOMIMG\0".utf8)
    /// 3: 4 KiB segments. 2, still read: 16 KiB.
    static let version: UInt32 = 3
    static let headerSize = 72
    static let entryFixedSize = 24
    /// Bytes a segment checksum covers, as the shift of a power of two (a byte's segment is a
    /// shift). A page: a song materialised from an image reads a value in each of some sixty
    /// blocks, and checks the segment around each value, so at 16 KiB a hundred songs of a
    /// large library had megabytes hashed for kilobytes read.
    static let segmentShift = 12
    static let segmentSize = 1 << segmentShift

    /// The segment shift of the images of a container version; nil for a version not read.
    static func segmentShift(ofVersion version: UInt32) -> Int? {
        switch version {
        case 3: 12
        case 2: 14
        default: nil
        }
    }

    /// How many segments a block of `length` bytes has (its padded extent's).
    static func segments(_ length: Int, shift: Int = segmentShift) -> Int {
        (padded(length) + (1 << shift) - 1) >> shift
    }

    static func padded(_ n: Int) -> Int { (n + 7) & ~7 }

    /// Sets the header's codec format and seq, and its checksum again, when `bytes` are an image
    /// (begin with the magic); leaves anything else alone. The `Transactor` stamps each image
    /// checkpoint with the seq it is stored at, which its codec does not know.
    static func stamp(_ bytes: inout [UInt8], format: UInt64, seq: UInt64) {
        guard bytes.count >= headerSize, bytes.prefix(8).elementsEqual(magic) else { return }
        bytes.withUnsafeMutableBytes { b in
            b.storeBytes(of: format.littleEndian, toByteOffset: 16, as: UInt64.self)
            b.storeBytes(of: seq.littleEndian, toByteOffset: 24, as: UInt64.self)
            let checksum = XXH64.hash(UnsafeRawBufferPointer(rebasing: b[0..<64]))
            b.storeBytes(of: checksum.littleEndian, toByteOffset: 64, as: UInt64.self)
        }
    }

    /// The total length a header says its image has; nil for fewer bytes than a header.
    static func totalLength(_ header: some Collection<UInt8>) -> UInt64? {
        guard header.count >= headerSize else { return nil }
        return header.dropFirst(32).prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}

/// What a block holds, so a reader knows how to check and read it.
public enum ImageBlockKind: UInt32, Sendable, CaseIterable {
    /// Bytes only the codec understands (the lists' JSON).
    case raw = 0
    /// Distinct strings in byte order: a value's code is its rank (`ImageStrings`).
    case strings = 1
    /// One fixed-width value per row (`ImageColumn`).
    case column = 2
    /// Sorted keys, each with a sorted run of row numbers (`ImagePostings`).
    case postings = 3
}
