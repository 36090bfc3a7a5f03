import BoomicCore
import BoomicStore

/// How a DataBasis is stored in a checkpoint: its songs in `SongCodec`'s binary form. The
/// indexes are derived, so they are rebuilt on load rather than stored.
enum BasisCodec {
    static let codec = CheckpointCodec<DataBasis>(
        format: Int(SongCodec.version),
        encode: { basis in SongCodec.encode(Array(basis.songs.values)) },
        decode: { (bytes: UnsafeRawBufferPointer) in DataBasis(songs: try SongCodec.decode(bytes)) }
    )
}
