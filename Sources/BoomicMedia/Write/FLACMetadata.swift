/// A FLAC file's metadata blocks, and the Vorbis comments in them edited the way the file
/// already has them: what writing a few fields changes in a FLAC, and nothing else.
///
/// Why not TagLib's save: TagLib 1.13 keeps Vorbis comments in a map, so it writes every key
/// upper-cased and sorted by name whatever the file had (`title` before `TITLE`, Picard's order
/// lost), drops entries it cannot parse, rewrites an ID3v2 tag in front, and rewrites the whole
/// file with 4 KiB of padding even when the file had room. Here an untouched entry keeps its
/// bytes and its place, a changed one keeps its key as spelled, and the padding the file has
/// takes up the difference in size, so the audio does not move (as metaflac and mutagen do).
///
/// Pure: bytes in, bytes out. `TagWriter` does the reading and writing, and reads the result
/// back through TagLib before it replaces anything.
struct FLACMetadata: Equatable {
    /// One metadata block: its type (0 STREAMINFO, 1 PADDING, 4 VORBIS_COMMENT, 6 PICTURE, …)
    /// and its body; headers are rebuilt on rendering (only the last block is flagged last).
    struct Block: Equatable {
        var type: UInt8
        var body: [UInt8]
    }

    static let vorbisComment: UInt8 = 4
    static let padding: UInt8 = 1
    static let pictureBlock: UInt8 = 6
    /// The padding a file that had no room for its new comments gets, so that the next edits
    /// fit (what `flac` gives a new file).
    static let roomyPadding = 8192
    /// The largest body a block header can state.
    static let maxBlockBody = (1 << 24) - 1

    var blocks: [Block]

    /// The blocks of a metadata region: the bytes from just after `fLaC` up to the first audio
    /// frame. Nil unless STREAMINFO comes first and every block fits exactly.
    init?(region: [UInt8]) {
        var at = 0, blocks: [Block] = [], last = false
        while !last {
            guard at + 4 <= region.count else { return nil }
            last = region[at] & 0x80 != 0
            let type = region[at] & 0x7F
            let n = Int(region[at + 1]) << 16 | Int(region[at + 2]) << 8 | Int(region[at + 3])
            at += 4
            guard type != 127, n <= region.count - at else { return nil }
            blocks.append(Block(type: type, body: Array(region[at..<(at + n)])))
            at += n
        }
        guard at == region.count, blocks.first?.type == 0, blocks.first?.body.count == 34 else { return nil }
        self.blocks = blocks
    }

    init(blocks: [Block]) {
        self.blocks = blocks
    }

    /// The region's length, as `region` stated it: what follows it is audio.
    static func regionLength(headers: (Int) -> [UInt8]?) -> Int? {
        var at = 0
        while true {
            guard let h = headers(at), h.count == 4 else { return nil }
            at += 4 + (Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3]))
            if h[0] & 0x80 != 0 { return at }
        }
    }

    var region: [UInt8] {
        var out: [UInt8] = []
        for (i, block) in blocks.enumerated() {
            let n = block.body.count
            out += [block.type | (i == blocks.count - 1 ? 0x80 : 0), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            out += block.body
        }
        return out
    }

    /// The Vorbis comments readers take: the first VORBIS_COMMENT block's (TagLib and libFLAC
    /// ignore a second one, which an edit leaves as it is); none (no entries) when the file has
    /// no such block; nil when the block is damaged.
    var comments: VorbisComments? {
        guard let block = blocks.first(where: { $0.type == Self.vorbisComment }) else {
            return VorbisComments(vendor: Array("Boomic".utf8), entries: [])
        }
        return VorbisComments(body: block.body)
    }

    /// The blocks with the Vorbis comments replaced by `new` (a file without comments gets a
    /// block after STREAMINFO); nil when they no longer fit in a block. `laidOut(like:)` then
    /// fits the result in the file's room.
    func replacingComments(with new: VorbisComments) -> FLACMetadata? {
        let body = new.body
        guard body.count <= Self.maxBlockBody else { return nil }
        var out = blocks
        if let at = blocks.firstIndex(where: { $0.type == Self.vorbisComment }) {
            out[at].body = body
        } else {
            out.insert(Block(type: Self.vorbisComment, body: body), at: 1)
        }
        return FLACMetadata(blocks: out)
    }

    /// The blocks with the front covers (PICTURE blocks of type 3) replaced by `picture` (a
    /// PICTURE block's body, `FLACMetadata.picture`), or removed when it is nil, as TagLib
    /// replaces them: the new one where the first front cover was, else before the padding.
    /// Other pictures (a back cover, an artist) stay. Nil when it does not fit in a block.
    func replacingFrontCover(with picture: [UInt8]?) -> FLACMetadata? {
        if let picture, picture.count > Self.maxBlockBody { return nil }
        let isFront = { (b: Block) in b.type == Self.pictureBlock && b.body.count >= 4 && b.body[0..<4].elementsEqual([0, 0, 0, 3]) }
        let first = blocks.firstIndex(where: isFront)
        var out: [Block] = []
        for (i, block) in blocks.enumerated() {
            if i == first, let picture { out.append(Block(type: Self.pictureBlock, body: picture)) }
            if !isFront(block) { out.append(block) }
        }
        if first == nil, let picture {
            let at = out.firstIndex { $0.type == Self.padding } ?? out.count
            out.insert(Block(type: Self.pictureBlock, body: picture), at: at)
        }
        return FLACMetadata(blocks: out)
    }

    /// A PICTURE block's body: type 3 (front cover), the MIME type, no description, sizes and
    /// colours unknown (0, as TagLib writes them), the image.
    static func picture(_ image: [UInt8], mime: String) -> [UInt8] {
        func u32(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
        let m = Array(mime.utf8)
        return u32(3) + u32(m.count) + m + u32(0) + u32(0) + u32(0) + u32(0) + u32(0) + u32(image.count) + image
    }

    /// These blocks, edited from `old`'s, laid out to keep `old`'s length when the padding
    /// allows: the last PADDING block shrinks or grows by the change (or goes, when that is
    /// exactly its size), or a new one takes up what the edit freed. `fits` says whether the
    /// length was kept; when it was not, the region ends with `roomyPadding` bytes of padding
    /// and the audio must move.
    func laidOut(like old: FLACMetadata) -> (metadata: FLACMetadata, fits: Bool) {
        var out = blocks
        let growth = region.count - old.region.count
        if growth == 0 { return (FLACMetadata(blocks: out), true) }
        if let pad = out.lastIndex(where: { $0.type == Self.padding }) {
            let room = out[pad].body.count
            if growth <= room, room - growth <= Self.maxBlockBody {
                out[pad].body = [UInt8](repeating: 0, count: room - growth)
                return (FLACMetadata(blocks: out), true)
            }
            if growth == room + 4 {
                out.remove(at: pad)
                return (FLACMetadata(blocks: out), true)
            }
            out.remove(at: pad)
        } else if growth <= -4 {
            out.append(Block(type: Self.padding, body: [UInt8](repeating: 0, count: -growth - 4)))
            return (FLACMetadata(blocks: out), true)
        }
        out.append(Block(type: Self.padding, body: [UInt8](repeating: 0, count: Self.roomyPadding)))
        return (FLACMetadata(blocks: out), false)
    }

    /// Where the `fLaC` marker is: 0, or just after an ID3v2 tag in front (some rippers write
    /// one), given the file's first 10 bytes; nil when the file does not start as a FLAC.
    static func markerOffset(head: [UInt8]) -> Int? {
        guard head.count >= 10 else { return nil }
        if head[0..<3].elementsEqual("ID3".utf8) {
            let size = head[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            return 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
        }
        return 0
    }
}
