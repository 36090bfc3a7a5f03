import BoomicCore
import BoomicSystem
import Glibc

/// Vorbis comments written into FLAC and Ogg files as the file has them (`VorbisComments`),
/// instead of through TagLib's rendering, which re-sorts and upper-cases every key (and, for a
/// FLAC, rewrites the whole file and any ID3 tag in front of it).
extension TagWriter {
    /// What a write does to the front cover, when Boomic edits the file itself.
    enum CoverEdit {
        case keep
        /// A FLAC PICTURE block's body (`FLACMetadata.picture`).
        case replace([UInt8])
        case remove

        /// The new cover for `replacingFrontCover` (nil: none), or nil when it stays.
        var replacement: [UInt8]?? {
            switch self {
            case .keep: nil
            case .replace(let body): .some(body)
            case .remove: .some(nil)
            }
        }
    }

    /// The largest metadata region read into memory (pictures included); a file with more goes
    /// to TagLib.
    static let maxFLACRegion = 64 << 20

    /// Writes `song`'s tags into `copy`, an exact copy of `source`, as edits of its own Vorbis
    /// comment entries: the changes are those that make the comments themselves read as the
    /// song. A FLAC whose tags TagLib reads from an ID3 tag beside empty comments (`original`'s
    /// properties) gets all of them in its comments, the library's changes made, since TagLib
    /// reads the comments from then on (as TagLib's own save does). Returns false,
    /// having written nothing, when the file is not the shape this handles (a damaged block, a
    /// huge region): TagLib writes it then. The caller reads the copy back through TagLib
    /// before using it, as it does after TagLib.
    static func writeFLACComments(_ song: Song, original: TagFile, cover: CoverEdit, copy: FileDescriptor,
                                  source: FileDescriptor, for path: String) throws(MediaError) -> Bool {
        // The file's metadata region, and where it starts (after an ID3 tag in front, if any).
        let found: (metadata: FLACMetadata, start: Int, length: Int)?
        do {
            found = try flacMetadata(in: source)
        } catch {
            throw .unwritable(path: path, reason: "cannot read the file (\(error.reason))")
        }
        guard let (metadata, start, length) = found, let comments = metadata.comments else { return false }
        let changes: [String: [String]]
        if original.flacReadsComments {
            changes = TagMap.changes(from: comments.properties, to: song, format: .flac)
        } else {
            var wanted = original.properties()
            for (key, values) in TagMap.changes(from: wanted, to: song, format: .flac) { wanted[key] = values }
            let current = comments.properties
            changes = wanted.filter { current[$0.key] ?? [] != $0.value }
        }
        var next = metadata.replacingComments(with: comments.applying(changes))
        if let picture = cover.replacement { next = next?.replacingFrontCover(with: picture) }
        guard let (edited, fits) = next?.laidOut(like: metadata) else {
            throw .unwritable(path: path, reason: "its tags would be larger than a FLAC metadata block holds (16 MiB); left as it was")
        }
        do {
            let region = edited.region
            try copy.write(region, at: start)
            if fits { return true }
            // The audio moves: copy it from the original to just after the new region.
            try copyTail(of: source, from: start + length, into: copy, at: start + region.count)
            return true
        } catch {
            throw .unwritable(path: path, reason: "cannot write the copy (\(error.reason))")
        }
    }

    /// The FLAC metadata blocks of the open file, where they start and how long they are; nil
    /// when the file is not a FLAC this reads (damaged blocks, a region over `maxFLACRegion`).
    private static func flacMetadata(in source: FileDescriptor) throws(SystemError) -> (FLACMetadata, Int, Int)? {
        let head = try source.read(count: 10, at: 0)
        guard let marker = FLACMetadata.markerOffset(head: head),
              try source.read(count: 4, at: marker).elementsEqual("fLaC".utf8) else { return nil }
        let start = marker + 4
        let length = FLACMetadata.regionLength { at in
            at < maxFLACRegion ? try? source.read(count: 4, at: start + at) : nil
        }
        guard let length, length <= maxFLACRegion,
              let metadata = FLACMetadata(region: try source.read(count: length, at: start)) else { return nil }
        return (metadata, start, length)
    }

    /// Writes `changes` into the Ogg Vorbis or Opus file open as `file` (the copy) as edits of
    /// its comment packet, which TagLib then lays out in pages. Returns false, having written
    /// nothing, when the packet is not one this reads.
    static func writeOggComments(_ changes: [String: [String]], cover: CoverEdit, into file: TagFile) throws(MediaError) -> Bool {
        guard let packet = file.oggCommentPacket(), var parsed = OggCommentPacket(packet) else { return false }
        parsed.comments = parsed.comments.applying(changes)
        if let picture = cover.replacement { parsed.comments = parsed.comments.replacingFrontCover(with: picture) }
        try file.saveOggCommentPacket(parsed.bytes)
        return true
    }

}
