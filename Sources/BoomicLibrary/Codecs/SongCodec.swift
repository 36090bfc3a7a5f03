import BoomicCore
import BoomicStore
import Dispatch
import Foundation
import Synchronization

/// A compact binary encoding of `[Song]`, for checkpoints: opening a library decodes one.
///
/// JSON decodes about 110k records/s per core (PLATFORM §5), so 50,000 songs would take half a
/// second, five times the budget of opening a library (DESIGN §7). This format is hand-rolled
/// for speed: one pass, no keys, no reflection.
///
/// Layout (version 9), using `ByteWriter`'s primitives:
/// ```
/// version byte (9)
/// song count, chunk count, then per chunk: its song count and its byte length
/// the chunks, one after the other; each is self-contained:
///   string table: count, then each string           ← shared values (album, artist, genre, …)
///   list table: count, then each list as a count and string-table indexes   ← artists, tags
///   per song: 16-byte id, presence bitmap (varint), second bitmap (varint), path (string),
///   then each present field's value in bit order (the first bitmap's, then the second's)
/// ```
/// The songs are split into up to `maxChunks` chunks of at least `songsPerChunk` so that opening
/// decodes them on all cores: a chunk's place in the output and in the bytes is known before any
/// of it is read, and its own string table means two threads never share (and never contend for
/// the reference counts of) the same `String`s. Version 2 was one chunk without the header;
/// version 3 had no user fields, version 4 no artist credit, version 5 no skip count, last play
/// or bookmark, version 6 no sort names, performer, conductor, label or original date,
/// version 7 no composer sort name, work, movement, grouping, release-track or work ids,
/// stickers, ensemble or location, version 8 no second bitmap (the guessed fields' marks, a
/// track's start, end and sheet).
///
/// Absent optionals, empty arrays, `false`, and numbers equal to their default set no bit and
/// take no bytes. Values many songs share (album, genre, dates, MusicBrainz album ids, art hashes,
/// and whole `artists` and `tags` lists) are written once in a table and referenced by index, which
/// also makes decoded songs share their storage: fewer allocations and less memory with 50,000
/// songs open. Values unique to a song (path, title, fingerprint, track id, comment) are written
/// in place.
///
/// Each field's bit and how its value is written are its `checkpoint` column in the field table
/// (`SongField.table`): the codec is a loop over it. Every stored property of `Song` round-trips
/// exactly (doubles bit for bit); a test walks the table, so a field without a bit fails. Damaged input
/// throws `StoreError.badEncoding`, never traps.
public enum SongCodec {
    /// Bump when the layout changes, and bump the checkpoint codec's `format` with it.
    public static let version: UInt8 = 9

    /// Chunks are at least this many songs (fewer songs make one chunk): below that, a thread and
    /// a second string table cost more than they save.
    static let songsPerChunk = 8_192
    /// At most this many chunks, each with its own copy of the shared strings it uses.
    static let maxChunks = 8

    /// One field's place in the layout: its bit (its `SongFieldSpec.checkpoint`), how its value
    /// is written, and its accessors.
    struct Slot: Sendable {
        let bit: Int
        let form: SongFieldSpec.CheckpointForm
        let access: SongFieldSpec.Access
        var mask: UInt64 { 1 << UInt64(bit & 63) }
    }

    /// The table's fields that have a bit, in bit order: the order their values are written.
    static let slots: [Slot] = SongField.table.compactMap { spec -> Slot? in
        guard case .bit(let bit, let form) = spec.checkpoint else { return nil }
        return Slot(bit: bit, form: form, access: spec.access)
    }.sorted { $0.bit < $1.bit }

    /// Each bit's slot, by bit: what a song's set bits are looked up in.
    static let slotsByBit: [Slot?] = {
        var byBit = [Slot?](repeating: nil, count: 128)
        for slot in slots {
            precondition(byBit[slot.bit] == nil, "two fields share checkpoint bit \(slot.bit)")
            byBit[slot.bit] = slot
        }
        return byBit
    }()

    /// The bits of each bitmap that name a field; any other bit is a field this build does not know.
    static let known: (first: UInt64, second: UInt64) = slots.reduce((UInt64(0), UInt64(0))) { k, slot in
        slot.bit < 64 ? (k.0 | slot.mask, k.1) : (k.0, k.1 | slot.mask)
    }

    // MARK: Encoding

    /// The songs, in the order given, as bytes `decode` reads back.
    public static func encode<C: Collection>(_ songs: C) -> [UInt8] where C.Element == Song {
        var out = ByteWriter()
        encode(songs, into: &out)
        return out.bytes
    }

    /// Appends the songs to `out`, for formats that put songs and other entities in one buffer.
    public static func encode<C: Collection>(_ songs: C, into out: inout ByteWriter) where C.Element == Song {
        encode(songs, into: &out, songsPerChunk: songsPerChunk)
    }

    /// `songsPerChunk` is a parameter so that tests can make many chunks of a few songs.
    static func encode<C: Collection>(_ songs: C, into out: inout ByteWriter, songsPerChunk: Int) where C.Element == Song {
        let all = Array(songs) // no copy when it already is one
        let total = all.count
        let chunks = chunkCount(total, songsPerChunk: songsPerChunk)
        // Even split: chunk c holds songs [c·n/k, (c+1)·n/k). Chunks are independent (each has its
        // own table), so they are encoded on all cores: a checkpoint of 50,000 songs is ~80 ms of
        // encoding on one, and `modify` writes one every 1,000 assertions.
        let ranges = (0..<chunks).map { c in (c * total / chunks)..<((c + 1) * total / chunks) }
        let encoded = Mutex<[Int: ByteWriter]>([:])
        @Sendable func work(_ c: Int) {
            let chunk = encodeChunk(all[ranges[c]])
            encoded.withLock { $0[c] = chunk }
        }
        if chunks == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: chunks, execute: work) }
        let bodies = encoded.withLock { $0 }
        out.byte(version)
        out.count(total)
        out.count(chunks)
        for c in 0..<chunks {
            out.count(ranges[c].count)
            out.count(bodies[c]!.bytes.count)
        }
        for c in 0..<chunks { out.append(contentsOf: bodies[c]!.bytes) }
    }

    /// One self-contained chunk: its string and list tables, then its songs.
    private static func encodeChunk(_ songs: ArraySlice<Song>) -> ByteWriter {
        var table = StringTable()
        var body = ByteWriter(reservingCapacity: songs.count * 200)
        for song in songs { encode(song, into: &body, table: &table) }
        var chunk = ByteWriter(reservingCapacity: body.bytes.count + table.strings.count * 16 + 64)
        chunk.count(table.strings.count)
        for s in table.strings { chunk.string(s) }
        chunk.count(table.lists.count)
        for list in table.lists {
            chunk.count(list.count)
            for s in list { chunk.count(table.index[s]!) }
        }
        chunk.append(contentsOf: body.bytes)
        return chunk
    }

    /// How many chunks `total` songs are written in.
    static func chunkCount(_ total: Int, songsPerChunk: Int = songsPerChunk) -> Int {
        min(maxChunks, max(1, total / max(1, songsPerChunk)))
    }

    /// Strings and string lists written once and referenced by their index.
    struct StringTable {
        var strings: [String] = []
        var index: [String: Int] = [:]
        var lists: [[String]] = []
        var listIndex: [[String]: Int] = [:]

        mutating func ref(_ s: String) -> Int {
            if let i = index[s] { return i }
            index[s] = strings.count
            strings.append(s)
            return strings.count - 1
        }

        mutating func ref(_ list: [String]) -> Int {
            if let i = listIndex[list] { return i }
            for s in list { _ = ref(s) }
            listIndex[list] = lists.count
            lists.append(list)
            return lists.count - 1
        }
    }

    private static func encode(_ s: Song, into w: inout ByteWriter, table: inout StringTable) {
        var bits: UInt64 = 0, more: UInt64 = 0
        for slot in slots {
            guard isSet(slot, in: s) else { continue }
            if slot.bit < 64 { bits |= slot.mask } else { more |= slot.mask }
        }
        w.uuid(s.id.uuid)
        w.varint(bits)
        w.varint(more)
        w.string(s.path)
        for slot in slots {
            switch slot.access {
            case .text(let get, _):
                guard let v = get(s) else { continue }
                if slot.form == .sharedText { w.count(table.ref(v)) } else { w.string(v) }
            case .number(let get, _, let optional):
                guard let v = get(s), optional || v != 0 else { continue }
                w.int(v)
            case .decimal(let get, _, let optional):
                guard let v = get(s), optional || v.bitPattern != 0 else { continue }
                w.double(v)
            case .flag:
                continue // the bit is the value
            case .list(let get, _):
                let vs = get(s)
                guard !vs.isEmpty else { continue }
                if slot.form == .sharedList {
                    w.count(table.ref(vs))
                } else {
                    w.count(vs.count)
                    for v in vs { w.string(v) }
                }
            }
        }
    }

    /// Whether a song's value is written: it differs from the field's default (nil, 0, false,
    /// empty; -0.0 is not 0.0 bit for bit, so it is written).
    @inline(__always)
    static func isSet(_ slot: Slot, in s: Song) -> Bool {
        switch slot.access {
        case .text(let get, _): get(s) != nil
        case .number(let get, _, let optional): get(s).map { optional || $0 != 0 } ?? false
        case .decimal(let get, _, let optional): get(s).map { optional || $0.bitPattern != 0 } ?? false
        case .flag(let get, _): get(s)
        case .list(let get, _): !get(s).isEmpty
        }
    }
}
