import BoomicCore
import Foundation
import NIOCore

/// A response being written: `Name: value` lines, ending in `OK` (the connection adds it).
/// Values are one line each; a newline in a tag becomes a space, since a client would read the
/// rest as a line of its own.
///
/// Written straight into the bytes that go out: the connection sends them as they are (no copy
/// of a 20 MB `listallinfo`), and a buffer grows in place where a string would be copied.
public struct MPDResponse: Sendable {
    public private(set) var bytes = ByteBuffer()

    public init() {}

    /// The response as text (binary payloads included as they decode).
    public var text: String { String(decoding: bytes.readableBytesView, as: UTF8.self) }

    /// Room for `count` bytes without growing step by step.
    public mutating func reserve(_ count: Int) { bytes.reserveCapacity(bytes.writerIndex + count) }

    public mutating func add(_ name: String, _ value: some CustomStringConvertible) {
        add(name, value: value.description)
    }

    public mutating func add(_ name: String, _ value: String) {
        add(name, value: value)
    }

    public mutating func add(_ name: String, _ value: Int) {
        add(name, value: String(value))
    }

    private mutating func add(_ name: String, value v: String) {
        bytes.writeString(name)
        bytes.writeStaticString(": ")
        // Bytes, not Characters: a grapheme test per value was most of a short response's time.
        if v.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
            bytes.writeString(v.split(whereSeparator: \.isNewline).joined(separator: " "))
        } else {
            bytes.writeString(v)
        }
        bytes.writeStaticString("\n")
    }

    /// The `binary: N` line and its bytes (MPD sends the bytes and then a newline).
    public mutating func addBinary(_ payload: [UInt8]) {
        add("binary", payload.count)
        bytes.writeBytes(payload)
        bytes.writeStaticString("\n")
    }

    /// A song as MPD prints it: its file, time stamp and format, the tags the client asked
    /// for (`tagtypes`), then its length.
    public mutating func add(song: Song, uri: String, tags: Set<MPDTag>) {
        add("file", uri)
        add("Last-Modified", Self.timeStamp(nanoseconds: song.mtime))
        if let rate = song.samplerate, let channels = song.channels {
            add("Format", "\(rate):\(song.bitdepth.map { "\($0)" } ?? "f"):\(channels)")
        }
        for tag in MPDTag.allCases where tags.contains(tag) {
            for value in Self.values(of: tag, in: song) { add(tag.rawValue, value) }
        }
        if let d = song.duration {
            add("Time", Int(d.rounded()))
            add("duration", Self.milliseconds(d))
        }
    }

    /// A tag's values as MPD lists them: one line each (several artists, several lines).
    public static func values(of tag: MPDTag, in song: Song) -> [String] {
        func one(_ s: String?) -> [String] { s.map { $0.isEmpty ? [] : [$0] } ?? [] }
        switch tag {
        case .artist: return song.artists
        case .album: return one(song.album)
        case .albumArtist: return one(song.albumartist)
        case .title: return one(song.title)
        case .track: return one(song.track.map(String.init))
        case .genre: return one(song.genre)
        case .date: return one(song.date ?? song.year.map(String.init))
        case .composer: return one(song.composer)
        case .comment: return one(song.comment)
        case .disc: return one(song.disc.map(String.init))
        case .musicBrainzArtistID: return one(song.mbArtistID)
        case .musicBrainzAlbumID: return one(song.mbAlbumID)
        case .musicBrainzAlbumArtistID: return one(song.mbAlbumArtistID)
        case .musicBrainzTrackID: return one(song.mbTrackID)
        case .musicBrainzReleaseGroupID: return one(song.mbReleaseGroupID)
        }
    }

    /// ISO 8601 in UTC to the second, as MPD writes `Last-Modified`.
    public static func timeStamp(nanoseconds: Int) -> String {
        timeStamp(seconds: nanoseconds / 1_000_000_000)
    }

    public static func timeStamp(seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        // By hand: String(format:) was a fifth of listallinfo's time.
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// Seconds with three decimals (`545.432`), as MPD prints `duration` and `elapsed`.
    public static func milliseconds(_ seconds: Double) -> String {
        let ms = Int((max(0, seconds) * 1000).rounded())
        let frac = ms % 1000
        return "\(ms / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
    }
}
