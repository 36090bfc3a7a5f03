import BoomicCore
import Foundation

/// The text `search any WORD` looks through, laid out once per snapshot for a byte search:
/// each song's values of every tag MPD's `any` tests (`MPDFilter.anyTag`: the artists joined
/// with `; ` and the credit, the date else the year, and each other tag's field, numbers in
/// decimal; not the file name), lowercased, one after the other in one buffer, each ending in
/// a newline (which no needle holds: it ends a request line).
///
/// Why: matching field by field reads eight strings scattered over the heap per song, and a
/// search of 50,000 songs waits on those memory reads (90 ms, against MPD's 60); one pass
/// over ~7 MB of contiguous bytes takes a few milliseconds.
///
/// Exactly the matcher's answer: for text that is plain ASCII (without a CR), the matcher's
/// case-insensitive ASCII test is this byte search of the lowercased text, and a needle found
/// in the joined artists is found in one of them or in the joined form the matcher also tries.
/// Songs with any other text are kept aside for the matcher itself.
struct AnyFieldText: Sendable {
    private let bytes: [UInt8]
    /// Where each song's text ends in `bytes`, and the song.
    private let ends: [Int]
    private let ids: [SongID]
    /// Songs in the tree whose text is not plain ASCII: the matcher decides for them.
    let others: [SongID]

    init(basis: DataBasis, inTree: (Song) -> Bool) {
        var bytes: [UInt8] = [], ends: [Int] = [], ids: [SongID] = [], others: [SongID] = []
        bytes.reserveCapacity(basis.songs.count * 160)
        ends.reserveCapacity(basis.songs.count)
        ids.reserveCapacity(basis.songs.count)
        for song in basis.songs.values where inTree(song) {
            let start = bytes.count
            var plain = true
            func add(_ value: String?) {
                guard plain, let value else { return }
                for b in value.utf8 {
                    if b >= 0x80 || b == 0x0D || b == 0x0A {
                        plain = false
                        return
                    }
                    bytes.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
                }
                bytes.append(0x0A)
            }
            for tag in MPDTag.allCases {
                switch tag {
                case .artist:
                    if !song.artists.isEmpty { add(song.artists.joined(separator: "; ")) }
                    add(song.artistCredit)
                case .date: add(song.date ?? song.year.map(String.init))
                default:
                    switch tag.field.value(in: song) {
                    case .string(let s): add(s)
                    case .int(let n): add(String(n))
                    case .strings(let xs): add(xs.joined(separator: "; "))
                    default: break
                    }
                }
            }
            if plain {
                ends.append(bytes.count)
                ids.append(song.id)
            } else {
                bytes.removeSubrange(start...)
                others.append(song.id)
            }
        }
        self.bytes = bytes
        self.ends = ends
        self.ids = ids
        self.others = others
    }

    /// The plain-text songs whose text holds `needle` (lowercase ASCII, not empty, no newline).
    func songs(containing needle: [UInt8]) -> [SongID] {
        precondition(!needle.isEmpty)
        var found: [SongID] = []
        bytes.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { needle in
                guard let base = hay.baseAddress, hay.count >= needle.count else { return }
                let first = Int32(needle[0])
                var at = 0, song = 0
                let last = hay.count - needle.count
                while at <= last {
                    guard let hit = memchr(base + at, first, last - at + 1) else { break }
                    let p = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + p, needle.baseAddress!, needle.count) == 0 {
                        while ends[song] <= p { song += 1 }
                        found.append(ids[song])
                        // On to the next song's text.
                        at = ends[song]
                        song += 1
                    } else {
                        at = p + 1
                    }
                }
            }
        }
        return found
    }
}

extension MPDFilter {
    /// The lowercase ASCII needle of `any` contains-this (MPD's `search any WORD`), when the
    /// filter is just that; nil otherwise (or for a needle the byte search cannot take).
    func anyFieldNeedle(foldCase commandDefault: Bool) -> [UInt8]? {
        guard case let .tag(nil, test) = self, test.position == .anywhere, !test.negated,
              test.foldCase ?? commandDefault else { return nil }
        let needle = Array(CaseFold.full(test.value).utf8)
        guard !needle.isEmpty, needle.allSatisfy({ $0 < 0x80 && $0 != 0x0A && $0 != 0x0D }) else { return nil }
        return needle
    }
}
