import BoomicCore
import BoomicStore
import Foundation

/// How a DataBasis is stored in a checkpoint: its songs in `SongCodec`'s binary form, then its
/// taglists and playlists as JSON. The indexes are derived, so they are rebuilt on load rather
/// than stored.
///
/// Layout: the song blob's length (8 bytes, little-endian), the song blob, then a JSON object
/// `{"taglists": [{"id", "value"}], "playlists": [...], "eqProfiles": [...], "annotations": [{"key", "value"}]}`. Lists are few and small, so JSON costs
/// nothing measurable and stays readable; songs are most of the bytes and all of the decode time.
public enum BasisCodec {
    /// Bump `layout` when this wrapper changes; `SongCodec.version` covers the song blob.
    /// 3: EQ profiles (a checkpoint of layout 2 is skipped and the log replayed, once).
    /// 4: album and artist annotations (stars and ratings).
    private static let layout = 4

    public static let codec = CheckpointCodec<DataBasis>(
        format: layout << 8 | Int(SongCodec.version),
        encode: { basis in
            // In path order: decoding allocates each song's storage in this order, so a walk
            // of the library by folder (`listallinfo`, `lsinfo`, the server's tree) reads memory
            // in order instead of at random: a quarter faster at 50,000 songs.
            var byPath = basis.songs.values.map { ($0.path, $0) }
            byPath.sort { $0.0 < $1.0 }
            let songs = SongCodec.encode(byPath.map(\.1))
            var out = [UInt8]()
            out.reserveCapacity(songs.count + 64)
            withUnsafeBytes(of: UInt64(songs.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: songs)
            let lists = Lists(taglists: basis.taglists.map { .init(id: $0.key, value: $0.value) }.sorted { $0.id < $1.id },
                              playlists: basis.playlists.map { .init(id: $0.key, value: $0.value) }.sorted { $0.id < $1.id },
                              eqProfiles: basis.eqProfiles.map { .init(id: $0.key, value: $0.value) }.sorted { $0.id < $1.id },
                              annotations: basis.annotations.map { .init(key: $0.key, value: $0.value) }.sorted { $0.key < $1.key })
            out.append(contentsOf: try JSONEncoder().encode(lists))
            return out
        },
        decode: { (bytes: UnsafeRawBufferPointer) in
            guard bytes.count >= 8 else { throw StoreError.badEncoding("checkpoint shorter than its header") }
            guard let n = Int(exactly: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))),
                  n <= bytes.count - 8 else { throw StoreError.badEncoding("checkpoint song blob runs past its end") }
            let songs = try SongCodec.decode(UnsafeRawBufferPointer(rebasing: bytes[8..<(8 + n)]))
            let lists = try JSONDecoder().decode(Lists.self, from: Data(bytes[(8 + n)...]))
            return DataBasis(uniqueSongs: songs,
                             taglists: Dictionary(lists.taglists.map { ($0.id, $0.value) }, uniquingKeysWith: { $1 }),
                             playlists: Dictionary(lists.playlists.map { ($0.id, $0.value) }, uniquingKeysWith: { $1 }),
                             eqProfiles: Dictionary(lists.eqProfiles.map { ($0.id, $0.value) }, uniquingKeysWith: { $1 }),
                             annotations: Dictionary(lists.annotations.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
        }
    )

    private struct Lists: Codable {
        struct Entry<V: Codable>: Codable { var id: ListID; var value: V }
        var taglists: [Entry<Taglist>]
        var playlists: [Entry<Playlist>]
        var eqProfiles: [Entry<EQProfile>]
        var annotations: [Keyed<Annotation>]
        struct Keyed<V: Codable>: Codable { var key: AnnotationKey; var value: V }
    }
}
