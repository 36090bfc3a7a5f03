import BoomicCore
import Dispatch
import Foundation
import Synchronization

extension MediaScanner {
    /// Reads one file, through one open of it: tags, audio properties, chapters and an embedded
    /// CUE sheet, fingerprint and front cover (stored in `art`): the embedded front picture, else
    /// the cover file beside it, else the one in the album folder above its disc folder
    /// (`ArtStore.albumCover`).
    ///
    /// The file is opened read-only and never modified. A file TagLib cannot read, or whose
    /// audio is certainly damaged (`StreamCheck`), comes back as
    /// `.failure(.unreadable(path:reason:))`. A picture that cannot be stored leaves `art` nil
    /// rather than failing the file: the art cache can be rebuilt later.
    public static func read(_ listed: ListedFile, art: ArtStore,
                            options: Options = Options()) -> Result<FileFacts, MediaError> {
        let file: TagFile
        do {
            file = try TagFile(path: listed.path)
        } catch {
            return .failure(error)
        }
        if let problem = StreamCheck.problem(format: file.format, length: file.length,
                                             read: { file.read(at: $0, count: $1) }) {
            return .failure(.unreadable(path: listed.path, reason: problem))
        }
        var facts = FileFacts(path: listed.path, size: listed.size, mtime: listed.mtime)
        facts.apply(tags: file.properties())
        facts.apply(audio: file.audioProperties, format: file.format)
        facts.chapters = file.chapters()
        facts.cueSheetBlock = file.cueSheetBlock()
        if facts.duration == nil, file.format == .ogg || file.format == .opus {
            facts.duration = OggDuration.seconds(isOpus: file.format == .opus, sampleRate: facts.samplerate,
                                                 length: file.length, read: { file.read(at: $0, count: $1) })
        }
        if facts.format == nil { facts.format = Self.fileExtension(of: listed.path) }
        facts.fingerprint = Fingerprint.of(file, window: options.fingerprintWindow)
        facts.art = frontCover(of: file, art: art)
            ?? art.albumCover(forSongsIn: Self.folder(of: listed.path))
        return .success(facts)
    }

    /// Reads `files` on all cores and returns what was read and what failed, each in input order.
    ///
    /// `progress` is told how many more files are done (a count to add), every few dozen files,
    /// from worker threads but one call at a time. Deterministic: the same files give the same
    /// result whatever the scheduling.
    public static func readAll(_ files: [ListedFile], art: ArtStore, options: Options = Options(),
                               progress: @Sendable (Int) -> Void = { _ in })
        -> (facts: [FileFacts], failures: [MediaError]) {
        let count = files.count
        guard count > 0 else { return ([], []) }
        // Small chunks balance the load (a file with a big cover takes longer); large enough
        // that the shared counter and the progress lock are not contended.
        let chunk = 16
        let workers = min(options.concurrency, (count + chunk - 1) / chunk)

        let slots = ResultSlots(count: count)
        defer { slots.free() }
        let next = Atomic<Int>(0)
        let reporting = Mutex(())
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let start = next.wrappingAdd(chunk, ordering: .relaxed).oldValue
                guard start < count else { return }
                let end = min(start + chunk, count)
                for i in start..<end {
                    slots.set(i, read(files[i], art: art, options: options))
                }
                reporting.withLock { _ in progress(end - start) }
            }
        }

        var facts: [FileFacts] = []
        var failures: [MediaError] = []
        facts.reserveCapacity(count)
        for i in 0..<count {
            switch slots.take(i) {
            case .success(let f): facts.append(f)
            case .failure(let e): failures.append(e)
            case nil: break
            }
        }
        return (facts, failures)
    }

    /// The front cover (type 3, else the first picture), stored in `art`; nil if there is none.
    private static func frontCover(of file: TagFile, art: ArtStore) -> String? {
        let pictures = file.pictures().filter { $0.size > 0 }
        guard let chosen = pictures.first(where: { $0.type == PictureInfo.frontCoverType }) ?? pictures.first
        else { return nil }
        return file.withPictureBytes(at: chosen.index) { bytes in
            try? art.store(bytes, mime: chosen.mime)
        } ?? nil
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func fileExtension(of path: String) -> String? {
        let name = path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }
}

func activeProcessorCount() -> Int {
    ProcessInfo.processInfo.activeProcessorCount
}

/// One result per input file, written by many workers at once.
///
/// `@unchecked Sendable` because each index is written by exactly one worker (the chunks handed
/// out by the atomic counter do not overlap), and read only after `concurrentPerform` returned,
/// which orders every write before the reads.
private final class ResultSlots: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Result<FileFacts, MediaError>?>
    private let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
    }

    func set(_ i: Int, _ value: Result<FileFacts, MediaError>) {
        precondition(i >= 0 && i < count)
        base[i] = value
    }

    func take(_ i: Int) -> Result<FileFacts, MediaError>? {
        precondition(i >= 0 && i < count)
        return base[i].take()
    }

    func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
