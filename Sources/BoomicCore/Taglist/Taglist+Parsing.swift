// The public ways into `TaglistParser`: a taglist from its arguments, one clause, one rule.

extension Taglist {
    /// Reads a taglist from its clauses as typed on the command line, one clause an argument.
    ///
    /// `Taglist.parse(name: "mix", clauses: ["+#english,#french", "-#french", "-@year(<2000)"])`
    /// No clauses is a taglist of every song.
    ///
    /// - Parameter userFields: the user fields the library has (`DataBasis.userFieldNames`):
    ///   `@mood:happy` names one of them; any other unknown name is an error, as in QUERY.
    public static func parse(name: String, clauses: [String], userFields: Set<String> = []) throws(TaglistError) -> Taglist {
        if name.allSatisfy(\.isWhitespace) { throw .badName(name, reason: "a taglist needs a name") }
        if name.contains(where: { $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
            throw .badName(name, reason: "a taglist name is one line of printable characters")
        }
        var parsed: [Clause] = []
        parsed.reserveCapacity(clauses.count)
        for text in clauses { parsed.append(try Clause(parsing: text, userFields: userFields)) }
        return Taglist(name: name, clauses: parsed)
    }
}

extension Clause {
    /// Reads one clause: a sign, then rules separated by commas (`+#english,#french`).
    ///
    /// - Parameter userFields: the user fields a rule may name, as in `Taglist.parse`.
    public init(parsing text: String, userFields: Set<String> = []) throws(TaglistError) {
        var p = TaglistParser(text, userFields: .typed(userFields))
        self = try p.clause()
    }

    /// Reads a clause as stored in the log, where any name a user field can have is one.
    init(stored text: String) throws(TaglistError) {
        var p = TaglistParser(text, userFields: .stored)
        self = try p.clause()
    }
}

extension Rule {
    /// Reads one rule without a sign (`#instruments:piano`, `@year(<2000)`).
    ///
    /// - Parameter userFields: the user fields a rule may name, as in `Taglist.parse`.
    public init(parsing text: String, userFields: Set<String> = []) throws(TaglistError) {
        var p = TaglistParser(text, userFields: .typed(userFields))
        self = try p.singleRule()
    }

    /// Reads a rule as stored in the log, where any name a user field can have is one.
    init(stored text: String) throws(TaglistError) {
        var p = TaglistParser(text, userFields: .stored)
        self = try p.singleRule()
    }
}
