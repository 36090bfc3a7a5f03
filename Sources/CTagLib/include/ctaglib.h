// A small C interface over TagLib 1.13's C++ API.
//
// TagLib 1.13's own C binding (tag_c.h) has no property map and no pictures, and Swift's C++
// interop cannot import TagLib's polymorphic classes, so Boomic talks to TagLib through this
// header only (shared/PLATFORM.md §2). Rules that hold for every function:
//   * No C++ exception ever crosses this boundary; failures come back as return values.
//   * Strings are UTF-8 and NUL-terminated. Pointers handed out by a `ctl_file` stay valid
//     until the next call that changes that file (`ctl_property_set`, `ctl_set_front_cover`,
//     `ctl_save`) or until `ctl_close`.
//   * A `ctl_file` is not thread-safe; separate files may be used on separate threads.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An open audio file. Create with `ctl_open`, free with `ctl_close`.
typedef struct ctl_file ctl_file;

/// The container/codec TagLib recognised (`ctl_file_format`).
typedef enum ctl_format {
    CTL_FORMAT_UNKNOWN = 0,
    CTL_FORMAT_FLAC = 1,
    CTL_FORMAT_MPEG = 2,
    CTL_FORMAT_MP4 = 3,
    CTL_FORMAT_OGG_VORBIS = 4,
    CTL_FORMAT_OGG_OPUS = 5,
    CTL_FORMAT_OGG_FLAC = 6,
    CTL_FORMAT_OGG_SPEEX = 7,
    CTL_FORMAT_WAV = 8,
    CTL_FORMAT_AIFF = 9,
    CTL_FORMAT_WAVPACK = 10,
    CTL_FORMAT_APE = 11,
    CTL_FORMAT_MPC = 12,
    CTL_FORMAT_TRUEAUDIO = 13,
    CTL_FORMAT_ASF = 14,
} ctl_format;

/// Audio properties as TagLib computes them with `AudioProperties::Average`.
typedef struct ctl_audio_properties {
    int32_t length_ms;
    int32_t sample_rate;
    int32_t channels;
    int32_t bitrate_kbps;
    /// 0 when the format does not say (MP3, Vorbis, Opus).
    int32_t bits_per_sample;
} ctl_audio_properties;

/// One embedded picture. `type` is the ID3v2/FLAC picture type (3 = front cover), or -1 when
/// the format has no types (MP4 `covr`, APE). `data` is `size` bytes owned by the file.
typedef struct ctl_picture {
    const char *mime;
    const char *description;
    int32_t type;
    const uint8_t *data;
    int64_t size;
} ctl_picture;

/// Opens `path`. With `writable` 0 the file is opened read-only and is never modified.
/// Returns NULL when the file cannot be opened, TagLib does not recognise it, TagLib marks it
/// invalid, or it has no usable audio properties; then `error` (if not NULL) receives a short
/// one-line reason, truncated to `error_size` bytes including the NUL.
ctl_file *ctl_open(const char *path, int writable, char *error, size_t error_size);

/// Opens read-only the file open at `fd` (Boomic opens it without blocking and checks it is a
/// regular file first), named `path` in messages; `fd` stays the caller's (the file keeps a
/// duplicate). Fails as `ctl_open` does.
ctl_file *ctl_open_fd(int fd, const char *path, char *error, size_t error_size);

/// Closes the file and frees everything it handed out. NULL is ignored.
void ctl_close(ctl_file *file);

/// The recognised format.
ctl_format ctl_file_format(const ctl_file *file);

/// Fills `out` with the audio properties (all zero if TagLib has none).
void ctl_audio_properties_get(const ctl_file *file, ctl_audio_properties *out);

/// Copies FLAC's STREAMINFO MD5 of the decoded audio into `out` and returns 1; returns 0 when
/// the file is not FLAC or the encoder left the signature all zero.
int ctl_flac_md5(const ctl_file *file, uint8_t out[16]);

/// For MPEG audio: the byte range [start, end) from the first audio frame to the end of the
/// last one (so it excludes ID3v2, ID3v1 and APE tags). Returns 1 if found, 0 otherwise.
int ctl_mpeg_audio_range(ctl_file *file, int64_t *start, int64_t *end);

/// The file's length in bytes, or -1.
int64_t ctl_file_length(ctl_file *file);

/// Reads up to `count` bytes at `offset` through TagLib's open stream (no second open).
/// Returns the number of bytes read (0 past the end), or -1 on error.
int64_t ctl_read_at(ctl_file *file, int64_t offset, void *buffer, int64_t count);

/// Called once per (key, value) of the unified PropertyMap; a key with several values is
/// reported once per value, in order. Keys are TagLib's upper-case names (TITLE, ARTIST,
/// TRACKNUMBER, …). For MP4, unmapped `----:com.apple.iTunes:<name>` atoms are reported as
/// `<NAME>` upper-cased (TagLib 1.13 maps no REPLAYGAIN_* for MP4).
typedef void (*ctl_property_callback)(const char *key, const char *value, void *context);

/// Reports every property to `callback`; returns how many (key, value) pairs it reported.
int ctl_properties_each(ctl_file *file, ctl_property_callback callback, void *context);

/// The number of embedded pictures (FLAC PICTURE blocks, ID3v2 APIC in MP3/WAV/AIFF, MP4
/// `covr`, Xiph METADATA_BLOCK_PICTURE in Ogg, APE "Cover Art (Front)").
int ctl_picture_count(ctl_file *file);

/// Fills `out` with picture `index` (0-based). Returns 1, or 0 if `index` is out of range.
int ctl_picture_at(ctl_file *file, int index, ctl_picture *out);

/// The most chapters `ctl_chapter_count` reports; the rest of a longer list is left out.
#define CTL_MAX_CHAPTERS 1000

/// One chapter of an ID3v2 tag (a `CHAP` frame). Times are milliseconds from the start of the
/// audio, as the frame gives them (not checked against each other or the file's length); the
/// byte offsets are 0xFFFFFFFF when the frame does not give them. `title` is the text of the
/// frame's embedded `TIT2`, or NULL when it has none. Strings are owned by the file.
typedef struct ctl_chapter {
    const char *element_id;
    const char *title;
    uint32_t start_ms;
    uint32_t end_ms;
    uint32_t start_offset;
    uint32_t end_offset;
} ctl_chapter;

/// The number of chapters in the file's ID3v2 tag (MP3, WAV, AIFF), read from the tag TagLib
/// parsed on opening (no more reading of the file), at most CTL_MAX_CHAPTERS. Their order is
/// the top-level `CTOC` frame's (its child elements, descending into the tables it lists, each
/// chapter once), then the chapters no table lists by start time; with no top-level `CTOC`,
/// every chapter by start time. A repeated element id counts once (its first frame).
int ctl_chapter_count(ctl_file *file);

/// Fills `out` with chapter `index` (0-based) in that order. Returns 1, or 0 if out of range.
int ctl_chapter_at(ctl_file *file, int index, ctl_chapter *out);

/// Replaces `key` with `values[0..<n]` (n = 0 removes it) in memory; `ctl_save` writes it.
/// Returns 1 if the format accepted the key, 0 if not. Only what reads as `key` changes: in
/// APEv2 and ID3v2 tags the item or frame that holds it keeps its spelling (`Title`, a TXXX
/// description) and every other item or frame stays as it was. For MP4, keys TagLib rejects
/// are written as `----:com.apple.iTunes:` freeform atoms (REPLAYGAIN_* lower-cased).
int ctl_property_set(ctl_file *file, const char *key, const char *const *values, int n);

/// Replaces the front cover (type 3) with `data` (`size` bytes of `mime`), or removes every
/// front cover when `size` is 0. Returns 1 on success, 0 if the format cannot hold pictures.
int ctl_set_front_cover(ctl_file *file, const char *mime, const uint8_t *data, int64_t size,
                        const char *description);

/// Writes the changes into the file (which must have been opened writable). MP3 is saved
/// as ID3v2.4 without adding an ID3v1 or APE tag that was not already there. Then the file is
/// closed and reopened (TagLib's FileStream buffers writes until it is closed), so the bytes are
/// in the file when this returns and the handle shows what was written; pointers handed out
/// earlier are invalid. Returns 1 on success; otherwise 0 and a one-line reason in `error`.
int ctl_save(ctl_file *file, char *error, size_t error_size);

/// 1 when a FLAC's properties are read from its Vorbis comments (TagLib reads them when they
/// hold any field), 0 when they come from an ID3 tag beside them, or the file is no FLAC.
int ctl_flac_reads_comments(ctl_file *file);

/// Makes `ctl_save` render an MP3's ID3v2 tag whole, as TagLib does, instead of keeping the
/// frames the write did not change as the file has them.
void ctl_render_whole(ctl_file *file);

/// Calls `body` with the comment header packet of an Ogg Vorbis or Opus file (its second
/// packet: `\x03vorbis…` or `OpusTags…`, whole, across pages). Returns 1, or 0 when the file is
/// neither or has no such packet.
int ctl_ogg_comment_packet(ctl_file *file, void (*body)(const uint8_t *data, int64_t size, void *context),
                           void *context);

/// Replaces that packet with `data` and writes the pages it spans (the audio pages are only
/// renumbered, if at all), without TagLib rendering the comments; then closes and reopens the
/// file as `ctl_save` does. Returns 1 on success; otherwise 0 and a one-line reason in `error`.
int ctl_ogg_save_comment_packet(ctl_file *file, const uint8_t *data, int64_t size, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif
