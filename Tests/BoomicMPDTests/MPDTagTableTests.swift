import BoomicCore
import Foundation
import Testing
@testable import BoomicMPD

/// MPD's tags follow the field table: every field the table gives an MPD name is a tag of that
/// name reading that field, printed in a song's lines and listed by `list`'s values; and the
/// tags are exactly those.
@Suite struct MPDTagTableTests {
    @Test func everyNamedFieldIsATag() {
        let named = SongField.table.filter { $0.mpdTag != nil }
        #expect(MPDTag.allCases.count == named.count)
        #expect(MPDTag.allCases.count <= 64, "an MPDTagSet holds 64 tags")
        for spec in named {
            let tag = MPDTag(rawValue: spec.mpdTag!)
            #expect(tag?.field == spec.field, "\(spec.name): MPD's \(spec.mpdTag!)")
            #expect(MPDTag(name: spec.mpdTag!.lowercased()) == tag)
        }
        #expect(MPDTag.isUnkeptMPDName("name") && !MPDTag.isUnkeptMPDName("artist"))
        #expect(MPDResponse.otherTags.isEmpty, "every tag has its line by hand today")
    }

    @Test(arguments: MPDTag.allCases) func aTagsValuePrintsAndLists(_ tag: MPDTag) {
        var song = Song(id: SongID(UUID()), path: "/music/a.flac")
        let value = tag.field.kind == .int ? "7" : "V-" + tag.rawValue
        tag.field.set(tag.field.kind == .int ? .int(7) : tag.field.kind == .strings ? .strings([value]) : .string(value), in: &song)
        var r = MPDResponse()
        r.add(song: song, uri: "a.flac", tags: .all)
        #expect(r.text.contains("\n\(tag.rawValue): \(value)\n"), "\(tag): \(r.text)")
        #expect(MPDResponse.values(of: tag, in: song) == [value])
    }
}
