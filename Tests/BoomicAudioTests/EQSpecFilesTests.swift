import BoomicAudio
import BoomicCore
import BoomicTestSupport
import Foundation
import Testing

/// `--eq SPEC` naming a file on disk: read when it is a regular file, passed over otherwise.
@Suite struct EQSpecFilesTests {
    @Test func aPathIsReadOnlyWhenAFileIsThere() throws {
        try withTemporaryDirectory("boomic-eq") { dir in
            let file = dir + "/mine.txt"
            try "Preamp: -3 dB\nFilter 1: ON PK Fc 1000 Hz Gain 2 dB Q 1\n".write(toFile: file, atomically: true, encoding: .utf8)
            let spec = try EQSpec.resolve(file, savedProfile: { _ in nil })
            #expect(spec.bands == [EQBand(.peaking, frequency: 1000, gain: 2, q: 1)] && spec.preamp == -3)
            // A preset's name wins over a file of that name in the current folder; a saved
            // profile over a file.
            #expect(try EQSpec.resolve("rock", savedProfile: { _ in nil }) == EQPreset.named("rock"))
            #expect(try EQSpec.resolve(file, savedProfile: { _ in .flat }) == .flat)
            #expect(throws: EQSpecError.unknown(dir)) { try EQSpec.resolve(dir, savedProfile: { _ in nil }) }
            #expect(throws: EQSpecError.unknown(dir + "/none.txt")) { try EQSpec.resolve(dir + "/none.txt", savedProfile: { _ in nil }) }
            let bad = dir + "/bad.txt"
            try "Filter 1: ON BP Fc 1000 Hz Q 1\n".write(toFile: bad, atomically: true, encoding: .utf8)
            #expect { try EQSpec.resolve(bad, savedProfile: { _ in nil }) } throws: { error in
                guard case .badFile(path: bad, line: 1, _) = error as? EQSpecError else { return false }
                return true
            }
        }
    }
}
