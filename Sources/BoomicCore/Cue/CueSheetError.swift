import Foundation

/// A sheet that cannot be used: one line saying why, with the sheet's name. The image it
/// describes comes in as one song.
public struct CueSheetError: Error, Equatable, LocalizedError {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var errorDescription: String? { reason }

    static let undecodable = CueSheetError("its bytes are no text (UTF-8, UTF-16 with a byte order mark, or CP1252)")
    static let noFile = CueSheetError("it names no FILE")
    static func line(_ n: Int, _ why: String) -> CueSheetError { CueSheetError("line \(n): \(why)") }
}
