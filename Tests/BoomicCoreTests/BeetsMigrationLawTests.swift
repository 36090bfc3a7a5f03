import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore

/// The rules of `boomic migrate beets` (issue 34, item 6), as laws over random beets items and
/// files, and as a table of beets' own spellings. For every random item on a song read from its
/// file:
/// - each tag field takes the item's value when set, else its album's, else keeps the file's;
/// - a field beets changed remembers the file's value (`fileValueMap`), one it did not has none;
/// - a rescan of the file (its facts merged again) keeps beets' values;
/// - applying twice is applying once; plays never go down;
/// - a second plan over the migrated basis changes nothing, and no path or audio gets two songs.
@Suite("beets migration laws")
struct BeetsMigrationLawTests {
    static let textValues = ["Alpha", "Beta", "Gamma", "Día", "x"]

    static func randomFacts(_ path: String, audio: Int, _ rng: inout SplitMix64) -> FileFacts {
        var f = FileFacts(path: path, size: 1_000 + audio, mtime: 5)
        f.fingerprint = "fp\(audio)"
        for (_, field) in BeetsMapping.tagColumns where rng.chance(0.5) {
            switch field.kind {
            case .int: field.setFact(.int(Int.random(in: 1...20, using: &rng)), in: &f)
            case .double: field.setFact(.double(Double(Int.random(in: -10...10, using: &rng)) / 2), in: &f)
            default: field.setFact(.string(rng.pick(textValues)), in: &f)
            }
        }
        if rng.chance(0.5) { f.artists = [rng.pick(textValues)] }
        if rng.chance(0.3) { f.genre = rng.pick(textValues) }
        return f
    }

    /// A value of a column, unset (in one of beets' spellings of nothing) a third of the time.
    static func randomValue(for field: SongField, _ rng: inout SplitMix64) -> BeetsValue {
        if rng.chance(0.35) { return rng.pick([BeetsValue.null, .int(0), .text("")].filter { field.kind != .int || $0 != .text("") }) }
        switch field.kind {
        case .int: return .int(Int.random(in: 1...20, using: &rng))
        case .double: return .real(Double(Int.random(in: -10...10, using: &rng)) / 2 + 0.25)
        default: return .text(rng.pick(textValues))
        }
    }

    static func randomRecord(id: Int, path: String, _ rng: inout SplitMix64) -> BeetsRecord {
        var r = BeetsRecord(id: id, path: path)
        for (column, field) in BeetsMapping.tagColumns {
            if rng.chance(0.6) { r.item[column] = randomValue(for: field, &rng) }
            if rng.chance(0.4) { r.album[column] = randomValue(for: field, &rng) }
        }
        if rng.chance(0.5) { r.item["artist"] = .text(rng.pick(textValues)) }
        if rng.chance(0.3) { r.item["albumtype"] = .text(rng.pick(["album", "live"])) }
        if rng.chance(0.3) { r.album["albumtype"] = .text("compilation") }
        if rng.chance(0.4) { r.flex["mood"] = rng.pick(textValues) }
        if rng.chance(0.3) { r.albumFlex["mood"] = "album mood" }
        if rng.chance(0.5) { r.flex["play_count"] = String(Int.random(in: 0...9, using: &rng)) }
        if rng.chance(0.3) { r.flex["last_played"] = String(Int.random(in: 1...1_000_000, using: &rng)) }
        if rng.chance(0.3) { r.flex["rating"] = String(Double(Int.random(in: 0...10, using: &rng)) / 10) }
        if rng.chance(0.5) { r.item["added"] = .real(Double(Int.random(in: 1...1_000_000, using: &rng))) }
        return r
    }

    static func isSet(_ v: BeetsValue?) -> Bool { v.map { !$0.isUnset } ?? false }

    @Test(arguments: Seeds.list(60, from: 3_400))
    func fieldLaws(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let facts = Self.randomFacts("/m/a.flac", audio: 1, &rng)
        var song = facts.song(id: SongID(UUID()), added: 500)
        song.playcount = Int.random(in: 0...5, using: &rng)
        let file = song
        let record = Self.randomRecord(id: 1, path: "/m/a.flac", &rng)
        let values = BeetsMapping.values(of: record)
        BeetsMapping.apply(values, to: &song)

        for (column, field) in BeetsMapping.tagColumns {
            let item = record.item[column], album = record.album[column]
            let expected: FieldValue
            if Self.isSet(item) { expected = values.tags[field]! } else if Self.isSet(album) { expected = values.tags[field]! } else {
                expected = field.value(in: file)
            }
            #expect(field.value(in: song) == expected, "\(column): \(Seeds.replay(seed))")
            if Self.isSet(item) {
                let beets = BeetsMapping.values(of: BeetsRecord(id: 1, path: "/m/a.flac", item: [column: item!])).tags[field]
                #expect(beets == values.tags[field], "item beats album, \(column): \(Seeds.replay(seed))")
            }
        }
        // The file's value is remembered exactly for the fields beets changed.
        let remembered = song.fileValueMap
        for field in SongField.allCases where field.isTag {
            let changed = field.value(in: song) != field.value(in: file)
            #expect(remembered[field] == (changed ? field.value(in: file) : nil), "\(field): \(Seeds.replay(seed))")
        }
        // A rescan of the file as it is keeps beets' values.
        var rescanned = song
        rescanned.merge(fileFacts: facts)
        #expect(rescanned == song, Comment(rawValue: Seeds.replay(seed)))
        // Twice is once; plays never go down.
        var twice = song
        BeetsMapping.apply(values, to: &twice)
        #expect(twice == song, Comment(rawValue: Seeds.replay(seed)))
        #expect(song.playcount == max(file.playcount, values.playcount ?? 0))
        #expect(song.userField("mood") == (record.flex["mood"] ?? record.albumFlex["mood"]))
        if let count = record.flex["play_count"], Int(count)! > file.playcount { #expect(song.playcount == Int(count)) }
        if case .real(let added)? = record.item["added"] { #expect(song.added == min(added, 500)) }
    }

    @Test(arguments: Seeds.list(40, from: 3_500))
    func planLaws(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var ids = CountingIDSource(seed: seed)
        // Songs already in the library: some at beets' paths, some with beets' audio elsewhere
        // (one of those missing: it moved to beets' path).
        var existing: [Song] = []
        var items: [BeetsMigration.Item] = []
        for n in 0..<12 {
            let path = "/beets/\(n).flac"
            let facts = Self.randomFacts(path, audio: n, &rng)
            var read: FileFacts? = facts
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                existing.append(facts.song(id: SongID(ids.next()), added: 1))
                read = nil   // a present song at the path: its file is not read
            case 1:
                var elsewhere = facts
                elsewhere.path = "/old/\(n).flac"
                var s = elsewhere.song(id: SongID(ids.next()), added: 1)
                s.missing = rng.chance(0.5)
                existing.append(s)
            default: break
            }
            items.append(BeetsMigration.Item(record: Self.randomRecord(id: n, path: path, &rng), facts: read,
                                             cover: rng.chance(0.3) ? "cover\(n % 2)" : nil))
        }
        let basis = DataBasis(songs: existing)
        let plan = BeetsMigration.plan(basis: basis, items: items, now: 7, ids: &ids)
        let after = basis.applying(plan.assertions)
        #expect(after.invariantViolations().isEmpty, Comment(rawValue: Seeds.replay(seed)))
        // Only audio the library did not have is added.
        let known = Set(existing.compactMap(\.fingerprint))
        let expectedNew = items.filter { $0.facts.map { !known.contains($0.fingerprint!) } ?? false }.count
        #expect(plan.summary.added == expectedNew, Comment(rawValue: Seeds.replay(seed)))
        #expect(after.songs.count == existing.count + expectedNew)
        for item in items {
            let at = after.paths[PathKey(item.record.path)]?.compactMap { after[$0] }.filter { !$0.missing } ?? []
            let moved = existing.contains { $0.missing && $0.fingerprint == item.facts?.fingerprint }
            let copy = existing.contains { !$0.missing && $0.fingerprint == item.facts?.fingerprint && $0.path != item.record.path }
            #expect(at.count == (copy ? 0 : 1), "\(item.record.path) moved \(moved): \(Seeds.replay(seed))")
        }
        // A second run changes nothing.
        var again = CountingIDSource(seed: seed + 1)
        let items2 = items.map { item -> BeetsMigration.Item in
            var i = item
            if after.paths[PathKey(i.record.path)]?.contains(where: { !after[$0]!.missing }) ?? false { i.facts = nil }
            return i
        }
        let second = BeetsMigration.plan(basis: after, items: items2, now: 8, ids: &again)
        #expect(second.assertions.isEmpty, "\(second.assertions): \(Seeds.replay(seed))")
    }

    @Test func beetsSpellings() {
        var r = BeetsRecord(id: 1, path: "/m/a.flac", item: [
            "artists": .text("A\\\u{2400}B"), "artist": .text("A feat. B"), "genres": .text("Rock\\\u{2400}Pop"),
            "year": .int(1999), "month": .int(5), "day": .int(0), "original_year": .int(1970),
            "track": .int(0), "disc": .int(2), "comp": .int(1), "albumtype": .text("live"), "bpm": .int(0),
            "artist_credit": .text("Credited"), "bitrate": .int(320_000), "length": .real(3.5),
            "mtime": .real(0), "lyrics": .text("la\nla"),
        ], flex: ["rating": "0.5", "play_count": "3", "skip_count": "x", "My-Field": "v", "Mood": "calm"])
        var v = BeetsMapping.values(of: r)
        #expect(v.artists == ["A", "B"] && v.artist == "A feat. B")
        #expect(v.tags[.genre] == .string("Rock; Pop"))
        #expect(v.tags[.date] == .string("1999-05"))
        #expect(v.tags[.originalDate] == .string("1970"))
        #expect(v.tags[.track] == nil && v.tags[.disc] == .int(2) && v.tags[.year] == .int(1999))
        #expect(v.tags[.compilation] == .bool(true))
        #expect(v.rating == 3 && v.playcount == 3 && v.skipcount == nil)
        #expect(v.userFields == ["albumtype": "live", "beets_artist_credit": "Credited", "lyrics": "la\nla", "mood": "calm"])
        #expect(v.unknown.sorted() == ["My-Field=v (a name Boomic's fields cannot take)", "skip_count=x (not a count)"])
        r.flex = ["rating": "4"]
        v = BeetsMapping.values(of: r)
        #expect(v.rating == nil && v.unknown == ["rating=4 (mpdstats rates from 0 to 1)"])

        // The documented list is carried, each under its user field.
        for name in BeetsMapping.carriedAsUserFields {
            let carried = BeetsMapping.values(of: BeetsRecord(id: 1, path: "/m/a.flac", album: [name: .text("v")]))
            #expect(carried.userFields == [BeetsMapping.userFieldName(name)!: "v"] && carried.tags.isEmpty, "\(name)")
        }
        #expect(BeetsMapping.userFieldName("artist_credit") == "beets_artist_credit")
        for name in BeetsMapping.notCarried {
            #expect(BeetsMapping.values(of: BeetsRecord(id: 1, path: "/m/a.flac", item: [name: .int(5)])).userFields.isEmpty, "\(name)")
        }

        var song = Song(id: SongID(UUID()), path: "/m/a.flac")
        song.artists = ["A"]
        BeetsMapping.apply(BeetsMapping.values(of: BeetsRecord(id: 1, path: "/m/a.flac", item: ["artist": .text("A")])), to: &song)
        #expect(song.fileValues.isEmpty, "the same artist is no edit")
        BeetsMapping.apply(BeetsMapping.values(of: r), to: &song)
        #expect(song.artists == ["A", "B"] && song.artist == "A feat. B")
        #expect(song.fileValueMap[.artists] == .strings(["A"]))
    }
}

private extension SongField {
    /// Sets a tag field's value on file facts, through a song (FileFacts has no field setter).
    func setFact(_ value: FieldValue, in f: inout FileFacts) {
        var s = f.song(id: SongID(UUID()), added: 0)
        set(value, in: &s)
        switch self {
        case .title: f.title = s.title
        case .album: f.album = s.album
        case .albumartist: f.albumartist = s.albumartist
        case .artistSort: f.artistSort = s.artistSort
        case .albumartistSort: f.albumartistSort = s.albumartistSort
        case .composerSort: f.composerSort = s.composerSort
        case .work: f.work = s.work
        case .grouping: f.grouping = s.grouping
        case .label: f.label = s.label
        case .comment: f.comment = s.comment
        case .track: f.track = s.track
        case .tracktotal: f.tracktotal = s.tracktotal
        case .disc: f.disc = s.disc
        case .disctotal: f.disctotal = s.disctotal
        case .year: f.year = s.year
        case .replaygainTrackGain: f.replaygainTrackGain = s.replaygainTrackGain
        case .replaygainTrackPeak: f.replaygainTrackPeak = s.replaygainTrackPeak
        case .replaygainAlbumGain: f.replaygainAlbumGain = s.replaygainAlbumGain
        case .replaygainAlbumPeak: f.replaygainAlbumPeak = s.replaygainAlbumPeak
        case .mbTrackID: f.mbTrackID = s.mbTrackID
        case .mbAlbumID: f.mbAlbumID = s.mbAlbumID
        case .mbArtistID: f.mbArtistID = s.mbArtistID
        case .mbAlbumArtistID: f.mbAlbumArtistID = s.mbAlbumArtistID
        case .mbReleaseGroupID: f.mbReleaseGroupID = s.mbReleaseGroupID
        case .mbReleaseTrackID: f.mbReleaseTrackID = s.mbReleaseTrackID
        case .mbWorkID: f.mbWorkID = s.mbWorkID
        default: break
        }
    }
}
