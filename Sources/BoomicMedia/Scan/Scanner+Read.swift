import BoomicCore
import Dispatch
import Foundation
import Synchronization

extension Scanner {
    /// Reads one file: tags, audio properties, fingerprint and front cover (stored in `art`).
    ///
    /// The file is opened read-only and never modified. A file TagLib cannot read comes back as
    /// `.failure(.unreadable(path:reason:))`. A picture that cannot be stored leaves `art` nil
    /// rather than failing the file: the art cache can be rebuilt later.
    public func read(_ stat: FileStat, art: ArtStore) -> Result<FileFacts, MediaError> {
        let file: TagFile
        do {
            file = try TagFile(path: stat.path)
        } catch {
            return .failure(error)
        }
        var facts = FileFacts(path: stat.path, size: stat.size, mtime: stat.mtime)
        facts.apply(tags: file.properties())
        facts.apply(audio: file.audioProperties, format: file.format)
        if facts.format == nil { facts.format = Self.fileExtension(of: stat.path) }
        facts.fingerprint = Fingerprint.of(file, window: fingerprintWindow)
        facts.art = frontCover(of: file, art: art)
            ?? art.folderCover(in: Self.folder(of: stat.path))
        return .success(facts)
    }

    /// Reads `stats` on all cores and returns what was read and what failed, each in input order.
    ///
    /// `progress` receives the number of files done so far, increasing, one call at a time, from
    /// worker threads, every few dozen files. Deterministic: the same files give the same result
    /// whatever the scheduling.
    public func readAll(_ stats: [FileStat], art: ArtStore,
                        progress: @Sendable (Int) -> Void = { _ in }) -> (facts: [FileFacts], failures: [MediaError]) {
        let count = stats.count
        guard count > 0 else { return ([], []) }
        // Small chunks balance the load (a file with a big cover takes longer); large enough
        // that the shared counter and the progress lock are not contended.
        let chunk = 16
        let workers = min(concurrency, (count + chunk - 1) / chunk)

        let slots = ResultSlots(count: count)
        defer { slots.free() }
        let next = Atomic<Int>(0)
        let done = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let start = next.wrappingAdd(chunk, ordering: .relaxed).oldValue
                guard start < count else { return }
                let end = min(start + chunk, count)
                for i in start..<end {
                    slots.set(i, read(stats[i], art: art))
                }
                done.withLock { total in
                    total += end - start
                    progress(total)
                }
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
    private func frontCover(of file: TagFile, art: ArtStore) -> String? {
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
