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
    /// The folder of `Samples/` that holds the CUE image (scripts/make-samples.py's `CUE_FOLDER`'s
    /// top): one file of three songs, which the per-file manifest leaves out.
    public static let cueImageFolder = "CUE Image"
}
