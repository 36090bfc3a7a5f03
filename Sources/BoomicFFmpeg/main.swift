import BoomicDecoderPipe
import CFFmpeg
import Glibc

// boomic-ffmpeg: decodes one audio file through FFmpeg onto standard output as a `DecoderPipe`
// stream, for the player (BoomicAudio's `FFmpegDecoder`). A program of its own because
// Debian's FFmpeg is GPL-bound and `boomic` does not link it (NOTICE).

let usage = """
    usage: boomic-ffmpeg FILE [--start FRAME] [--descriptor FD]
           boomic-ffmpeg encode --format opus|mp3 --bitrate KBPS --rate HZ --channels N
           boomic-ffmpeg scale --size N

    Decodes FILE through FFmpeg and writes Boomic's decoder stream (DecoderPipe) on standard
    output, starting at sample frame FRAME (default 0) exactly. Boomic's player runs it for
    the formats it has no decoder of its own for (AAC and ALAC in M4A, WavPack, APE, Musepack…).
    With --descriptor, the file is read from descriptor FD, which the player opened, and FILE
    only names it. FILE must be a regular file (a FIFO is refused, not waited on).

    encode: float PCM on standard input to an Ogg Opus or MP3 stream on standard output, for
    Boomic's HTTP transcodes (boomic-ffmpeg encode --help).
    scale: an image on standard input to a JPEG of a given size, for cover art
    (boomic-ffmpeg scale --help).
    """

/// A usage error, on standard error (the stream is for the player).
func complain(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// `encode` and `scale`: a command that reads standard input and writes standard output, its
/// errors one line on standard error (exit 1), usage errors exit 64.
func runCommand(_ name: String, usage: String, _ body: (ArraySlice<String>) throws(InputError) -> Void) -> Never {
    let rest = CommandLine.arguments.dropFirst(2)
    if rest.contains("-h") || rest.contains("--help") {
        print(usage)
        exit(0)
    }
    closeInheritedDescriptors(keeping: nil)
    signal(SIGPIPE, SIG_IGN)
    av_log_set_level(AV_LOG_QUIET)
    do {
        try body(rest)
    } catch {
        complain("boomic-ffmpeg \(name): \(error.reason)")
        exit(error.usage ? 64 : 1)
    }
    exit(0)
}

switch CommandLine.arguments.dropFirst().first {
case "encode":
    runCommand("encode", usage: EncodeOptions.usage) { arguments throws(InputError) in
        try StreamEncoder(EncodeOptions(arguments: arguments)).run()
    }
case "scale":
    runCommand("scale", usage: ScaleCommand.usage) { arguments throws(InputError) in
        try ScaleCommand(arguments: arguments).run()
    }
default:
    break
}

var path: String?
var start = 0
var descriptor: Int32?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--start":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value >= 0 else {
            complain("boomic-ffmpeg: --start needs a frame number")
            exit(64)
        }
        start = value
    case "--descriptor":
        guard let value = arguments.popFirst().flatMap({ Int32($0) }), value > 2 else {
            complain("boomic-ffmpeg: --descriptor needs a descriptor number above 2")
            exit(64)
        }
        descriptor = value
    default:
        guard path == nil else {
            complain("boomic-ffmpeg: one file at a time\n\(usage)")
            exit(64)
        }
        path = argument
    }
}
guard let path else {
    complain(usage)
    exit(64)
}

/// Closes every descriptor but the standard three and the audio file's: what the player had open
/// without close-on-exec (a server's client sockets, the library's database) must not stay open
/// for as long as this runs. (glibc's posix_spawn_file_actions_addclosefrom_np would do it from
/// the player's side, but Swift does not see it.)
func closeInheritedDescriptors(keeping kept: Int32?) {
    guard let folder = opendir("/proc/self/fd") else { return }
    var open: [Int32] = []
    while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let fd = Int32(name), fd > 2, fd != kept, fd != dirfd(folder) { open.append(fd) }
    }
    closedir(folder)
    for fd in open { close(fd) }
}

closeInheritedDescriptors(keeping: descriptor)
signal(SIGPIPE, SIG_IGN)
// FFmpeg's own messages would go to stderr, which the player does not read: what matters comes
// through the stream.
av_log_set_level(AV_LOG_QUIET)

var writer = PipeWriter()
do {
    try Decoding.run(file: InputFile(path: path, descriptor: descriptor), from: start, into: &writer)
} catch {
    writer.send(.error, text: error.reason)
    exit(1)
}
