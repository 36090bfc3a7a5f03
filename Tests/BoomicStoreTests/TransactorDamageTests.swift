import BoomicTestSupport
import Foundation
import Testing
@testable import BoomicStore

/// Damaged, foreign and future files give one clear error and are never written into.
@Suite struct TransactorDamageTests {
    @Test func aTamperedBodyRaisesTheChecksumError() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path)
            for i in 0..<3 { try store.commit(Op(id: UUID(), timestamp: Double(i), changes: [.add("x", 1)])) }
            try tamper(path, "UPDATE log SET body = replace(body, '\"x\",\"_1\":1', '\"x\",\"_1\":9') WHERE seq = 2")
            #expect {
                _ = try openToy(path)
            } throws: { error in
                guard case StoreError.corrupt(seq: 2, _) = error else { return false }
                return error.localizedDescription.hasPrefix("Transaction 2 in the log is damaged")
            }
            #expect(throws: StoreError.self) { try store.entries() }
            #expect(throws: StoreError.self) { try store.basis(at: 2) }
            #expect(try store.basis(at: 1) == Counters(values: ["x": 1]))
        }
    }

    @Test func anUndecodableRowNamesItsSeq() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            let store = try openToy(path)
            try store.commit(Op(id: UUID(), timestamp: 0, changes: []))
            let body = #"{"future":true}"#
            try tamper(path, "UPDATE log SET body = '\(body)', checksum = '\(Checksum.string(of: body))'")
            #expect {
                _ = try openToy(path)
            } throws: { error in
                if case StoreError.undecodable(seq: 1, _) = error { return true } else { return false }
            }
        }
    }

    @Test func aNewerSchemaIsRefusedClearly() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            _ = try openToy(path)
            try tamper(path, "PRAGMA user_version = 7")
            #expect(throws: StoreError.newerSchema(path: path, found: 7, supported: 1)) { try openToy(path) }
            #expect(StoreError.newerSchema(path: path, found: 7, supported: 1).localizedDescription
                == "The library at \(path) uses log format 7 but this boomic understands only up to 1; upgrade boomic to open it.")
        }
    }

    @Test func aForeignDatabaseIsNotWrittenInto() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/other.sqlite"
            try tamper(path, "CREATE TABLE songs(x)")
            #expect(throws: StoreError.notALibrary(path: path)) { try openToy(path) }
            // Opened as an existing library (not to create one): the same, not "damaged".
            #expect(throws: StoreError.notALibrary(path: path)) {
                try ToyStore(path: path, create: false, initial: Counters(), apply: applyOp)
            }
            let c = try SQLiteConnection(path: path)
            #expect(try c.scalarInt("SELECT count(*) FROM sqlite_master") == 1)
        }
    }

    @Test func aFileThatIsNotSQLiteIsNotALibrary() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/notes.txt"
            let text = String(repeating: "not a database\n", count: 100)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(throws: StoreError.notADatabase(path: path)) { try openToy(path) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        }
    }

    @Test func aMissingLibraryIsNotCreatedUnlessAsked() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/library.sqlite"
            #expect(throws: StoreError.self) {
                try ToyStore(path: path, create: false, initial: Counters(), apply: applyOp)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(throws: StoreError.self) { try openToy(dir + "/no/such/folder/library.sqlite") }
        }
    }

    /// Codes are matched by name, primary or extended, never by message text.
    @Test func resultCodesHaveNames() throws {
        #expect(SQLiteResultCode.constraintUnique.primary == .constraint && SQLiteResultCode.constraintUnique.is(.constraint))
        #expect(!SQLiteResultCode.constraint.is(.constraintUnique))
        #expect(SQLiteResultCode(779).is(.corrupt)) // SQLITE_CORRUPT_INDEX
        #expect(SQLiteResultCode(1544).is(.readOnly) && SQLiteResultCode.full.isSystemFailure && !SQLiteResultCode.corrupt.isSystemFailure)
        let e = StoreError.sqlite(function: "sqlite3_step", code: 267, message: "database disk image is malformed")
        #expect(e.localizedDescription.hasPrefix("The library database is damaged") && e.localizedDescription.contains("export --salvage"))
    }

    @Test func errorsAreOneSentenceNamingTheCFunction() {
        let e = SQLiteConnection.error(function: "sqlite3_step", code: 5, message: "database is locked")
        #expect(e == .busy(function: "sqlite3_step", message: "database is locked"))
        #expect(e.localizedDescription == "Another boomic process kept the library locked for too long "
            + "(sqlite3_step: database is locked); wait for it to finish and try again.")
    }
}
