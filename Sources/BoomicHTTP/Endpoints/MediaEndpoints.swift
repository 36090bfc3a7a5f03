import BoomicAudio
import BoomicCore
import Foundation
import Glibc
import HTTPTypes
import Hummingbird

/// `stream` and `download`: a song's file as it is, with HTTP ranges so that clients seek, or
/// a transcode of it (Ogg Opus or MP3, `Transcoder`) when the client asks for one or the song
/// is a part of its file (a CUE track of an image, a chapter), which is never sent whole.
enum MediaEndpoints {
    /// A transcode's codec and bit rate when the client names neither and the song must be
    /// transcoded (a CUE track or a chapter): MP3, which every client plays, at its highest rate.
    static let partFormat = TranscodeFormat.mp3
    static let partKbps = 320
    /// The codec when `maxBitRate` alone asks for less than the file's rate: Opus, as
    /// Navidrome's default downsampling format.
    static let downsamplingFormat = TranscodeFormat.opus

    static func stream(_ call: SubsonicCall) async throws -> SubsonicReply {
        let song = try MediaSong.song(call)
        let reply = if let transcode = try plan(call, song) {
            try await transcoded(call, song, transcode, attachment: false)
        } else {
            try await file(call, song, attachment: false)
        }
        // A stream from the song's start may be a play no client scrobbles (a browser's):
        // the ledger counts it once, or lets a scrobble claim it (`ListeningLedger`). Told
        // beside the answer, so the first byte does not wait for the commit queue.
        if isFromTheStart(call) {
            let (id, caller, front) = (song.id, try AnnotationEndpoints.caller(of: call), call.front)
            Task { await AnnotationHooks.streamed(song: id, caller: caller, front: front) }
        }
        return reply
    }

    /// Neither a `HEAD`, nor a seek (`timeOffset`, a `Range` that starts past the first byte).
    static func isFromTheStart(_ call: SubsonicCall) -> Bool {
        guard call.head.method != .head, (call.parameters["timeOffset"].flatMap(Double.init) ?? 0) == 0 else { return false }
        guard let range = call.head.headerFields[.range]?.replacingOccurrences(of: " ", with: "") else { return true }
        return range.hasPrefix("bytes=0-")
    }

    static func download(_ call: SubsonicCall) async throws -> SubsonicReply {
        let song = try MediaSong.song(call)
        if song.playRange != nil {
            return try await transcoded(call, song, (partFormat, partKbps), attachment: true)
        }
        return try await file(call, song, attachment: true)
    }

    /// The transcode `stream` asks for, or nil for the file as it is.
    ///
    /// - `format=raw` (or none) without a `maxBitRate` below the file's: the file.
    /// - `format=mp3`, `opus` (`ogg` is Opus): that codec, at `maxBitRate` or the codec's default;
    ///   the file as it is when it already is that codec and within `maxBitRate`.
    /// - `maxBitRate` (kbit/s; 0 is no limit) below the file's rate, without a format: Opus.
    /// - Another format name (`aac`, `flac`): the file as it is, as Navidrome does for a format it
    ///   has no transcoder for.
    /// A song that is part of its file is always transcoded: MP3 at 320 kbit/s unless the call
    /// names the codec or the rate.
    static func plan(_ call: SubsonicCall, _ song: Song) throws(SubsonicError) -> (format: TranscodeFormat, kbps: Int)? {
        let asked = call.parameters["format"]?.lowercased() ?? ""
        let limit = try call.parameters.int("maxBitRate").flatMap { $0 > 0 ? $0 : nil }
        let format: TranscodeFormat? = switch asked {
        case "mp3": .mp3
        case "opus", "ogg", "oga": .opus
        default: nil
        }
        let suffix = song.path.split(separator: ".").last?.lowercased() ?? ""
        let fileRate = song.bitrate ?? 0
        if song.playRange != nil {
            return (format ?? partFormat, limit ?? (format == nil ? partKbps : format!.defaultKbps))
        }
        let withinLimit = limit.map { fileRate > 0 && fileRate <= $0 } ?? true
        if let format {
            if format.suffix == suffix, withinLimit { return nil }
            return (format, limit ?? format.defaultKbps)
        }
        if asked.isEmpty, let limit, !withinLimit { return (downsamplingFormat, limit) }
        return nil
    }

    // MARK: the file

    private static func file(_ call: SubsonicCall, _ song: Song, attachment: Bool) async throws -> SubsonicReply {
        let media = try await MediaSong.open(song, folders: call.front.folders)
        let etag = "\"\(String(media.size, radix: 16))-\(String(media.modified.tv_sec, radix: 16))-\(String(media.modified.tv_nsec, radix: 16))\""
        var headers: HTTPFields = [
            .contentType: mimeType(suffix: media.suffix),
            .acceptRanges: "bytes",
            .eTag: etag,
            .lastModified: httpDate(media.modified.tv_sec),
        ]
        if attachment { headers[.contentDisposition] = disposition(media.fileName) }
        if let match = call.head.headerFields[.ifNoneMatch], match.split(separator: ",").contains(where: {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == etag || tag == "W/" + etag || tag == "*"
        }) {
            return .http(Response(status: .notModified, headers: headers))
        }
        var range = MediaRange(header: call.head.headerFields[.range], size: media.size)
        // A range is answered only when the file is still the one the client saw (`If-Range`).
        if let ifRange = call.head.headerFields[.ifRange], ifRange != etag { range = .whole }
        let status: HTTPResponse.Status, bytes: ClosedRange<Int>?
        switch range {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(media.size)"
            headers[.contentLength] = "0"
            return .http(Response(status: .rangeNotSatisfiable, headers: headers))
        case let .part(part):
            status = .partialContent
            bytes = part
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(media.size)"
        case .whole:
            status = .ok
            bytes = media.size > 0 ? 0...(media.size - 1) : nil
        }
        headers[.contentLength] = String(bytes?.count ?? 0)
        guard call.head.method != .head, let bytes else {
            return .http(Response(status: status, headers: headers))
        }
        return .http(Response(status: status, headers: headers, body: MediaBody.file(media, range: bytes)))
    }

    // MARK: transcodes

    private static func transcoded(_ call: SubsonicCall, _ song: Song, _ plan: (format: TranscodeFormat, kbps: Int),
                                   attachment: Bool) async throws -> SubsonicReply {
        // The file is checked as a file sent as it is would be: inside the music folders.
        _ = try await MediaSong.open(song, folders: call.front.folders)
        let offset = call.parameters["timeOffset"].flatMap(Double.init) ?? 0
        let request = TranscodeRequest(path: song.path, range: song.playRange, offset: offset, format: plan.format, kbps: plan.kbps,
                                       channels: song.channels)
        var headers: HTTPFields = [.contentType: plan.format.mimeType, .acceptRanges: "none"]
        if attachment {
            let name = (song.title ?? "song").replacingOccurrences(of: "/", with: "-")
            headers[.contentDisposition] = disposition(name + "." + plan.format.suffix)
        }
        let estimate = call.parameters.bool("estimateContentLength") == true
        if call.head.method == .head {
            let seconds = songSeconds(song).map { max(0, $0 - request.offset) }
            if estimate, let seconds { headers[.contentLength] = String(estimatedLength(seconds, kbps: request.kbps)) }
            return .http(Response(status: .ok, headers: headers))
        }
        let transcode: Transcode
        do {
            transcode = try await Transcoder.start(request)
        } catch {
            throw SubsonicError(.generic, "\(error)")
        }
        let length = estimate ? (transcode.duration ?? songSeconds(song).map { max(0, $0 - request.offset) })
            .map { estimatedLength($0, kbps: request.kbps) } : nil
        if let length { headers[.contentLength] = String(length) }
        return .http(Response(status: .ok, headers: headers, body: MediaBody.transcode(transcode, length: length)))
    }

    /// `estimateContentLength`: the length at the asked rate, duration × kbit/s ÷ 8.
    static func estimatedLength(_ seconds: Double, kbps: Int) -> Int {
        Int((seconds * Double(kbps) * 1000 / 8).rounded())
    }

    /// The song's own length: its range's, else the file's.
    private static func songSeconds(_ song: Song) -> Double? {
        if let range = song.playRange {
            if let end = range.end { return end - range.start }
            return song.duration.map { $0 - range.start }
        }
        return song.duration
    }

    // MARK: headers

    /// The MIME type of a file by its suffix, as Navidrome and the Subsonic clients know them.
    static func mimeType(suffix: String) -> String {
        switch suffix {
        case "mp3": "audio/mpeg"
        case "flac": "audio/flac"
        case "ogg", "oga", "opus": "audio/ogg"
        case "m4a", "m4b", "mp4", "aac", "alac": "audio/mp4"
        case "wav": "audio/wav"
        case "aif", "aiff", "aifc": "audio/aiff"
        case "wv": "audio/x-wavpack"
        case "ape": "audio/x-ape"
        case "mpc": "audio/x-musepack"
        case "wma": "audio/x-ms-wma"
        case "dsf": "audio/x-dsf"
        case "dff": "audio/x-dff"
        default: "application/octet-stream"
        }
    }

    /// `attachment` with the name in ASCII (others as `_`, quotes and backslashes dropped) and
    /// as UTF-8 (RFC 6266's `filename*`).
    static func disposition(_ name: String) -> String {
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" && $0.value != 0x7F ? Character($0) : "_" })
        var encoded = ""
        for byte in name.utf8 {
            let c = Character(UnicodeScalar(byte))
            if (c.isASCII && (c.isLetter || c.isNumber)) || "-._~".contains(c) { encoded.append(c) }
            else { encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
        }
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func httpDate(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(Int(parts.tm_year) + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
