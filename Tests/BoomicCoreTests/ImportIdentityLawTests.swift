import BoomicTestSupport
import Testing
@testable import BoomicCore

/// Identity laws over random sequences of renames, moves (also between music folders, with only
/// one of them scanned), copies, swaps, deletions, new files and NFC/NFD renames, each followed
/// by an import of some of the music folders. After every import, for the files under the
/// scanned folders:
/// - each file has exactly one present song, filed under its exact bytes;
/// - a file that was renamed or moved keeps the id it had;
/// - a copy gets a new id, and the original keeps its own;
/// - a second import of the same disk changes nothing (no path flips).
/// `BOOMIC_SEED=<n>` replays one seed.
@Suite("Import identity laws")
struct ImportIdentityLawTests {
    /// A file on the model disk. `ident` follows the file through renames; a copy gets a new one.
    struct File {
        var ident: Int
        var audio: Int
        var size: Int
        var mtime: Int
    }

    static let roots = ["/m/A", "/m/B"]
    static let folders = ["/m/A", "/m/A/sub", "/m/B"]
    static let names = ["caf\u{E9}", "cafe\u{301}", "Zo\u{EB}", "Zoe\u{308}", "plain", "na\u{EF}ve", "x"]

    /// The other normalisation of a name, if it has one in `names`.
    static func twin(_ name: String) -> String? {
        guard let i = names.firstIndex(where: { $0.sameBytes(as: name) }), i < 4 else { return nil }
        return names[i ^ 1]
    }

    /// A path as the model disk keys it: its bytes (not the PathKey under test).
    struct Name: Hashable, CustomStringConvertible {
        var bytes: [UInt8]
        init(_ path: String) { bytes = Array(path.utf8) }
        var path: String { String(decoding: bytes, as: UTF8.self) }
        var description: String { path }
        func isUnder(_ root: String) -> Bool {
            let r = Array(root.utf8)
            return bytes == r || bytes.starts(with: r + [UInt8(ascii: "/")])
        }
        func isUnder(any roots: [String]) -> Bool { roots.contains(where: isUnder) }
    }

    struct Model {
        var disk: [Name: File] = [:]
        var basis = DataBasis.empty
        var ids = CountingIDSource(seed: 9)
        /// The song each ident was given when first imported.
        var owner: [Int: SongID] = [:]
        var nextIdent = 0, nextAudio = 0, clock = 100
        var log: [String] = []

        mutating func newFile(at path: String, audio: Int? = nil, size: Int? = nil, mtime: Int? = nil) {
            nextIdent += 1
            let a = audio ?? { nextAudio += 1; return nextAudio }()
            clock += 1
            disk[Name(path)] = File(ident: nextIdent, audio: a, size: size ?? 1_000 + a, mtime: mtime ?? clock)
        }

        func freePath(in folder: String, _ rng: inout SplitMix64) -> String? {
            for _ in 0..<6 {
                let p = folder + "/" + rng.pick(ImportIdentityLawTests.names) + "\(Int.random(in: 0..<3, using: &rng)).flac"
                if disk[Name(p)] == nil { return p }
            }
            return nil
        }

        /// The present song filed under exactly these bytes (found without the index under test).
        func presentSong(at name: Name) -> Song? {
            basis.songs.values.first { !$0.missing && $0.path.utf8.elementsEqual(name.bytes) }
        }

        func under(_ roots: [String]) -> [(Name, File)] {
            disk.filter { $0.key.isUnder(any: roots) }.sorted { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }
        }

        /// One import of `roots`, the way `boomic import` runs it.
        mutating func scan(_ roots: [String]) -> [Assertion] {
            let files = under(roots)
            let listed = files.map { ListedFile(path: $0.0.path, size: $0.1.size, mtime: $0.1.mtime) }
            let toRead = ImportGeneration.filesToRead(in: basis, listed: listed)
            let read = toRead.map { l in
                let f = disk[Name(l.path)]!
                var facts = FileFacts(path: l.path, size: f.size, mtime: f.mtime)
                facts.fingerprint = "audio\(f.audio)"
                facts.title = "song \(f.audio)"
                return facts
            }
            let onDisk = disk
            let plan = ImportGeneration.plan(basis: basis, roots: roots, listed: listed, read: read, now: 1_000, ids: &ids) { song, _ in
                onDisk[Name(song)] == nil ? .gone : .otherFile
            }
            basis = basis.applying(plan.assertions)
            return plan.assertions
        }
    }

    @Test("files keep their songs through moves, renames, copies and NFC/NFD renames")
    func identityFollowsTheFile() {
        var checked = 0
        for seed in Seeds.all.prefix(Seeds.replayed == nil ? 40 : 1) {
            var rng = SplitMix64(seed: seed)
            var m = Model()
            for folder in Self.folders {
                for _ in 0..<2 { if let p = m.freePath(in: folder, &rng) { m.newFile(at: p) } }
            }
            _ = m.scan(Self.roots)
            for (path, f) in m.disk { m.owner[f.ident] = m.presentSong(at: path)?.id }
            for step in 0..<25 {
                let roots = apply(randomOp: &rng, to: &m)
                _ = m.scan(roots)
                guard check(&m, roots: roots, seed: seed, step: step) else { break }
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(1_000))
    }

    /// Applies one random change to the disk; returns the music folders to import after it
    /// (always the one where a file arrived, sometimes only that one).
    func apply(randomOp rng: inout SplitMix64, to m: inout Model) -> [String] {
        let paths = m.disk.keys.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        guard let from = paths.isEmpty ? nil : rng.pick(paths) else {
            m.newFile(at: "/m/A/x0.flac")
            return Self.roots
        }
        let file = m.disk[from]!
        let folder = String(from.path[..<from.path.lastIndex(of: "/")!])
        func rootOf(_ p: String) -> String { Name(p).isUnder("/m/A") ? "/m/A" : "/m/B" }
        func scanned(_ destination: String) -> [String] {
            rng.chance(0.5) ? Self.roots : [rootOf(destination)]
        }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0, 1: // rename or move, keeping size and mtime (mv)
            guard let to = m.freePath(in: rng.pick(Self.folders), &rng) else { return Self.roots }
            m.disk[from] = nil
            m.disk[Name(to)] = file
            m.log.append("mv \(from) \(to)")
            return scanned(to)
        case 2: // copy: same audio, a new file (cp, or cp -p keeping the mtime)
            guard let to = m.freePath(in: rng.pick(Self.folders), &rng) else { return Self.roots }
            m.newFile(at: to, audio: file.audio, size: file.size, mtime: rng.chance(0.5) ? file.mtime : nil)
            m.log.append("cp \(from) \(to)")
            return scanned(to)
        case 3: // NFC ↔ NFD rename, as a copy from macOS does
            let name = String(from.path[from.path.index(after: from.path.lastIndex(of: "/")!)...])
            guard let base = Self.names.first(where: { name.utf8.starts(with: $0.utf8) }), let other = Self.twin(base) else { return Self.roots }
            let to = folder + "/" + other + String(Substring(name.utf8.dropFirst(base.utf8.count)))
            guard m.disk[Name(to)] == nil else { return Self.roots }
            m.disk[from] = nil
            m.disk[Name(to)] = file
            m.log.append("mv(nf) \(from) \(to)")
            return scanned(to)
        case 4: // a new file whose name differs from an existing one only in normalisation
            let name = String(from.path[from.path.index(after: from.path.lastIndex(of: "/")!)...])
            guard let base = Self.names.first(where: { name.utf8.starts(with: $0.utf8) }), let other = Self.twin(base) else { return Self.roots }
            let to = folder + "/" + other + String(Substring(name.utf8.dropFirst(base.utf8.count)))
            guard m.disk[Name(to)] == nil else { return Self.roots }
            m.newFile(at: to)
            m.log.append("new \(to)")
            return scanned(to)
        case 5: // swap two files in one folder (sizes and mtimes go with them)
            guard let other = paths.first(where: { $0 != from && m.disk[$0]!.audio != file.audio }) else { return Self.roots }
            m.disk[from] = m.disk[other]
            m.disk[other] = file
            m.log.append("swap \(from) \(other)")
            return Self.roots.filter { from.isUnder($0) || other.isUnder($0) }
        case 6: // delete, when no other file has that audio (else which copy was lost is a guess)
            guard !m.disk.contains(where: { $0.key != from && $0.value.audio == file.audio }) else { return Self.roots }
            m.disk[from] = nil
            m.log.append("rm \(from)")
            return rng.chance(0.5) ? Self.roots : [rootOf(from.path)]
        default: // a new file
            guard let to = m.freePath(in: rng.pick(Self.folders), &rng) else { return Self.roots }
            m.newFile(at: to)
            m.log.append("new \(to)")
            return scanned(to)
        }
    }

    /// Checks the laws after one import; records failures with the seed and the steps so far.
    func check(_ m: inout Model, roots: [String], seed: UInt64, step: Int) -> Bool {
        let context = "\(Seeds.replay(seed)) step \(step): \(m.log.suffix(6).joined(separator: "; "))"
        var ok = expectConsistent(m.basis, context)
        var idsOnDisk: [SongID: Name] = [:]
        for (path, file) in m.under(roots) {
            let present = m.basis.songs.values.filter { !$0.missing && $0.path.utf8.elementsEqual(path.bytes) }
            guard present.count == 1, let song = present.first else {
                Issue.record("\(path) has \(present.count) present songs; \(context)")
                return false
            }
            if !song.path.sameBytes(as: path.path) { Issue.record("\(path): song names other bytes; \(context)"); ok = false }
            if let twice = idsOnDisk.updateValue(path, forKey: song.id) {
                Issue.record("\(path) and \(twice) share song \(song.id); \(context)")
                ok = false
            }
            if let owner = m.owner[file.ident] {
                if song.id != owner { Issue.record("\(path) was song \(owner), is \(song.id); \(context)"); ok = false }
            } else {
                // A new file (or a copy): its id belongs to no file still on disk.
                if let (other, _) = m.owner.first(where: { $0.value == song.id }),
                   m.disk.values.contains(where: { $0.ident == other }) {
                    Issue.record("\(path) (new) took the id of a file still on disk; \(context)")
                    ok = false
                }
            }
        }
        for (path, file) in m.under(roots) where m.owner[file.ident] == nil {
            m.owner[file.ident] = m.presentSong(at: path)?.id
        }
        let again = m.scan(roots)
        if !again.isEmpty { Issue.record("a second import changed \(again.count) things: \(again); \(context)"); ok = false }
        return ok
    }
}
