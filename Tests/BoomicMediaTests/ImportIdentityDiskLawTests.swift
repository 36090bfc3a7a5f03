import BoomicCore
import BoomicMedia
import BoomicTestSupport
import Foundation
import Glibc
import Testing

/// Identity laws on a real folder (issue 9, item 2.16): random sequences of moves, renames,
/// copies, NFC/NFD renames, hard links, symbolic links (within a music folder and into the
/// other) and deletions, each followed by an import of one or both music folders exactly as
/// `boomic import` runs it (walk, read, plan, apply). After every import, for every file
/// reachable from the scanned folders (by any route):
/// - it has exactly one present song, at one of its routes;
/// - it keeps the song it had (a move, a rename or a new link changes no id);
/// - a copy is a new song and the original keeps its own;
/// - a second import changes nothing (no path flips).
/// `BOOMIC_SEED=<n>` replays one seed; a failure prints its seed and the last steps.
@Suite struct ImportIdentityDiskLawTests {
    static let samples = ["Miles Quartet/Blue Sketches/01 So Modal.flac", "Miles Quartet/Blue Sketches/02 Blue in Grey.flac",
                          "Loose Files/no tags at all.mp3", "Old Timer/Retro Hits/01 Eight Bit Song.mp3",
                          "Loose Files/no tags at all.wav"]
    static let names = ["caf\u{E9}", "cafe\u{301}", "Zo\u{EB}", "Zoe\u{308}", "plain", "x"]

    struct FileID: Hashable { var device: UInt64, inode: UInt64 }

    final class World {
        let dir = TempDir("boomic-identity")
        var a: String { dir.file("A") }
        var b: String { dir.file("B") }
        var folders: [String] { [a, a + "/sub", b] }
        var basis = DataBasis.empty
        var ids = CountingIDSource(seed: 3)
        var owner: [FileID: SongID] = [:]
        var log: [String] = []
        let art: ArtStore

        init() throws {
            art = try ArtStore(directory: dir.file("art"))
            for f in folders { try FileManager.default.createDirectory(atPath: f, withIntermediateDirectories: true) }
        }

        /// The regular files under a folder, by direct routes only (symbolic links skipped).
        func regularFiles() -> [String] {
            var out: [String] = []
            func visit(_ folder: String) {
                for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
                    let p = folder + "/" + name
                    var st = stat()
                    guard lstat(p, &st) == 0 else { continue }
                    if (st.st_mode & S_IFMT) == S_IFDIR { visit(p) } else if (st.st_mode & S_IFMT) == S_IFREG { out.append(p) }
                }
            }
            visit(a); visit(b)
            return out
        }

        /// Every audio file reachable from `roots`, following links: all its routes, by file.
        func reachable(from roots: [String]) -> [FileID: [String]] {
            var out: [FileID: [String]] = [:]
            func visit(_ folder: String, _ ancestors: Set<FileID>) {
                var st = stat()
                guard stat(folder, &st) == 0 else { return }
                let me = FileID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
                guard !ancestors.contains(me) else { return } // a loop of links
                for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []) {
                    let p = folder + "/" + name
                    guard stat(p, &st) == 0 else { continue }
                    if (st.st_mode & S_IFMT) == S_IFDIR { visit(p, ancestors.union([me])) } else if (st.st_mode & S_IFMT) == S_IFREG {
                        out[FileID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)), default: []].append(p)
                    }
                }
            }
            for root in roots { visit(root, []) }
            return out
        }

        func fileID(_ path: String) -> FileID? {
            var st = stat()
            return stat(path, &st) == 0 ? FileID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)) : nil
        }

        /// One import of `roots`, as `boomic import` runs it.
        @discardableResult
        func scan(_ roots: [String]) -> [Assertion] {
            let before = basis
            let walk = MediaScanner.walk(roots, homes: [a, b]) { before.song(atPath: $0) != nil }
            let toRead = ImportGeneration.filesToRead(in: basis, listed: walk.files)
            let read = MediaScanner.readAll(toRead, art: art, options: .init(concurrency: 1))
            let plan = ImportGeneration.plan(basis: basis, roots: roots, listed: walk.files, read: read.facts,
                                             unlisted: walk.failures.map(\.path), now: 1_000, ids: &ids,
                                             elsewhere: MediaScanner.elsewhere)
            basis = basis.applying(plan.assertions)
            return plan.assertions
        }

        func freePath(_ rng: inout SplitMix64, ext: String) -> String? {
            for _ in 0..<6 {
                let p = rng.pick(folders) + "/" + rng.pick(ImportIdentityDiskLawTests.names) + "\(Int.random(in: 0..<3, using: &rng))." + ext
                var st = stat()
                if lstat(p, &st) != 0 { return p }
            }
            return nil
        }
    }

    @Test func identityFollowsTheFileOnDisk() throws {
        let seeds = Seeds.list(12, from: 0x1D_0000)
        var checked = 0
        for seed in seeds {
            var rng = SplitMix64(seed: seed)
            let w = try World()
            for sample in Self.samples {
                let ext = (sample as NSString).pathExtension
                guard let to = w.freePath(&rng, ext: ext) else { continue }
                try FileManager.default.copyItem(atPath: Repo.samples + "/" + sample, toPath: to)
            }
            w.scan([w.a, w.b])
            for (id, routes) in w.reachable(from: [w.a, w.b]) {
                w.owner[id] = w.basis.songs.values.first { s in routes.contains { s.path.sameBytes(as: $0) } }?.id
            }
            for step in 0..<14 {
                let roots = try change(w, &rng)
                // A deleted file's inode number may be reused by the next new file.
                let existing = w.reachable(from: [w.a, w.b])
                w.owner = w.owner.filter { existing[$0.key] != nil }
                w.scan(roots)
                guard check(w, roots: roots, seed: seed, step: step) else { break }
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(100))
    }

    /// One random change; returns the folders to import after it (always including the one a
    /// file arrived in; sometimes only that one).
    func change(_ w: World, _ rng: inout SplitMix64) throws -> [String] {
        let fm = FileManager.default
        let files = w.regularFiles()
        let both = [w.a, w.b]
        guard !files.isEmpty else { return both }
        let from = rng.pick(files)
        let ext = (from as NSString).pathExtension
        func root(_ p: String) -> String { PathKey(p).isUnder(w.a) ? w.a : w.b }
        func scanned(_ to: String) -> [String] { rng.chance(0.5) ? both : [root(to)] }
        switch Int.random(in: 0..<7, using: &rng) {
        case 0, 1: // mv (rename, or move to another folder)
            guard let to = w.freePath(&rng, ext: ext) else { return both }
            try fm.moveItem(atPath: from, toPath: to)
            w.log.append("mv \(from) \(to)")
            return scanned(to)
        case 2: // cp: a new file with the same audio
            guard let to = w.freePath(&rng, ext: ext) else { return both }
            try fm.copyItem(atPath: from, toPath: to)
            w.log.append("cp \(from) \(to)")
            return scanned(to)
        case 3: // NFC ↔ NFD rename
            let folder = (from as NSString).deletingLastPathComponent
            let name = String(from.dropFirst(folder.count + 1))
            guard let i = Self.names.prefix(4).firstIndex(where: { name.utf8.starts(with: $0.utf8) }) else { return both }
            let to = folder + "/" + Self.names[i ^ 1] + String(Substring(name.utf8.dropFirst(Self.names[i].utf8.count)))
            var st = stat()
            guard lstat(to, &st) != 0 else { return both }
            #expect(rename(from, to) == 0)
            w.log.append("mv(nf) \(from) \(to)")
            return scanned(to)
        case 4: // a hard link
            guard let to = w.freePath(&rng, ext: ext) else { return both }
            #expect(link(from, to) == 0)
            w.log.append("ln \(from) \(to)")
            return scanned(to)
        case 5: // a symbolic link to a file or a folder, often into the other music folder
            let target = rng.chance(0.5) ? from : rng.pick(w.folders)
            guard let at = w.freePath(&rng, ext: target == from ? ext : "d") else { return both }
            try fm.createSymbolicLink(atPath: at, withDestinationPath: target)
            w.log.append("ln -s \(target) \(at)")
            return scanned(at)
        default: // rm, of a file whose audio no other file has (else which copy went is a guess)
            guard let id = w.fileID(from),
                  let song = w.basis.songs.values.first(where: { $0.id == w.owner[id] }),
                  !w.basis.songs.values.contains(where: { $0.id != song.id && $0.fingerprint == song.fingerprint && !$0.missing })
            else { return both }
            try fm.removeItem(atPath: from)
            w.log.append("rm \(from)")
            return rng.chance(0.5) ? both : [root(from)]
        }
    }

    func check(_ w: World, roots: [String], seed: UInt64, step: Int) -> Bool {
        let context = "\(Seeds.replay(seed)) step \(step): \(w.log.suffix(Seeds.replayed == nil ? 8 : 100).joined(separator: "; "))"
        var ok = true
        var taken: [SongID: FileID] = [:]
        // Every route to a file, also those outside the scanned folders (a link leads there).
        let routes = w.reachable(from: [w.a, w.b])
        for id in w.reachable(from: roots).keys {
            let routes = routes[id]!
            let songs = w.basis.songs.values.filter { s in !s.missing && routes.contains { s.path.sameBytes(as: $0) } }
            guard songs.count == 1, let song = songs.first else {
                Issue.record("\(routes) has \(songs.count) present songs; \(context)")
                return false
            }
            if taken.updateValue(id, forKey: song.id) != nil { Issue.record("song \(song.id) is two files; \(context)"); ok = false }
            if let was = w.owner[id] {
                if was != song.id { Issue.record("\(routes) was song \(was), is \(song.id); \(context)"); ok = false }
            } else if let other = w.owner.first(where: { $0.value == song.id })?.key, w.reachable(from: [w.a, w.b])[other] != nil {
                Issue.record("\(routes) (a new file) took the id of \(w.reachable(from: [w.a, w.b])[other]!); \(context)")
                ok = false
            }
            w.owner[id] = song.id
        }
        let again = w.scan(roots)
        if !again.isEmpty { Issue.record("a second import changed \(again); \(context)"); ok = false }
        return ok
    }
}
