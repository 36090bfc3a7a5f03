import BoomicCore
import BoomicStore
import Foundation

/// How a DataBasis is stored in a checkpoint: its songs only (the indexes are rebuilt on load,
/// since they are derived and cheaper to rebuild than to store).
enum BasisCodec {
    static let codec = CheckpointCodec<DataBasis>(
        format: 1,
        encode: { basis in
            let enc = JSONEncoder()
            return [UInt8](try enc.encode(Array(basis.songs.values)))
        },
        decode: { (bytes: UnsafeRawBufferPointer) in
            let songs = try JSONDecoder().decode([Song].self, from: Data(bytes))
            return DataBasis(songs: songs)
        }
    )
}
