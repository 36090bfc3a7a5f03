import Foundation
import Glibc

/// How Boomic starts its helper programs (`boomic-ffmpeg` as a decoder or as a filter): with no
/// signal blocked and every disposition at its default, whatever the calling thread had (a
/// server blocks signals on its threads), and in a process group of its own, so that a Ctrl-C
/// at the terminal reaches Boomic alone, which ends its children itself.
enum ChildSpawn {
    /// Runs `program` with `arguments` and this process's environment, its descriptors set up by
    /// `actions`: 0 with the child's pid in `child`, or `posix_spawn`'s error number.
    static func spawn(_ program: String, _ arguments: [String], _ actions: inout posix_spawn_file_actions_t,
                      child: inout pid_t) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        return posix_spawn(&child, program, &actions, &attributes, argv, envp)
    }
}
