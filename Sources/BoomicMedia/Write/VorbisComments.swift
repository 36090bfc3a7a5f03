import Foundation

/// Vorbis comments, as FLAC's VORBIS_COMMENT block and Ogg's comment packets hold them: the
/// vendor string and the `KEY=value` entries, as bytes and in the file's order, and the edits
/// that keep them so (`applying`).
struct VorbisComments: Equatable {
    var vendor: [UInt8]
    var entries: [[UInt8]]

    /// The entry's key, upper-cased (ASCII), or nil when it has no `=`.
    static func key(of entry: [UInt8]) -> String? {
        guard let eq = entry.firstIndex(of: 0x3D) else { return nil }
        return String(decoding: entry[..<eq].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// The entries as TagLib's properties: upper-case key → values, in order (pictures kept as
    /// comments are not properties). A value that is not UTF-8 reads as "", as TagLib reads it
    /// (and so the library): an edit of another field must not take it for a value to remove.
    var properties: [String: [String]] {
        var out: [String: [String]] = [:]
        for entry in entries {
            guard let key = Self.key(of: entry), !key.isEmpty, key != "METADATA_BLOCK_PICTURE", key != "COVERART" else { continue }
            out[key, default: []].append(String(validating: Self.value(of: entry), as: UTF8.self) ?? "")
        }
        return out
    }

    static func value(of entry: [UInt8]) -> [UInt8] {
        guard let eq = entry.firstIndex(of: 0x3D) else { return [] }
        return Array(entry[(eq + 1)...])
    }

    /// The entries with `changes` made (upper-case key → its values; no values: remove the
    /// key). For each key, the file's entries of it take the new values in order: an entry
    /// whose value stays keeps its bytes, one whose value changes keeps its key's spelling,
    /// entries beyond the new values go, and values beyond the entries follow the key's
    /// last entry (a new key goes at the end, upper-cased). Other entries are untouched.
    func applying(_ changes: [String: [String]]) -> VorbisComments {
        var out = entries
        // Keys in a fixed order, so the result does not depend on the dictionary's.
        for key in changes.keys.sorted() {
            let values = changes[key]!.map { Array($0.utf8) }
            let places = out.indices.filter { Self.key(of: out[$0]) == key }
            var replaced = out
            for (i, place) in places.enumerated() where i < values.count {
                if Self.value(of: out[place]) != values[i] {
                    let eq = out[place].firstIndex(of: 0x3D)!
                    replaced[place] = Array(out[place][...eq]) + values[i]
                }
            }
            let extra = values.dropFirst(places.count).map { Array(key.utf8) + [0x3D] + $0 }
            let doomed = Set(places.dropFirst(values.count))
            var next: [[UInt8]] = []
            for i in replaced.indices where !doomed.contains(i) {
                next.append(replaced[i])
                if i == places.last { next.append(contentsOf: extra) }
            }
            if places.isEmpty { next.append(contentsOf: extra) }
            out = next
        }
        return VorbisComments(vendor: vendor, entries: out)
    }

    /// The entries with the front covers (METADATA_BLOCK_PICTURE entries of type 3, as Ogg
    /// keeps pictures) replaced by `picture` (a FLAC PICTURE block's body), or removed when it
    /// is nil: the new one where the first was, else last. Other pictures stay.
    func replacingFrontCover(with picture: [UInt8]?) -> VorbisComments {
        // The picture type is its first 4 bytes: the first 8 base64 characters hold them (and
        // 2 more), so a cover of megabytes is not decoded to be told apart.
        let isFront = { (entry: [UInt8]) -> Bool in
            guard Self.key(of: entry) == "METADATA_BLOCK_PICTURE",
                  let bytes = Data(base64Encoded: Data(Self.value(of: entry).prefix(8))) else { return false }
            return bytes.count >= 4 && bytes.prefix(4).elementsEqual([0, 0, 0, 3])
        }
        let new = picture.map { Array("METADATA_BLOCK_PICTURE=".utf8) + Array(Data($0).base64EncodedData()) }
        let first = entries.firstIndex(where: isFront)
        var out: [[UInt8]] = []
        for (i, entry) in entries.enumerated() {
            if i == first, let new { out.append(new) }
            if !isFront(entry) { out.append(entry) }
        }
        if first == nil, let new { out.append(new) }
        return VorbisComments(vendor: vendor, entries: out)
    }

    init(vendor: [UInt8], entries: [[UInt8]]) {
        self.vendor = vendor
        self.entries = entries
    }

    /// Parses a VORBIS_COMMENT body; nil unless it is exactly that (lengths that fit, no
    /// bytes left over).
    init?(body: [UInt8]) {
        guard let (comments, used) = Self.parse(body[...]), used == body.count else { return nil }
        self = comments
    }

    /// The comments at the start of `bytes`, and how many bytes they take (what follows is
    /// not theirs: Vorbis' framing bit, Opus' padding); nil when a length does not fit.
    static func parse(_ bytes: ArraySlice<UInt8>) -> (VorbisComments, Int)? {
        var at = bytes.startIndex
        func length() -> Int? {
            guard bytes.endIndex - at >= 4 else { return nil }
            let n = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
            at += 4
            return n
        }
        func take() -> [UInt8]? {
            guard let n = length(), n <= bytes.endIndex - at else { return nil }
            defer { at += n }
            return Array(bytes[at..<(at + n)])
        }
        guard let vendor = take(), let count = length(), count <= (bytes.endIndex - at) / 4 else { return nil }
        var entries: [[UInt8]] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let entry = take() else { return nil }
            entries.append(entry)
        }
        return (VorbisComments(vendor: vendor, entries: entries), at - bytes.startIndex)
    }

    var body: [UInt8] {
        var out: [UInt8] = []
        func length(_ n: Int) { out += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)] }
        length(vendor.count)
        out += vendor
        length(entries.count)
        for entry in entries {
            length(entry.count)
            out += entry
        }
        return out
    }
}

/// The comment header packet of an Ogg Vorbis or Opus stream: its signature (`\u{3}vorbis`,
/// `OpusTags`), the comments, and whatever follows them (Vorbis' framing bit, the padding
/// mutagen and others leave, Opus' extra data), which is kept as it is.
struct OggCommentPacket: Equatable {
    static let signatures: [[UInt8]] = [[3] + Array("vorbis".utf8), Array("OpusTags".utf8)]

    var signature: [UInt8]
    var comments: VorbisComments
    var trailer: [UInt8]

    init?(_ packet: [UInt8]) {
        guard let signature = Self.signatures.first(where: { packet.starts(with: $0) }),
              let (comments, used) = VorbisComments.parse(packet[signature.count...]) else { return nil }
        self.signature = signature
        self.comments = comments
        trailer = Array(packet[(signature.count + used)...])
    }

    var bytes: [UInt8] { signature + comments.body + trailer }
}
