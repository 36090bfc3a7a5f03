import Foundation

/// The seeds random tests run on, and the one environment variable that replays a failure:
/// `BOOMIC_SEED=<n> swift test --skip-build --filter <Suite>` runs every random test on seed `n`
/// alone (the laws on that one seed instead of their fixed list, the kill tests with that seed
/// instead of a fresh one), so the failure a message names comes back at once.
public enum Seeds {
    /// The name of the variable, in one place so that messages and docs cannot drift from it.
    public static let variable = "BOOMIC_SEED"

    /// The seed given in `BOOMIC_SEED` (decimal, as messages print it), if any. Read once: the
    /// environment of a test run does not change.
    public static let replayed: UInt64? = replayed(from: ProcessInfo.processInfo.environment)

    /// The seed given in `environment`, if any (a parameter so the reading itself can be tested
    /// without changing the environment of tests running alongside).
    public static func replayed(from environment: [String: String]) -> UInt64? {
        environment[variable].flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// `count` seeds counting up from `base`, or only the replayed one: a law's seeds.
    public static func list(_ count: Int, from base: UInt64, replaying: UInt64? = replayed) -> [UInt64] {
        if let replaying { return [replaying] }
        return (0..<UInt64(count)).map { base &+ $0 }
    }

    /// How many checks a law must have made: `n` on a full run, none when replaying one seed
    /// (that seed alone may not reach the case the count guards).
    public static func atLeast(_ n: Int, replaying: UInt64? = replayed) -> Int { replaying == nil ? n : 0 }

    /// What a failure message says about its seed, so it can be replayed by copying it.
    public static func replay(_ seed: UInt64) -> String { "seed \(seed) (\(variable)=\(seed) replays it)" }
}
