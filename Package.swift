// swift-tools-version: 6.0
import PackageDescription

// Module layout and dependency direction: ../shared/DESIGN.md §2.
// BoomicCore is pure; everything with I/O sits above it.
let package = Package(
    name: "Boomic",
    products: [
        .executable(name: "boomic", targets: ["BoomicCLI"]),
        // The decoder for formats only FFmpeg reads, a program of its own so that `boomic` never
        // links Debian's GPL-bound FFmpeg (NOTICE); the player runs it through a pipe.
        .executable(name: "boomic-ffmpeg", targets: ["BoomicFFmpeg"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        // Hummingbird's own: named here for the types BoomicHTTP uses directly (HTTPField.Name,
        // Logger).
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // Hummingbird's own: the HTTP front stops by a graceful shutdown of its service group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        // System libraries (pkg-config names checked in shared/PLATFORM.md).
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CXattr"),
        // epoll and eventfd for the MPD front's own event loops (Swift's Glibc does not show them).
        .systemLibrary(name: "CEpoll"),
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "CVorbisFile", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "COpusFile", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CWavPack", pkgConfig: "wavpack", providers: [.apt(["libwavpack-dev"])]),
        // Linked by boomic-ffmpeg only.
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "libswscale-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        // TagLib 1.13's C API has no property map or pictures, so we own a small C++ shim.
        .target(
            name: "CTagLib",
            linkerSettings: [.linkedLibrary("tag"), .linkedLibrary("z")]
        ),
        // SoundTouch (tempo without pitch, `--speed`) is a C++ class: a small shim like TagLib's.
        .target(
            name: "CSoundTouch",
            linkerSettings: [.linkedLibrary("SoundTouch")]
        ),

        .target(
            name: "BoomicCore",
            dependencies: [
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ]
        ),
        // The stream `boomic-ffmpeg` writes and the player reads. A module of its own, with no
        // dependency but the standard library, so that the helper links neither BoomicCore nor
        // Foundation (74 MB of its 76 as a static build).
        .target(name: "BoomicDecoderPipe"),
        // The lowest layer: every system call that can be interrupted or cut short, in one place.
        .target(name: "BoomicSystem", dependencies: ["CXattr"]),
        .target(
            name: "BoomicStore",
            dependencies: ["BoomicCore", "BoomicSystem", "CSQLite3"]
        ),
        .target(
            name: "BoomicMedia",
            dependencies: ["BoomicCore", "BoomicSystem", "CTagLib"]
        ),
        // The audio path over C libraries: decoders, sinks (DESIGN §2).
        .target(
            name: "BoomicAudio",
            dependencies: ["BoomicCore", "BoomicDecoderPipe", "BoomicSystem", "CFLAC", "CMPG123", "CVorbisFile", "COpusFile", "CSoxr", "CALSA", "CEBUR128", "CSoundTouch", "CWavPack"]
        ),
        // The player: decode and output threads around a ring buffer, carrying out the queue. It
        // knows no library: it is given songs and a closure that records a play (DESIGN §2).
        .target(
            name: "BoomicPlayback",
            dependencies: ["BoomicCore", "BoomicAudio", "BoomicSystem"]
        ),
        // One library session: opening, codecs, import/write/undo flows (DESIGN §2). The CLI, the
        // player and the server all open a library through it.
        .target(
            name: "BoomicLibrary",
            dependencies: ["BoomicCore", "BoomicStore", "BoomicMedia", "BoomicAudio", "BoomicSystem"]
        ),
        // The rooms: a player per room over one library session, their state files, play
        // recording and the player's config; what `play` and `serve` share (DESIGN §2).
        .target(
            name: "BoomicStation",
            dependencies: [
                "BoomicCore", "BoomicLibrary", "BoomicPlayback", "BoomicAudio", "BoomicSystem",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // Accounts of the network fronts, outside the log: a users file and the key that encrypts
        // their passwords at rest (AES-GCM), and Subsonic's authentication over them.
        .target(
            name: "BoomicAccounts",
            // The digests and AES-GCM come from the system's libcrypto, opened when first needed
            // (LibCrypto), not linked: every command would load it at start.
            dependencies: ["BoomicSystem"]
        ),
        .executableTarget(
            name: "BoomicCLI",
            dependencies: [
                "BoomicCore", "BoomicStore", "BoomicMedia", "BoomicLibrary", "BoomicSystem",
                "BoomicAudio", "BoomicPlayback", "BoomicStation", "BoomicMPD", "BoomicAccounts", "BoomicHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["BuildInfo"]
        ),
        // `boomic serve`'s MPD front: the MPD protocol over the station, on event loops of its own
        // (epoll) that own the sockets; NIOCore for its byte buffers.
        .target(
            name: "BoomicMPD",
            dependencies: [
                "BoomicCore", "BoomicLibrary", "BoomicPlayback", "BoomicStation", "BoomicAudio", "BoomicMedia", "BoomicSystem",
                "CEpoll",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // `boomic serve --http`'s front: OpenSubsonic (and the web page) on Hummingbird over the
        // station, beside the MPD front.
        .target(
            name: "BoomicHTTP",
            dependencies: [
                "BoomicAccounts", "BoomicCore", "BoomicLibrary", "BoomicStation", "BoomicAudio", "BoomicMedia", "BoomicSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                // NIOThreadPool: a media file's reads and a tag's reading run off the event loops.
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // The web page's files: embedded by the WebAssets plugin, not compiled or copied.
            exclude: ["Web/Assets"],
            plugins: ["WebAssets"]
        ),
        // boomic-ffmpeg: FFmpeg's decoders on a pipe (Core's DecoderPipe), for the player's
        // FFmpegDecoder.
        .executableTarget(
            name: "BoomicFFmpeg",
            dependencies: ["BoomicDecoderPipe", "CFFmpeg"]
        ),
        // `boomic --version` names the commit it was built from.
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // The web page's HTML, CSS and JavaScript inside the binary (Documentation/http.md).
        .plugin(name: "WebAssets", capability: .buildTool()),

        .testTarget(name: "BoomicSystemTests", dependencies: ["BoomicSystem"]),
        .testTarget(name: "BoomicCoreTests", dependencies: ["BoomicCore"]),
        .testTarget(name: "BoomicStoreTests", dependencies: ["BoomicStore", "BoomicCore"]),
        .testTarget(name: "BoomicLibraryTests", dependencies: ["BoomicLibrary", "BoomicStore", "BoomicMedia", "BoomicCore"]),
        .testTarget(name: "BoomicAudioTests", dependencies: ["BoomicAudio", "BoomicCore", "BoomicDecoderPipe"]),
        .testTarget(name: "BoomicPlaybackTests", dependencies: ["BoomicPlayback", "BoomicAudio", "BoomicCore"]),
        .testTarget(name: "BoomicMediaTests", dependencies: ["BoomicMedia", "BoomicCore"]),
        .testTarget(name: "BoomicStationTests", dependencies: ["BoomicStation", "BoomicPlayback", "BoomicLibrary", "BoomicAudio", "BoomicCore"]),
        .testTarget(name: "BoomicMPDTests", dependencies: [
            "BoomicMPD", "BoomicStation", "BoomicCore", "BoomicLibrary", "BoomicPlayback", "BoomicAudio",
            .product(name: "NIOCore", package: "swift-nio"),
            // EmbeddedChannel: a connection whose writability the test turns, to call the
            // handler back in the middle of its own flush as NIO does.
            .product(name: "NIOEmbedded", package: "swift-nio"),
        ]),
        .testTarget(name: "BoomicAccountsTests", dependencies: [
            "BoomicAccounts", "BoomicSystem",
        ]),
        .testTarget(name: "BoomicCLITests", dependencies: ["BoomicCore", "BoomicStore", "BoomicLibrary", "BoomicAccounts"]),
        .testTarget(name: "BoomicHTTPTests", dependencies: [
            "BoomicHTTP", "BoomicStation", "BoomicLibrary", "BoomicCore", "BoomicAudio", "BoomicMedia",
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

// What every test target shares (the seeded generator, temporary folders): Foundation only,
// never part of the `boomic` product. Added here, after the list, so that every test target
// gets it, including ones added later.
package.targets += [
    .target(name: "BoomicTestSupport", path: "Tests/BoomicTestSupport"),
    .testTarget(name: "BoomicTestSupportTests"),
]
for target in package.targets where target.type == .test {
    target.dependencies.append("BoomicTestSupport")
}
