import Foundation

/// A transaction to and from its body in the log: the transaction type's own quick codec where
/// it has one (`LoggedTransaction.quickly`, `encodedQuickly`), else Foundation's JSON coders,
/// whose errors name what is wrong with a row.
extension Transactor {
    /// Encodes a transaction for the log; with the log's encoder (sorted keys, unescaped slashes)
    /// when the type writes nothing quicker.
    func encode(_ t: T, _ encoder: JSONEncoder) throws -> Data {
        if let body = t.encodedQuickly() { return body }
        do {
            return try encoder.encode(t)
        } catch {
            throw StoreError.unencodable(reason: Self.describe(error))
        }
    }

    /// Decodes a body; `seq` nil means it was just encoded and not yet stored.
    static func decode(_ body: Data, seq: Int?, _ decoder: JSONDecoder) throws -> T {
        if let t = body.withUnsafeBytes({ T.quickly(from: $0) }) { return t }
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            guard let seq else { throw StoreError.unreadableAfterEncoding(reason: describe(error)) }
            throw StoreError.undecodable(seq: seq, reason: describe(error))
        }
    }

    /// A decoding error in a few words: what failed and where in the JSON.
    static func describe(_ error: any Error) -> String {
        let context: (String, [any CodingKey])?
        switch error {
        case DecodingError.dataCorrupted(let c): context = (c.debugDescription, c.codingPath)
        case DecodingError.keyNotFound(let k, let c): context = ("no value for \"\(k.stringValue)\"", c.codingPath)
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            context = (c.debugDescription, c.codingPath)
        case EncodingError.invalidValue(_, let c): context = (c.debugDescription, c.codingPath)
        default: context = nil
        }
        guard let (text, path) = context else { return String(describing: error) }
        if path.isEmpty { return text }
        return text + " at " + path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
