import Foundation
@testable import BoomicCore

/// Fixed ids for example tests, readable in failure messages (`…-000000000007`).
func uuid(_ n: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", n))!
}

func songID(_ n: Int) -> SongID { SongID(uuid(n)) }

/// What a scan would read from a file, with the tags example tests care about.
func facts(_ path: String, size: Int = 1_000, mtime: Int = 1, fingerprint: String? = nil, title: String? = nil,
           artists: [String] = [], album: String? = nil, albumartist: String? = nil,
           compilation: Bool = false, year: Int? = nil) -> FileFacts {
    var f = FileFacts(path: path, size: size, mtime: mtime)
    f.fingerprint = fingerprint
    f.title = title
    f.artists = artists
    f.album = album
    f.albumartist = albumartist
    f.compilation = compilation
    f.year = year
    return f
}

/// A basis holding songs made from these facts, with ids 1, 2, 3, … in order.
func library(_ files: [FileFacts]) -> DataBasis {
    DataBasis(songs: files.enumerated().map { $1.song(id: songID($0 + 1), added: 1_000) })
}

/// A transaction for example tests.
func transaction(_ n: Int, kind: Transaction.Kind = .edit, _ assertions: [Assertion] = [],
                 undoes: [UUID]? = nil, redoes: UUID? = nil) -> Transaction {
    Transaction(id: uuid(1_000 + n), parent: n > 1 ? uuid(999 + n) : nil, timestamp: Double(n), kind: kind,
                label: "\(kind) \(n)", assertions: assertions, undoes: undoes, redoes: redoes)
}
