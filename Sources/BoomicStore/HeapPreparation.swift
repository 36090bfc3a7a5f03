import BoomicSystem
import Foundation
import Synchronization

/// Readies glibc's heap for the burst of small allocations that decoding a big checkpoint makes.
///
/// Why: decoding 50,000 songs allocates ~50 MB in ~200,000 small blocks, all fresh memory, and
/// on the bench machine each first touch of a 4 KiB page is a page fault costing 1–2 µs of kernel
/// time (memory-cgroup accounting): ~19,000 faults, a third of the CPU time of opening a library.
/// Backing the heap with 2 MiB transparent huge pages takes that to ~1,000 faults. Measured
/// (`perf stat -r 10` of `boomic ls` matching nothing on the bench's 50k library, 2 cores shared),
/// without and with: 17,257 and ~5,800 page faults, ~150 and ~105 ms CPU, ~146 and ~110 ms wall.
///
/// How: the kernel gives huge pages to ranges marked `MADV_HUGEPAGE` (this machine, like Debian's
/// default, has THP `enabled=always` but `defrag=madvise`, so unmarked ranges rarely get them),
/// and only where a whole aligned 2 MiB range is mapped when first touched, which glibc's heap,
/// grown a page or 128 KiB at a time, never is. So, once per process: keep freed memory and
/// blocks up to 32 MiB in the heap (trim and mmap thresholds), grow the heap by the expected size
/// at once with a few large blocks, mark that range, and free the blocks; the reads and small
/// allocations that follow on this thread then fill it. Untouched huge pages are never backed.
///
/// Chunks decoded on other threads allocate in glibc's other arenas, which this leaves alone
/// (~4,000 of the remaining faults, and ~2,000 `mprotect`s as such an arena grows page by page).
/// Putting every thread on the main arena (`M_ARENA_MAX` 1) removed those too, but it cannot be
/// undone for threads that already allocated, and would make the pool threads that read tags
/// during an import fight over one lock for the rest of the process.
///
/// A process-wide setting made by a library is unusual; it is confined here, done at most once,
/// only on the main thread (where glibc's main arena is the `brk` heap), only for checkpoints of
/// megabytes, and harmless where it does not apply (a kernel without THP, another allocator: the
/// calls fail quietly and change nothing else). `boomic` is one command per process, which is
/// the case it is for. Set `BOOMIC_HEAP_TUNING=0` to turn it off (to compare, or if it misbehaves).
enum HeapPreparation {
    private static let done = Atomic<Bool>(false)

    /// Below this, a checkpoint's allocations are not worth a process-wide change.
    static let minimumBytes = 4 << 20

    /// Prepares the heap for about `bytes` of small allocations; does nothing after the first call.
    static func prepare(forAbout bytes: Int) {
        #if canImport(Glibc)
        guard bytes >= minimumBytes, Thread.isMainThread else { return }
        guard !done.exchange(true, ordering: .relaxed) else { return }
        if Environment.value("BOOMIC_HEAP_TUNING") == "0" { return }

        let block = 32 << 20            // glibc's largest mmap threshold on 64-bit
        let huge = 2 << 20
        _ = mallopt(mTrimThreshold, Int32(1 << 30))
        _ = mallopt(mMmapThreshold, Int32(block))
        _ = mallopt(mTopPad, Int32(block))

        // Blocks just under the threshold come from the heap, one after the other.
        let size = min(max(bytes, 2 * block), 1 << 30)
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<((size + block - 1) / block) {
            guard let p = malloc(block - 4096) else { break }
            blocks.append(p)
        }
        if let first = blocks.min(), let last = blocks.max() {
            let start = (UInt(bitPattern: first) + UInt(huge) - 1) & ~UInt(huge - 1)
            let end = (UInt(bitPattern: last) + UInt(block - 4096)) & ~UInt(huge - 1)
            // Only a range the blocks cover without gaps (they are one heap, end to end).
            if end > start, end - start <= UInt(blocks.count * block) {
                _ = madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), madvHugepage)
            }
        }
        for p in blocks { free(p) }
        #endif
    }

    /// Puts glibc's thresholds back to their defaults once the checkpoint is decoded, so that a
    /// long-running process (an import, later the player) returns freed memory as usual.
    /// The huge-page range stays marked; it only matters while memory is in use.
    static func finish() {
        #if canImport(Glibc)
        guard Thread.isMainThread, done.load(ordering: .relaxed), !finished.exchange(true, ordering: .relaxed) else { return }
        if Environment.value("BOOMIC_HEAP_TUNING") == "0" { return }
        let defaultThreshold = Int32(128 << 10)   // glibc's DEFAULT_TRIM_THRESHOLD and DEFAULT_MMAP_THRESHOLD
        _ = mallopt(mTrimThreshold, defaultThreshold)
        _ = mallopt(mMmapThreshold, defaultThreshold)
        _ = mallopt(mTopPad, 0)
        #endif
    }

    private static let finished = Atomic<Bool>(false)

    // <malloc.h> and MADV_HUGEPAGE (Linux); the Glibc module does not export mallopt.
    private static let mTrimThreshold: Int32 = -1
    private static let mTopPad: Int32 = -2
    private static let mMmapThreshold: Int32 = -3
    private static let madvHugepage: Int32 = 14
}

#if canImport(Glibc)
/// glibc's `int mallopt(int param, int value)` from <malloc.h>, which Swift's Glibc module does
/// not include; both arguments and the result are C `int`s, passed as `Int32`.
@_silgen_name("mallopt")
private func mallopt(_ param: Int32, _ value: Int32) -> Int32
#endif
