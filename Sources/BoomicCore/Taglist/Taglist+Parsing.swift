// The public ways into `TaglistParser`: a taglist from its arguments, one clause, one rule.

extension Taglist {
    /// Reads a taglist from its clauses as typed on the command line, one clause an argument.
    ///
    /// `Taglist.parse(name: "mix", clauses: ["+#english,#french", "-#french", "-@year(<2000)"])`
    /// No clauses is a taglist of every song.
    public static func parse(name: String, clauses: [String]) throws(TaglistError) -> Taglist {
        if name.allSatisfy(\.isWhitespace) { throw .badName(name, reason: "a taglist needs a name") }
        if name.contains(where: { $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
            throw .badName(name, reason: "a taglist name is one line of printable characters")
        }
        var parsed: [Clause] = []
        parsed.reserveCapacity(clauses.count)
        for text in clauses { parsed.append(try Clause(parsing: text)) }
        return Taglist(name: name, clauses: parsed)
    }
}

extension Clause {
    /// Reads one clause: a sign, then rules separated by commas (`+#english,#french`).
    public init(parsing text: String) throws(TaglistError) {
        var p = TaglistParser(text)
        self = try p.clause()
    }
}

extension Rule {
    /// Reads one rule without a sign (`#instruments:piano`, `@year(<2000)`).
    public init(parsing text: String) throws(TaglistError) {
        var p = TaglistParser(text)
        self = try p.singleRule()
    }
}
