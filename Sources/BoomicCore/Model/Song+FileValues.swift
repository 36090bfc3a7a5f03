import Foundation

extension Song {
    /// The file's value of each tag field the library changed and has not written back.
    public var fileValueMap: [SongField: FieldValue] {
        get {
            var out: [SongField: FieldValue] = [:]
            for entry in fileValues {
                guard let eq = entry.firstIndex(of: "="), let f = SongField(rawValue: String(entry[..<eq])),
                      let v = try? JSONDecoder().decode(FieldValue.self, from: Data(entry[entry.index(after: eq)...].utf8))
                else { continue }
                out[f] = f.normalize(v)
            }
            return out
        }
        set {
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            fileValues = newValue.compactMap { f, v in
                (try? enc.encode(v)).map { f.rawValue + "=" + String(decoding: $0, as: UTF8.self) }
            }.sorted()
        }
    }

    /// Sets a field the way a library edit does: the first time a tag field departs from the
    /// file, the file's value is remembered; an edit back to the file's value forgets it. The
    /// value is the user's from then on: a mark that Boomic guessed it goes.
    public mutating func edit(_ field: SongField, to value: FieldValue) {
        guard field.isTag else { field.set(value, in: &self); return }
        if guessed.contains(field.rawValue) { guessed.removeAll { $0 == field.rawValue } }
        let before = field.value(in: self)
        field.set(value, in: &self)
        let after = field.value(in: self)
        guard before != after else { return }
        var map = fileValueMap
        if let original = map[field] {
            if original == after { map[field] = nil }
        } else {
            map[field] = before
        }
        fileValueMap = map
    }

    /// Takes what a rescan read from a changed file, keeping library edits of fields the file
    /// did not change (three-way: the file's value then, the file's value now, the library's).
    /// A guessed value is such an edit: it stays while the file still lacks the field, and a
    /// file that comes to hold the field wins, taking the mark that it was guessed with it.
    public mutating func merge(fileFacts f: FileFacts) {
        let edited = fileValueMap
        let library = self
        f.apply(to: &self)
        var still: [SongField: FieldValue] = [:]
        for (field, fileThen) in edited where field.value(in: self) == fileThen {
            field.set(field.value(in: library), in: &self)
            still[field] = fileThen
        }
        fileValueMap = still
        if !guessed.isEmpty { guessed = guessed.filter { SongField(rawValue: $0).map { still[$0] != nil } ?? false } }
    }
}
