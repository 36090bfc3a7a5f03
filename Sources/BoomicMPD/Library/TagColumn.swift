import BoomicCore

/// One tag's values for every song of the music tree, as numbers: song `i` (in the tree's
/// order) holds `numbers[starts[i]..<starts[i + 1]]`, each a place in `values`, which are in
/// byte order, so numbers compare as their values do.
///
/// What the whole-library `list … group …` and `count group` go over: a pass reading each
/// song's fields, hashing its strings, takes 15–25 ms at 50,000 songs (2–5× MPD's time), where
/// a pass over numbers takes a few. Built once per snapshot and tag, as the indexes are.
struct TagColumn: Sendable, Equatable {
    /// The distinct values (by bytes, as MPD has them) in byte order; "" among them when some
    /// song has none.
    let values: [String]
    let starts: [Int32]
    let numbers: [UInt32]

    /// `songs` in the tree's order; a song without the tag holds "" (MPD groups it so).
    init(_ level: TagLevel, songs: [Song]) {
        self = Self.build([level], songs: songs)[0]
    }

    private init(values: [String], starts: [Int32], numbers: [UInt32]) {
        self.values = values
        self.starts = starts
        self.numbers = numbers
    }

    /// The columns of several tags in one pass over the songs: reading a song's fields is a
    /// cache miss each, paid once for all of them (`list album group albumartist` needs two).
    static func build(_ levels: [TagLevel], songs: [Song]) -> [TagColumn] {
        var builders = levels.map { Builder($0, capacity: songs.count) }
        for song in songs {
            for i in builders.indices { builders[i].add(song) }
        }
        return builders.map { $0.finish() }
    }

    var songCount: Int { starts.count - 1 }

    /// The numbers song `i` holds (at least one: "" when it has none).
    @inline(__always) func numbers(of i: Int) -> ArraySlice<UInt32> {
        numbers[Int(starts[i])..<Int(starts[i + 1])]
    }

    /// A column as its songs come: numbers in the order values are first met, renumbered in
    /// byte order at the end.
    private struct Builder {
        let level: TagLevel
        var numberOf: [ValueKey: UInt32] = [:]
        var found: [String] = []
        var starts: [Int32] = [0]
        var numbers: [UInt32] = []
        /// Songs come folder by folder, so the next one mostly has the value the last one had.
        var last: (value: String, number: UInt32)?

        init(_ level: TagLevel, capacity: Int) {
            self.level = level
            starts.reserveCapacity(capacity + 1)
            numbers.reserveCapacity(capacity)
        }

        mutating func add(_ song: Song) {
            MPDResponse.forEachValue(of: level, in: song, orEmpty: true) { value in
                if let last, last.value.sameBytes(as: value) { numbers.append(last.number); return }
                let number: UInt32
                if let known = numberOf[ValueKey(value)] {
                    number = known
                } else {
                    number = UInt32(found.count)
                    numberOf[ValueKey(value)] = number
                    found.append(value)
                }
                last = (value, number)
                numbers.append(number)
            }
            starts.append(Int32(numbers.count))
        }

        func finish() -> TagColumn {
            let order = found.indices.sorted { found[$0].utf8.lexicographicallyPrecedes(found[$1].utf8) }
            var place = [UInt32](repeating: 0, count: found.count)
            for (rank, old) in order.enumerated() { place[old] = UInt32(rank) }
            return TagColumn(values: order.map { found[$0] }, starts: starts, numbers: numbers.map { place[Int($0)] })
        }
    }
}
