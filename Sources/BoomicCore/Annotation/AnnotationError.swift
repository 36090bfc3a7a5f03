import Foundation

/// Why a star or a rating cannot be set: one line saying what and what to do.
public enum AnnotationError: Error, Hashable, Sendable, LocalizedError {
    case badRating(Int)
    /// OpenSubsonic's error 70: the id names no song of the library.
    case songNotFound(SongID)

    public var errorDescription: String? { message }

    public var message: String {
        switch self {
        case .badRating(let r): return "a rating is a whole number of stars from 0 (none) to 5, not \(r)"
        case .songNotFound(let id): return "no song with id \(id) in the library; it may have been removed"
        }
    }
}
