import BoomicCore
import BoomicStore
import Foundation

/// How a DataBasis is stored in a checkpoint: a snapshot image (storage.md, "The image") whose
/// songs are the rows of `ImageSongs`, plus a block of its taglists, playlists, EQ profiles and
/// annotations as JSON. The decoded basis reads its songs where they lie, so opening costs the
/// image's header and checksums, not a song each; the indexes are derived and built when asked.
///
/// Lists are few and small, so JSON stays readable; a basis decodes them when first read.
public enum BasisCodec {
    /// Bump `layout` when the image's blocks change.
    /// 3: EQ profiles (a checkpoint of layout 2 is skipped and the log replayed, once).
    /// 4: album and artist annotations (stars and ratings).
    /// 5: the snapshot image (layout 4's `SongCodec` blob is skipped and the log replayed, once).
    /// 6: the image's checksums by 16 KiB segment (container version 2).
    private static let layout = 6

    public static let format = layout << 8 | 1

    /// The Transactor maps the newest checkpoint's image from `library.image` and hands the
    /// mapping to `decode`; the basis keeps it, so songs are read from the page cache.
    public static let codec = CheckpointCodec<DataBasis>(
        format: format,
        encode: { basis in try encode(basis) },
        decodeImage: { bytes in try decode(bytes) }
    )

    /// The image of a basis.
    public static func encode(_ basis: DataBasis) throws -> [UInt8] {
        var image = ImageWriter()
        try ImageSongsWriter.write(Array(basis.songs.values), into: &image)
        let lists = Lists(taglists: basis.taglists.map { .init(id: $0.key, value: $0.value) }.sorted { $0.id < $1.id },
                          playlists: basis.playlists.map { .init(id: $0.key, value: $0.value) }.sorted { $0.id < $1.id },
                          eqProfiles: basis.eqProfiles.map { .init(id: $0.key, value: $0.value) }.sorted { $0.id < $1.id },
                          annotations: basis.annotations.map { .init(key: $0.key, value: $0.value) }.sorted { $0.key < $1.key })
        try image.raw(ImageSongs.Names.lists, Array(JSONEncoder().encode(lists)))
        return image.bytes(format: UInt64(format), seq: 0)
    }

    /// The basis an image holds; it keeps `bytes` (a copy or a mapping) for as long as it lives.
    public static func decode(_ bytes: ImageBytes) throws -> DataBasis {
        let image = try SnapshotImage(bytes)
        guard image.format == UInt64(format) else { throw StoreError.badEncoding("checkpoint image of format \(image.format), not \(format)") }
        let songs = try ImageSongs(image)
        // Checked against its checksums here; decoded when first read (`HeldLists` says why).
        let json = Data(try image.block(ImageSongs.Names.lists))
        return DataBasis(image: songs, lists: { decodeLists(json) })
    }

    /// The lists of a checked image. Its bytes are what this format's encoder wrote, so a failure
    /// is a defect of this build, not damage, and stops the process rather than reading on
    /// without the user's taglists.
    static func decodeLists(_ json: Data) -> BasisLists {
        let lists: Lists
        do {
            lists = try JSONDecoder().decode(Lists.self, from: json)
        } catch {
            preconditionFailure("library image: its lists, though their checksums match, do not decode: \(error)")
        }
        return BasisLists(taglists: Dictionary(lists.taglists.map { ($0.id, $0.value) }, uniquingKeysWith: { $1 }),
                          playlists: Dictionary(lists.playlists.map { ($0.id, $0.value) }, uniquingKeysWith: { $1 }),
                          eqProfiles: Dictionary(lists.eqProfiles.map { ($0.id, $0.value) }, uniquingKeysWith: { $1 }),
                          annotations: Dictionary(lists.annotations.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
    }

    private struct Lists: Codable {
        struct Entry<V: Codable>: Codable { var id: ListID; var value: V }
        var taglists: [Entry<Taglist>]
        var playlists: [Entry<Playlist>]
        var eqProfiles: [Entry<EQProfile>]
        var annotations: [Keyed<Annotation>]
        struct Keyed<V: Codable>: Codable { var key: AnnotationKey; var value: V }
    }
}
