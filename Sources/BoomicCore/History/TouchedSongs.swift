/// The songs a transaction's assertions add, change or remove, read from its body without
/// building the assertions: `history QUERY` asks it of every transaction, and decoding a whole
/// import or a bulk edit (every song, every field) to learn its songs costs seconds.
public struct TouchedSongs: Decodable, Sendable {
    /// As `SongID.description` spells them (lower case), in the assertions' order: the text,
    /// not a parsed UUID, which Foundation reads with `sscanf` at a cost that shows in a profile.
    public var songs: [String] = []

    private enum TransactionKey: String, CodingKey { case assertions }
    private enum AssertionKey: String, CodingKey { case add, update, delete }
    private enum IDKey: String, CodingKey { case id }

    public init(from decoder: any Decoder) throws {
        var assertions = try decoder.container(keyedBy: TransactionKey.self).nestedUnkeyedContainer(forKey: .assertions)
        while !assertions.isAtEnd {
            let a = try assertions.nestedContainer(keyedBy: AssertionKey.self)
            // Song ids as `Assertion.songID` has them; lists and EQ profiles name none.
            guard let key = [AssertionKey.add, .update, .delete].first(where: a.contains) else { continue }
            songs.append(try a.nestedContainer(keyedBy: IDKey.self, forKey: key).decode(String.self, forKey: .id).lowercased())
        }
    }
}
