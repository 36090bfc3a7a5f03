import BoomicStore
import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicCore
@testable import BoomicLibrary

/// Export lines written and read by the log's own codec are those `JSONEncoder` and
/// `JSONDecoder` write and read, on every transaction of the random histories; a line spelled
/// any other way is still read by `JSONDecoder`, and a bad one still named.
@Suite("Export lines: the quick path writes and reads what Foundation does")
struct ExportLineTests {
    @Test("every transaction's line is JSONEncoder's, byte for byte, and reads back as JSONDecoder reads it")
    func linesAreFoundationsOwn() throws {
        var checked = 0
        for h in Histories.all {
            for (k, t) in h.transactions.enumerated() {
                let reference = try ExportFormat.encoder().encode(ExportFormat.Line(seq: k + 1, transaction: t))
                let quick = try #require(ExportFormat.quickLine(seq: k + 1, t), "seed \(h.seed): line \(k + 1) not written")
                #expect(quick == reference, "seed \(h.seed): line \(k + 1) written differently")
                let read = try #require(ExportFormat.quickLine(reference), "seed \(h.seed): line \(k + 1) not read")
                let decoded = try JSONDecoder().decode(ExportFormat.Line.self, from: reference)
                #expect(read.seq == decoded.seq && read.transaction == decoded.transaction, "seed \(h.seed): line \(k + 1)")
                checked += 1
            }
        }
        #expect(checked >= Seeds.atLeast(1_000))
    }

    @Test("a line spelled otherwise is read by JSONDecoder, and a bad one is named")
    func otherSpellings() throws {
        let t = try #require(Histories.all.first { !$0.transactions.isEmpty }?.transactions.first)
        let body = String(decoding: try ExportFormat.encoder().encode(t), as: UTF8.self)
        let end = #"{"end":{"transactions":2}}"#
        // Spaces, and the keys in the other order: not the quick spelling, still an export.
        let spaced = #"{ "seq": 1, "transaction": \#(body) }"# + "\n" + #"{"transaction":\#(body.replacingOccurrences(of: t.id.uuidString.lowercased(), with: "00000000-0000-4000-8000-0000000000ff")),"seq":2}"# + "\n" + end
        #expect(ExportFormat.quickLine(Array(#"{ "seq": 1, "transaction": \#(body) }"#.utf8)) == nil)
        let read = try ExportFormat.read(Data(spaced.utf8), name: "x.jsonl").transactions
        #expect(read.count == 2 && read[0] == t)
        // A seq with a leading zero is not JSON: the line is named.
        let zero = #"{"seq":01,"transaction":\#(body)}"# + "\n" + #"{"end":{"transactions":1}}"#
        #expect(ExportFormat.quickLine(Array(zero.utf8.prefix { $0 != 0x0A })) == nil)
        #expect { try ExportFormat.read(Data(zero.utf8), name: "x.jsonl") } throws: { error in
            "\(error)".contains("line 1 of x.jsonl is not an exported transaction")
        }
    }

    /// The end line carries the remembered music folders, and an end line without them (one
    /// written before they were carried) still ends a whole export.
    @Test("the end line names the music folders, or none")
    func endLineFolders() throws {
        let t = try #require(Histories.all.first { !$0.transactions.isEmpty }?.transactions.first)
        let folders = ["/srv/music", "/home/ann/Música/lossless"]
        var lines: [Data] = []
        let n = try ExportFormat.write({ try $0(LogEntry(seq: 1, transaction: t)) }, folders: folders) { lines.append($0) }
        #expect(n == 1)
        #expect(String(decoding: lines.last!, as: UTF8.self) == #"{"end":{"folders":["/srv/music","/home/ann/Música/lossless"],"transactions":1}}"# + "\n")
        let read = try ExportFormat.read(lines.reduce(Data(), +), name: "x.jsonl")
        #expect(read.transactions == [t] && read.folders == folders)

        var bare: [Data] = []
        _ = try ExportFormat.write({ try $0(LogEntry(seq: 1, transaction: t)) }) { bare.append($0) }
        #expect(String(decoding: bare.last!, as: UTF8.self) == #"{"end":{"transactions":1}}"# + "\n")
        let old = try ExportFormat.read(bare.reduce(Data(), +), name: "x.jsonl")
        #expect(old.transactions == [t] && old.folders.isEmpty)

        // A folder a rescan could not walk as remembered is an edited export, refused whole.
        let relative = String(decoding: lines.dropLast().reduce(Data(), +), as: UTF8.self) + #"{"end":{"folders":["music"],"transactions":1}}"#
        #expect { try ExportFormat.read(Data(relative.utf8), name: "x.jsonl") } throws: { error in
            "\(error)".contains("names a music folder that is not an absolute path (\"music\")")
        }
    }
}
