import Glibc

/// Scales cover art for a client (OpenSubsonic's `getCoverArt` with `size`) through
/// `boomic-ffmpeg scale`: any image FFmpeg reads in, a JPEG whose longer side is the size out.
/// An image already that small is not enlarged: a JPEG comes back unchanged, another image as a
/// JPEG of its own size. The caller caches the result.
public enum ImageScaler {
    /// - Parameter name: names the image in the error (a song's path, `cover.jpg`).
    public static func scale(_ image: [UInt8], longerSide: Int, name: String = "image",
                             program: String? = FFmpegDecoder.program) async throws(AudioError) -> [UInt8] {
        guard let program else {
            throw AudioError(path: name, reason: "cannot scale: boomic-ffmpeg (Boomic's FFmpeg program) is not installed next to boomic; scripts/install puts it there")
        }
        let result: Result<[UInt8], AudioError> = await withCheckedContinuation { continuation in
            PipeThread.run {
                continuation.resume(returning: Result { () throws(AudioError) in
                    try run(program, image, longerSide, name)
                })
            }
        }
        return try result.get()
    }

    /// Writes the whole image, then reads the whole JPEG: `scale` reads all its input before it
    /// writes anything, so neither side waits on the other.
    private static func run(_ program: String, _ image: [UInt8], _ size: Int, _ name: String) throws(AudioError) -> [UInt8] {
        let process = try FilterProcess(program: program, arguments: ["scale", "--size", String(max(1, size))])
        _ = image.withUnsafeBytes { PipeThread.writeAll(process.input, $0) }
        process.closeInput()
        var jpeg: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(process.output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            jpeg += chunk[0..<n]
        }
        let text = process.errorText()
        let ending = process.waitForExit()
        guard ending == "exit 0", !jpeg.isEmpty else {
            let line = text.split(separator: "\n").first.map(String.init) ?? "boomic-ffmpeg scale ended with \(ending)"
            throw AudioError(path: name, reason: line)
        }
        return jpeg
    }
}
