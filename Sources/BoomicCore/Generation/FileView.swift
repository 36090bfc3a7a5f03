/// A song's fields as its file holds them: the library's value unless an edit (or a guess) kept
/// the file's in `fileValues`.
struct FileView {
    let song: Song
    let edited: [SongField: FieldValue]

    init(_ song: Song) {
        self.song = song
        edited = song.fileValues.isEmpty ? [:] : song.fileValueMap
    }

    func value(_ field: SongField) -> FieldValue { edited[field] ?? field.value(in: song) }

    func lacks(_ field: SongField) -> Bool { Self.isEmpty(value(field)) }

    /// No tag at all: every field a file's tags give is empty (the cover is no tag).
    var hasNoTags: Bool {
        SongField.allCases.allSatisfy { f in !f.isTag || f == .art || f == .compilation || lacks(f) }
            && value(.compilation) != .bool(true)
    }

    static func isEmpty(_ v: FieldValue) -> Bool { v.isNull || v == .strings([]) }
}
