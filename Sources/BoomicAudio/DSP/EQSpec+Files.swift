import BoomicCore
import Foundation

extension EQSpec {
    /// `EQSpec.resolve` with files read from disk: a SPEC naming an existing regular file is
    /// read as an Equalizer APO / AutoEq file; one that cannot be read is a one-line error.
    public static func resolve(_ spec: String, savedProfile: (String) throws -> EQSpec?) throws -> EQSpec {
        try resolve(spec, savedProfile: savedProfile) { path in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw EQSpecError.unreadableFile(path: path)
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
