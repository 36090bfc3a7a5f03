import BoomicTestSupport
import Foundation
@testable import BoomicStore

// A toy transaction and basis: named counters with add/set/delete. The Transactor knows no music,
// so its tests use the smallest model whose replays can go wrong in every way a library's can.

struct Counters: Sendable, Equatable, Codable {
    var values: [String: Int] = [:]
}

enum Change: Codable, Sendable, Equatable {
    case add(String, Int)
    case set(String, Int)
    case delete(String)
}

struct Op: LoggedTransaction, Equatable {
    var id: UUID
    var timestamp: Double
    var kindName: String
    var label: String
    var changes: [Change]

    init(id: UUID, timestamp: Double, kindName: String = "edit", label: String = "", changes: [Change]) {
        self.id = id
        self.timestamp = timestamp
        self.kindName = kindName
        self.label = label
        self.changes = changes
    }

    private enum Key: String, CodingKey { case id, timestamp, kindName, label, changes }

    /// A label of "poison" cannot be read back: the stand-in for a Codable bug.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        id = try c.decode(UUID.self, forKey: .id)
        timestamp = try c.decode(Double.self, forKey: .timestamp)
        kindName = try c.decode(String.self, forKey: .kindName)
        label = try c.decode(String.self, forKey: .label)
        changes = try c.decode([Change].self, forKey: .changes)
        if label == "poison" {
            throw DecodingError.dataCorruptedError(forKey: .label, in: c, debugDescription: "poisoned")
        }
    }
}

@Sendable func applyOp(_ op: Op, _ basis: Counters) -> Counters {
    var b = basis
    for change in op.changes {
        switch change {
        case let .add(k, n): b.values[k, default: 0] &+= n
        case let .set(k, n): b.values[k] = n
        case let .delete(k): b.values[k] = nil
        }
    }
    return b
}

/// Flatten by concatenation: trivially lawful, and it makes `basis(at:)` take the flatten path.
@Sendable func flattenOps(_ ops: [Op]) -> Op {
    Op(id: ops.last!.id, timestamp: ops.last!.timestamp, label: "flattened", changes: ops.flatMap(\.changes))
}

let countersCodec = CheckpointCodec<Counters>(
    format: 1,
    encode: { [UInt8](try JSONEncoder().encode($0)) },
    decodeArray: { try JSONDecoder().decode(Counters.self, from: Data($0)) })

typealias ToyStore = Transactor<Op, Counters>

/// Checkpoints are thinned by count alone (`retained`) unless `sizeRatio` is given: the toy's
/// checkpoints differ in size by a few bytes, which the tests of thinning by count must not see.
func openToy(_ path: String, checkpointEvery: Int? = nil, flatten: Bool = true, retained: Int? = 10,
             sizeRatio: Int? = nil, sizeFloor: Int = 0, minimumGap: Int = 0, verifiesWrites: Bool = true,
             appliesCommitsWhenRead: Bool = false,
             apply: @escaping @Sendable (Op, Counters) -> Counters = applyOp) throws -> ToyStore {
    try ToyStore(path: path, initial: Counters(), apply: apply, flatten: flatten ? flattenOps : nil,
                 codec: checkpointEvery == nil ? nil : countersCodec,
                 policy: CheckpointPolicy(every: checkpointEvery ?? 500, sizeRatio: sizeRatio, sizeFloor: sizeFloor,
                                          minimumGap: minimumGap, retained: retained),
                 verifiesWrites: verifiesWrites, appliesCommitsWhenRead: appliesCommitsWhenRead)
}

extension SplitMix64 {
    mutating func op(at time: Double) -> Op {
        let keys = ["a", "b", "c", "d"]
        let changes: [Change] = (0..<Int.random(in: 1...3, using: &self)).map { _ in
            let k = keys.randomElement(using: &self)!
            switch Int.random(in: 0..<10, using: &self) {
            case 0..<6: return .add(k, Int.random(in: -5...5, using: &self))
            case 6..<9: return .set(k, Int.random(in: -100...100, using: &self))
            default: return .delete(k)
            }
        }
        return Op(id: uuid(), timestamp: time, label: "op", changes: changes)
    }
}

/// Raw SQL on a library file, for tests that damage it on purpose.
func tamper(_ path: String, _ sql: String) throws {
    let c = try SQLiteConnection(path: path)
    try c.execute(sql)
}
