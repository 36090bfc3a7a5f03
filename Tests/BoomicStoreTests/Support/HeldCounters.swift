import BoomicTestSupport
import Foundation
@testable import BoomicStore

/// The counters as an image basis: decoded from a snapshot image whose one raw block holds them,
/// keeping the image (and so its bytes, a mapping or a copy) as a basis of the image codec does.
/// Equal by the counters alone, whatever holds them.
struct HeldCounters: Sendable, Equatable {
    var counters: Counters
    var image: SnapshotImage?

    init(_ counters: Counters = Counters(), image: SnapshotImage? = nil) {
        self.counters = counters
        self.image = image
    }

    static func == (a: HeldCounters, b: HeldCounters) -> Bool { a.counters == b.counters }

    /// The counters read again from the kept image's block (checked against its checksum).
    func reread() throws -> Counters? {
        guard let image else { return nil }
        return try JSONDecoder().decode(Counters.self, from: Data(image.block("counters")))
    }
}

@Sendable func applyHeld(_ op: Op, _ basis: HeldCounters) -> HeldCounters {
    HeldCounters(applyOp(op, basis.counters), image: basis.image)
}

let heldCodec = CheckpointCodec<HeldCounters>(
    format: 7,
    encode: { basis in
        var writer = ImageWriter()
        try writer.raw("counters", [UInt8](try JSONEncoder().encode(basis.counters)))
        return writer.bytes(format: 0, seq: 0)
    },
    decodeImage: { bytes in
        let image = try SnapshotImage(bytes)
        let counters = try JSONDecoder().decode(Counters.self, from: Data(image.block("counters")))
        return HeldCounters(counters, image: image)
    })

typealias HeldStore = Transactor<Op, HeldCounters>

/// A log of held counters with an image checkpoint every `checkpointEvery` transactions;
/// `readOnly` opens it as a library this user may not write.
func openHeld(_ path: String, checkpointEvery: Int = 5, readOnly: Bool = false) throws -> HeldStore {
    try HeldStore(path: path, create: !readOnly, initial: HeldCounters(), apply: applyHeld, flatten: flattenOps,
                  codec: heldCodec, policy: CheckpointPolicy(every: checkpointEvery), verifiesWrites: true,
                  touchIndexing: nil,
                  denied: readOnly ? .readOnlyLibrary(path: path, reason: "denied by the test") : nil)
}
