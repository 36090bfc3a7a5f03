import Foundation

/// Where the repository's files are, found from this source file, so tests run from any folder
/// and every target reads the same `Samples/`.
public enum Repo {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // BoomicTestSupport
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent().path
    /// The sample music and its manifest (`Samples/README.md`). Tests copy from it and never
    /// write into it.
    public static let samples = root + "/Samples"
}
