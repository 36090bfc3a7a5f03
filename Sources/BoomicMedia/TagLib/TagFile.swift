import BoomicCore
import BoomicSystem
import CTagLib
import Glibc

/// One audio file opened through TagLib: its tags, audio properties and embedded pictures.
///
/// Owns the C handle of the CTagLib shim and closes it in `deinit`; the raw pointer never leaves
/// this file. Opened read-only (the default), the file is never modified. Not `Sendable`: use one
/// `TagFile` on one thread at a time (separate files on separate threads are fine).
///
/// ```swift
/// let file = try TagFile(path: "/music/a.flac")
/// let title = file.properties()["TITLE"]?.first
/// ```
public final class TagFile {
    public let path: String
    private let handle: OpaquePointer
    public let isWritable: Bool

    /// Opens `path`; throws `MediaError.unreadable` with TagLib's reason when the file cannot be
    /// opened, is not a format TagLib knows, is damaged, or has no audio stream.
    ///
    /// Read-only, the file is opened as Boomic opens every file it reads
    /// (`FileDescriptor.openRegular`: never waiting, a regular file or nothing) and TagLib reads
    /// that descriptor, so a FIFO named `x.flac`, even one swapped in after the scan listed the
    /// name, fails here instead of hanging an import. Writable is for the copy a write makes
    /// beside the file, which Boomic created itself.
    public init(path: String, writable: Bool = false) throws(MediaError) {
        self.path = path
        self.isWritable = writable
        var message = [CChar](repeating: 0, count: 256)
        let opened: OpaquePointer?
        if writable {
            opened = ctl_open(path, 1, &message, message.count)
        } else {
            let file: FileDescriptor
            do {
                file = try FileDescriptor.openRegular(path)
            } catch {
                throw .unreadable(path: path, reason: "cannot open the file (\(error.reason))")
            }
            opened = ctl_open_fd(file.rawValue, path, &message, message.count)
            try? file.close()
        }
        guard let h = opened else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                as: UTF8.self)
            throw .unreadable(path: path, reason: reason.isEmpty ? "TagLib could not open it" : reason)
        }
        handle = h
    }

    deinit {
        ctl_close(handle)
    }

    /// The recognised format; nil only for a TagLib type Boomic has no name for.
    public var format: AudioFormat? {
        AudioFormat(ctl_file_format(handle))
    }

    /// Length, sample rate, channels, bitrate and bit depth as TagLib reports them.
    public var audioProperties: AudioProperties {
        var p = ctl_audio_properties()
        ctl_audio_properties_get(handle, &p)
        return AudioProperties(lengthMilliseconds: Int(p.length_ms), sampleRate: Int(p.sample_rate),
                               channels: Int(p.channels), bitrateKbps: Int(p.bitrate_kbps),
                               bitsPerSample: Int(p.bits_per_sample))
    }

    /// FLAC's STREAMINFO MD5 of the decoded audio, as 16 bytes; nil when not FLAC or all zero.
    public var flacMD5: [UInt8]? {
        var md5 = [UInt8](repeating: 0, count: 16)
        return ctl_flac_md5(handle, &md5) == 1 ? md5 : nil
    }

    /// For MP3, the byte range from the first audio frame to the end of the last one.
    public var mpegAudioRange: Range<Int64>? {
        var start: Int64 = 0
        var end: Int64 = 0
        guard ctl_mpeg_audio_range(handle, &start, &end) == 1, start < end else { return nil }
        return start..<end
    }

    /// The size of the file in bytes.
    public var length: Int64 {
        max(0, ctl_file_length(handle))
    }

    /// Up to `count` bytes at `offset`, read through TagLib's already open stream.
    public func read(at offset: Int64, count: Int) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var got = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let n = ctl_read_at(handle, offset, buffer.baseAddress, Int64(count))
            got = n > 0 ? Int(n) : 0
            initialized = got
        }
        return bytes
    }

    /// The unified property map: TagLib's upper-case keys to their values, in file order.
    /// Values are as TagLib gives them (including empty strings).
    public func properties() -> [String: [String]] {
        final class Collector {
            var map: [String: [String]] = [:]
        }
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        withExtendedLifetime(collector) {
            _ = ctl_properties_each(handle, { key, value, context in
                guard let key, let value, let context else { return }
                let c = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                c.map[String(cString: key), default: []].append(String(cString: value))
            }, context)
        }
        return collector.map
    }

    /// The chapters of the file's ID3v2 tag (an MP3's `CHAP` frames), in the order of its
    /// top-level `CTOC` table of contents, then those no table lists by start time (all by start
    /// time with no table); at most 1000. Read from the tag TagLib parsed on opening.
    public func chapters() -> [MediaChapter] {
        let count = Int(ctl_chapter_count(handle))
        var result: [MediaChapter] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            var c = ctl_chapter()
            guard ctl_chapter_at(handle, Int32(i), &c) == 1 else { continue }
            func byte(_ offset: UInt32) -> Int? { offset == UInt32.max ? nil : Int(offset) }
            result.append(MediaChapter(title: c.title.map { String(cString: $0) },
                                       startMilliseconds: Int(c.start_ms), endMilliseconds: Int(c.end_ms),
                                       startByte: byte(c.start_offset), endByte: byte(c.end_offset)))
        }
        return result
    }

    /// A FLAC's `CUESHEET` metadata block (track offsets in samples), read through the open
    /// file; nil for other formats or when the file has none.
    public func cueSheetBlock() -> CueSheetBlock? {
        guard format == .flac else { return nil }
        return CueSheetBlock.inFLAC(length: length, read: { self.read(at: $0, count: $1) })
    }

    /// Descriptions of the embedded pictures (without their bytes), in file order.
    public func pictures() -> [PictureInfo] {
        let count = Int(ctl_picture_count(handle))
        var result: [PictureInfo] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            var p = ctl_picture()
            guard ctl_picture_at(handle, Int32(i), &p) == 1 else { continue }
            result.append(PictureInfo(index: i, mime: p.mime.map { String(cString: $0) } ?? "",
                                      type: Int(p.type),
                                      description: p.description.map { String(cString: $0) } ?? "",
                                      size: Int(p.size)))
        }
        return result
    }

    /// Calls `body` with the bytes of picture `index` without copying them; nil if there is none.
    public func withPictureBytes<R>(at index: Int,
                                    _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        var p = ctl_picture()
        guard index >= 0, index <= Int(Int32.max), ctl_picture_at(handle, Int32(index), &p) == 1 else {
            return nil
        }
        return try body(UnsafeRawBufferPointer(start: p.data, count: p.data == nil ? 0 : Int(p.size)))
    }

    /// Replaces `key` with `values` in memory (an empty array removes it); `save()` writes it.
    /// Returns false when the format cannot hold that key.
    @discardableResult
    public func setProperty(_ key: String, _ values: [String]) -> Bool {
        var cStrings = values.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self,
                                                  capacity: max(buffer.count, 1)) { values in
                ctl_property_set(handle, key, values, Int32(buffer.count)) == 1
            }
        }
    }

    /// Replaces the front cover with `bytes` of type `mime`, or removes it when `bytes` is empty.
    /// Returns false when the format cannot hold pictures.
    @discardableResult
    public func setFrontCover(_ bytes: [UInt8], mime: String, description: String = "") -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            ctl_set_front_cover(handle, mime, buffer.baseAddress, Int64(buffer.count), description) == 1
        }
    }

    /// Whether a FLAC's properties are its Vorbis comments' (else an ID3 tag's beside them).
    public var flacReadsComments: Bool { ctl_flac_reads_comments(handle) == 1 }

    /// Makes `save()` render an MP3's ID3v2 tag whole, as TagLib does, rather than keep the
    /// frames the write did not change as the file has them.
    public func renderWhole() { ctl_render_whole(handle) }

    /// The comment header packet of an Ogg Vorbis or Opus file, whole; nil for other files.
    public func oggCommentPacket() -> [UInt8]? {
        final class Box { var bytes: [UInt8]? }
        let box = Box()
        let found = withExtendedLifetime(box) {
            ctl_ogg_comment_packet(handle, { data, size, context in
                guard let data, let context else { return }
                Unmanaged<Box>.fromOpaque(context).takeUnretainedValue().bytes = Array(UnsafeBufferPointer(start: data, count: Int(size)))
            }, Unmanaged.passUnretained(box).toOpaque())
        }
        return found == 1 ? box.bytes : nil
    }

    /// Writes `packet` as the comment header packet of an Ogg Vorbis or Opus file opened
    /// `writable`, as it is: TagLib lays it out in pages but does not render the comments.
    public func saveOggCommentPacket(_ packet: [UInt8]) throws(MediaError) {
        var message = [CChar](repeating: 0, count: 256)
        let ok = packet.withUnsafeBufferPointer { buffer in
            ctl_ogg_save_comment_packet(handle, buffer.baseAddress, Int64(buffer.count), &message, message.count)
        }
        guard ok == 1 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .unwritable(path: path, reason: reason.isEmpty ? "TagLib could not save it" : reason)
        }
    }

    /// Writes changed tags into the file, which must have been opened `writable`.
    ///
    /// This writes in place; callers that need atomicity copy the file first and rename after.
    public func save() throws(MediaError) {
        var message = [CChar](repeating: 0, count: 256)
        guard ctl_save(handle, &message, message.count) == 1 else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                as: UTF8.self)
            throw .unwritable(path: path, reason: reason.isEmpty ? "TagLib could not save it" : reason)
        }
    }
}

/// Audio properties in TagLib's units. Zero means TagLib did not know.
public struct AudioProperties: Hashable, Sendable {
    public var lengthMilliseconds: Int
    public var sampleRate: Int
    public var channels: Int
    public var bitrateKbps: Int
    /// 0 for lossy formats, which have no fixed bit depth.
    public var bitsPerSample: Int

    public init(lengthMilliseconds: Int, sampleRate: Int, channels: Int, bitrateKbps: Int,
                bitsPerSample: Int) {
        self.lengthMilliseconds = lengthMilliseconds
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitrateKbps = bitrateKbps
        self.bitsPerSample = bitsPerSample
    }
}

/// An embedded picture's description; its bytes stay in the `TagFile` (`withPictureBytes`).
public struct PictureInfo: Hashable, Sendable {
    public var index: Int
    public var mime: String
    /// ID3v2/FLAC picture type: 3 is the front cover; -1 when the format has no types (MP4).
    public var type: Int
    public var description: String
    public var size: Int

    public static let frontCoverType = 3
}
