import BoomicTestSupport
import Foundation
import Testing

/// An idle `boomic serve` sleeps, as MPD does: no client, nothing playing, and its threads
/// wake a few times a second at most (safety-net timeouts), where polls of 20 and 50 ms in the
/// player and 250 ms on the library woke it 91 times a second, and it rewrote its state file
/// every 5 s. Counted from the kernel's tally of each thread's voluntary switches.
@Suite(.serialized, .enabled(if: RunningServer.mpcAvailable, "the MPD clients are installed by scripts/setup"))
struct ServeIdleTests {
    static func wakeups(_ pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") } ?? ""
            return sum + (Int(line.split(separator: "\t").last ?? "") ?? 0)
        }
    }

    @Test func anIdleServerSleepsAndWritesNothing() throws {
        let box = try Sandbox()
        try box.succeed("import", box.music)
        let server = try RunningServer(box)
        #expect(try server.mpc("status").succeeded)
        Thread.sleep(forTimeInterval: 6)  // past the first state save, the tree, the first net
        let state = box.library + "/player"
        func stamps() -> [String: Date] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []
            return Dictionary(uniqueKeysWithValues: names.map { name in
                (name, ((try? FileManager.default.attributesOfItem(atPath: state + "/" + name))?[.modificationDate] as? Date) ?? .distantPast)
            })
        }
        let before = Self.wakeups(server.process.processIdentifier), filesBefore = stamps()
        Thread.sleep(forTimeInterval: 6)
        let perSecond = Double(Self.wakeups(server.process.processIdentifier) - before) / 6
        #expect(perSecond < 20, "an idle server woke \(perSecond) times a second")
        #expect(stamps() == filesBefore, "an idle server rewrote its state: \(filesBefore) then \(stamps())")
    }
}
