// What the two halves of the shim (ctaglib.cpp reads, write.cpp writes) share. Private.
#pragma once

#include "ctaglib.h"
#include "readstream.h"

#include <string>
#include <vector>

#include <taglib/fileref.h>
#include <taglib/id3v2tag.h>
#include <taglib/tpropertymap.h>
#include <taglib/tbytevector.h>
#include <taglib/xiphcomment.h>

namespace ctaglib {

struct Picture {
    std::string mime;
    std::string description;
    int32_t type;
    TagLib::ByteVector data; // implicitly shared with TagLib's copy: no bytes are duplicated
};

// One CHAP frame (chapters.cpp): times in milliseconds, byte offsets 0xFFFFFFFF when not given.
struct Chapter {
    std::string id;
    std::string title;
    bool hasTitle = false;
    uint32_t start = 0;
    uint32_t end = 0;
    uint32_t startOffset = 0xFFFFFFFF;
    uint32_t endOffset = 0xFFFFFFFF;
};

// The most chapters a file reports (CTL_MAX_CHAPTERS): a tag of a million CHAP frames is an
// attack, not an audiobook.
const size_t kMaxChapters = CTL_MAX_CHAPTERS;

// The freeform MP4 atom prefix iTunes, foobar2000, beets and mutagen use for custom keys.
const char *const kITunesFreeform = "----:com.apple.iTunes:";

// An MP3's length as a gapless decoder plays it (mpeglength.cpp), in milliseconds; -1 when the
// file does not say its encoder's delay and padding.
long long mpegGaplessLengthMs(TagLib::File *file);

} // namespace ctaglib

struct ctl_file {
    std::string path;
    TagLib::IOStream *stream = nullptr;
    ctaglib::ReadStream *reader = nullptr; // the same object as stream when opened read-only
    TagLib::FileRef *ref = nullptr;
    TagLib::File *file = nullptr; // owned by ref; nullptr only after a failed reopen
    ctl_format format = CTL_FORMAT_UNKNOWN;
    // FileStream::length() seeks to the end and back on every call; ask once.
    long length = 0;
    bool picturesLoaded = false;
    std::vector<ctaglib::Picture> pictures;
    bool chaptersLoaded = false;
    std::vector<ctaglib::Chapter> chapters;
    // The ID3v2 frames (MP3, WAV, AIFF) as TagLib read them, each with its rendering then, taken before
    // the first change: `ctaglib::spliceID3v2` tells from them which frames a write changed.
    bool id3Tracked = false;
    bool renderWhole = false; // ctl_render_whole: no splicing on this handle
    // `frame` may be deleted by the time of the save (a write removes frames): only compared,
    // never used, unless the tag still holds it.
    struct TrackedFrame {
        TagLib::ID3v2::Frame *frame;
        TagLib::ByteVector id;
        unsigned int size; // its size in the file (rendering it changes what size() says)
        TagLib::ByteVector rendering;
    };
    std::vector<TrackedFrame> id3Before;
    // A WAV's RIFF INFO chunk as TagLib renders it, before the first change: written only
    // when a write changed it.
    TagLib::ByteVector infoBefore;

    void release() {
        delete ref; // the File goes first: it still uses the stream while being destroyed
        delete stream;
        ref = nullptr;
        stream = nullptr;
        reader = nullptr;
        file = nullptr;
        format = CTL_FORMAT_UNKNOWN;
        length = 0;
        picturesLoaded = false;
        pictures.clear();
        chaptersLoaded = false;
        chapters.clear();
        id3Tracked = false;
        id3Before.clear();
        infoBefore.clear();
    }

    ~ctl_file() { release(); }
};

namespace ctaglib {

/// Notes an MP3's, a WAV's or an AIFF's ID3v2 frames as they are, and a WAV's INFO chunk,
/// before the first change (once per open).
void trackID3v2(ctl_file *f);

/// Writes an MP3's ID3v2 tag as the file has it but for the frames changed since
/// `trackID3v2`: untouched frames keep their bytes and places (TagLib's save re-renders every
/// frame: `(17)Rock` became `Rock`, and it dropped frames ID3v2.4 lacks, such as a v2.3 tag's
/// TDAT or RVAD, and v2.4 frames in a v2.3 tag, such as TMOO), changed ones are rendered in
/// place, new ones follow, and the tag's padding takes up the change in size. Returns false,
/// having written nothing, when the tag is not one this can splice (v2.2, unsynchronised, an
/// extended header or footer, frames TagLib read otherwise than this parse); the caller saves
/// through TagLib then. Writes the ID3v1 and APE tags through TagLib first.
bool spliceID3v2(ctl_file *f, int otherTags);

/// Writes a WAV's or an AIFF's tags into the chunks where the file has them: the ID3 chunk
/// spliced as `spliceID3v2` splices an MP3's tag, the RIFF INFO chunk rewritten only when it
/// changed, each in its place (TagLib's save removes them and appends new ones, so INFO moved
/// after the audio and every frame was rendered anew), the container's size kept right. A
/// new ID3 chunk goes after the last chunk, as TagLib adds it; one left with no frame is
/// removed. Returns false, having written nothing, where it cannot (chunks it does not follow,
/// two ID3 chunks, a tag it cannot splice, an INFO that became empty); the caller saves
/// through TagLib then.
bool spliceRIFF(ctl_file *f);

/// The handle still holds an open file (a failed reopen after a save leaves none).
bool usable(const ctl_file *f);

/// Copies `text` into the caller's `error` buffer of `size` bytes, NUL-terminated.
void setError(char *error, size_t size, const std::string &text);

/// The ID3v2 tag a file carries pictures in (MP3, WAV, AIFF), created if `create`.
TagLib::ID3v2::Tag *id3v2TagOf(ctl_file *f, bool create);

/// The Vorbis comment block of an Ogg file (Vorbis, Opus, FLAC, Speex), else nullptr.
TagLib::Ogg::XiphComment *xiphCommentOf(TagLib::File *file);

/// A tag is where properties() reads from when it has any of the basic fields, or when no
/// other tag of the file does (TagLib's TagUnion takes the first non-empty tag).
bool readsFrom(const TagLib::Tag *tag, std::initializer_list<const TagLib::Tag *> others);

/// Fills `map` (what properties() read) with the keys only another tag of the file holds: an
/// MP3's APE tag (foobar2000, mp3gain's ReplayGain) or ID3v1 tag beside its ID3v2 one, a WAV's
/// RIFF INFO beside its ID3 chunk. TagLib reads the first non-empty tag alone, so such a value
/// never reached the library (MPD shows it), and an edit of it there and its undo dropped it.
void readOtherTags(TagLib::File *file, TagLib::PropertyMap &map);

/// ReplayGain from RVA2 frames (the master channel's adjustment), where no REPLAYGAIN_* TXXX
/// frame gives it: mp3gain's older mode and some rippers write only RVA2, which MPD reads.
void readRVA2Gains(TagLib::ID3v2::Tag *tag, TagLib::PropertyMap &map);

/// The ID3v2 tag `file`'s properties() read from (MP3, WAV, AIFF), else nullptr.
TagLib::ID3v2::Tag *readID3v2Of(TagLib::File *file);

/// ID3v2's TIT1 is the content group: so the ID3 standard names it, and so Picard (by
/// default), foobar2000 and MPD read and write it. iTunes 12.5 made it the work and moved
/// the grouping to GRP1, and TagLib 1.13 reads TIT1 as WORK whatever the tag. A tag without
/// GRP1 is read the first way: TIT1 is GROUPING, and WORK comes from TXXX:WORK alone.
bool tit1IsGrouping(const TagLib::ID3v2::Tag *tag);

/// Moves TIT1's values from WORK to GROUPING in `map` (read from `tag`) when the tag reads
/// TIT1 as the grouping.
void readTIT1AsGrouping(const TagLib::ID3v2::Tag *tag, TagLib::PropertyMap &map);

/// TagLib 1.13 reads ID3v2's TDRC `2020-05-06T07:08:09` as DATE `2020-05-06 07:08:09`; this
/// gives DATE the frame's own text back, the ISO 8601 a Vorbis DATE and MPD keep.
void readDatesAsWritten(const TagLib::ID3v2::Tag *tag, TagLib::PropertyMap &map);

/// Performer credits are TMCL's role and name pairs in ID3v2.4, and the instrument roles of
/// TIPL in ID3v2.3 (its IPLS), as Picard writes them; TagLib 1.13 reads TMCL as PERFORMER:ROLE
/// keys, upper-casing the role and splitting names at commas, and drops TIPL's instruments.
/// This adds each credit to `map`'s PERFORMER as "Name (role)", the spelling Picard gives it in
/// a Vorbis comment, after the TXXX:PERFORMER values, and takes out TagLib's PERFORMER:ROLE keys.
void readPerformerCredits(const TagLib::ID3v2::Tag *tag, TagLib::PropertyMap &map);

/// The tag carries performers in TMCL or TIPL (then a new PERFORMER is written back there).
bool hasPerformerCredits(const TagLib::ID3v2::Tag *tag);

/// Replaces the tag's performers (TXXX:PERFORMER, TMCL, TIPL's instrument roles) with one TMCL
/// of `list`, each "Name (role)" a pair and a bare name a pair with an empty role. TIPL keeps its
/// other roles; saved as ID3v2.3, TagLib merges TMCL and TIPL into IPLS, as Picard does.
void setPerformerCredits(TagLib::ID3v2::Tag *tag, const TagLib::StringList &list);

/// TagLib 1.13 drops the empty strings of a text frame, so a TMCL or TIPL pair with an empty
/// role (Picard's plain "performer") shifts every pair after it, on reading and on the next
/// save. Where an MP3's tag starts the file, this reads those frames' bytes again and gives
/// TagLib's frames their fields with the empty ones back.
void restoreEmptyCreditFields(TagLib::File *file, TagLib::IOStream *stream);

/// Reads the chapters of `f`'s ID3v2 tag into `f->chapters` (once per open).
void loadChapters(ctl_file *f);

/// Closes and reopens `f` in place (after a save). On failure `f` holds no file any more and
/// every later call on it fails softly.
bool reopen(ctl_file *f, char *error, size_t error_size);

} // namespace ctaglib
