import BoomicCore
import BoomicMedia
import BoomicStore
import Foundation

/// `verify`: checks that the library is what its log says, and that what it points to exists.
///
/// The log is replayed from the start and compared with each checkpoint, every block of the
/// snapshot images (the checkpoints that are images, and the image file beside the log) is
/// checked, and the index of what each transaction touched is compared with the one the log
/// gives (caches all, which `repair` rebuilds); then with the opened library; covers are looked
/// up in `art/`; song files on disk.
public enum VerifyFlow {
    public struct Report: Sendable {
        public var transactions = 0
        public var checkpoints = 0
        /// Caches that differ from the replayed log or cannot be read (checkpoints, damaged
        /// blocks of images, the image file, the touches index): fixed by `repair`.
        public var checkpointProblems: [String] = []
        /// Everything else found wrong (each says what to do).
        public var problems: [String] = []
        public var pictures = 0
        public var picturesMissing = 0
        public var songs = 0
        /// Songs the library already marks missing (their files were gone at the last scan).
        public var markedMissing = 0
        /// Songs not marked missing whose file is gone, by path.
        public var filesMissing: [String] = []
        /// The checkpoints written by `repair`.
        public var rebuilt: [Int]?
    }

    public static func run(_ lib: LibrarySession, repair: Bool) throws -> Report {
        var r = Report()
        // One snapshot: the library as opened, and the log up to the head it was opened at.
        // Another process (a playing server records each play) may commit while this runs; the
        // log only grows, so its rows up to `head` are what they were when the library opened.
        let (head, opened) = lib.transactor.state
        let checkpoints = Set(try lib.transactor.checkpointSeqs().filter { $0 <= head })
        var replayed = DataBasis()
        var touches = Set<IndexedTouch>()
        try lib.transactor.forEachEntry(through: head) { e in
            replayed = replayed.applying(e.transaction)
            touches.formUnion(lib.transactor.indexedTouches(of: e.transaction, seq: e.seq))
            r.transactions += 1
            if checkpoints.contains(e.seq) {
                do {
                    // nil: another process thinned it away meanwhile, which is no damage.
                    if let stored = try lib.transactor.storedCheckpoint(at: e.seq) {
                        r.checkpoints += 1
                        if stored != replayed {
                            r.checkpointProblems.append("checkpoint \(e.seq) differs from the log replayed to \(e.seq)")
                        }
                    }
                } catch {
                    r.checkpoints += 1
                    r.checkpointProblems.append("checkpoint \(e.seq) is damaged (\(error.localizedDescription))")
                }
            }
            if e.seq == head {
                r.problems += replayed.invariantViolations().map { "after \(e.seq): \($0)" }
            }
        }
        if replayed != opened { r.problems.append("the opened library differs from the log replayed from the start") }
        r.checkpointProblems += try lib.transactor.imageDamage()
        let touchDifference = try lib.transactor.touchIndexDifference(expected: touches, through: head)
        if let touchDifference { r.checkpointProblems.append(touchDifference) }

        let fm = FileManager.default
        var seenArt = Set<String>()
        let art = try ArtStore(directory: lib.location + "/art")
        for s in opened.songs.values {
            if let a = s.art, seenArt.insert(a).inserted, art.path(forHash: a) == nil { r.picturesMissing += 1 }
            if !s.missing, !fm.fileExists(atPath: s.path) { r.filesMissing.append(s.path) }
        }
        r.filesMissing.sort()
        r.pictures = seenArt.count
        r.songs = opened.songs.count
        r.markedMissing = opened.songs.values.reduce(0) { $0 + ($1.missing ? 1 : 0) }
        let m = r.picturesMissing, gone = r.filesMissing.count
        if m > 0 { r.problems.append("\(m) cover\(m == 1 ? " is" : "s are") missing from art/; run 'boomic import' to store them again") }
        if gone > 0 {
            r.problems.append("\(gone) song file\(gone == 1 ? " is" : "s are") gone; run 'boomic import' to mark \(gone == 1 ? "it" : "them") missing")
        }
        if repair {
            // Rewrites the image file too.
            r.rebuilt = try lib.transactor.rebuildCheckpoints()
            if touchDifference != nil { try lib.transactor.rebuildTouchIndex() }
        }
        return r
    }
}
