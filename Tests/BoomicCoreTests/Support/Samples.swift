@testable import BoomicCore

/// Small pools of names, so that random songs share artists and albums (albums and artists then
/// merge and split as songs change), with the accents, scripts and punctuation real libraries have.
enum Samples {
    /// `Björk` and `bjork` fold to the same artist; `AC/DC` has a slash; one has no Latin letters.
    static let artists = ["Miles Davis", "John Coltrane", "Björk", "bjork", "Sigur Rós", "Beyoncé",
                          "坂本龍一", "AC/DC", "Nina Simone"]
    /// ARTIST credits as Picard and beets write them beside the ARTISTS list; none is a list
    /// joined with "; ", which a scan would not keep as a credit.
    static let artistCredits = ["Miles Davis feat. John Coltrane", "Björk & Sigur Rós", "Beyoncé (feat. Nina Simone)",
                                "坂本龍一 × bjork"]
    static let albums = ["Kind of Blue", "kind of blue", "Blue Train", "Homogenic", "Lemonade",
                         "Greatest Hits", "Café Tacvba"]
    /// `a:b` needs an escaped colon in a query; `1999` must stay a string through JSON.
    static let titles = ["So What", "Blue in Green", "Jóga", "Hyperballad", "Giant Steps", "Formation",
                         "戦場のメリークリスマス", "Thunderstruck", "Feeling Good", "Naïma", "a:b", "Intro", "1999"]
    // With values the import joined from several (GENRE=Jazz, GENRE=Electronic).
    static let genres = ["Jazz", "jazz", "Electronic", "Pop", "Rock", "Post-Rock", "Música", "Jazz; Electronic"]
    static let composers = ["Bill Evans", "Miles Davis", "Ryuichi Sakamoto", "Bill Evans; Miles Davis"]

    /// A joined field's texts as a reference model reads them, split by hand: the values
    /// between "; " and, when there are several, the whole text.
    static func joinedValues(_ text: String?) -> [String] {
        guard let text else { return [] }
        let parts = text.components(separatedBy: "; ").filter { !$0.isEmpty }
        return parts.count > 1 ? parts + [text] : [text]
    }
    static let comments = ["ripped from CD", "🎷 live", "a; b", "", "true"]
    static let dates = ["1959-08-17", "1997-09-22", "2016-04-23"]
    static let formats = ["flac", "mp3", "ogg", "m4a"]
    /// The user's own fields (beets' flexible attributes), and values with numbers, accents,
    /// `=` and `;` in them.
    static let userFieldNames = ["mood", "bpm", "source", "grouping_2"]
    static let userFieldValues = ["happy", "Mélancolique", "120", "96.5", "a=b", "vinyl; rip", " "]

    /// Tags users add: nested ones, a parent alone, one written with `#` and capitals.
    static let tagsToAdd = ["jazz", "#Rock", "instruments:piano", "instruments:trumpet", "instruments:guitar",
                            "mood:calm", "mood", "français", "instruments"]
    /// Tags users remove: removing a parent removes its children; one nobody has.
    static let tagsToRemove = ["instruments", "mood", "jazz", "instruments:piano", "rock", "nothing"]
}
