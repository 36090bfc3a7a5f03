// What the two halves of the shim (ctaglib.cpp reads, write.cpp writes) share. Private.
#pragma once

#include "ctaglib.h"
#include "readstream.h"

#include <string>
#include <vector>

#include <taglib/fileref.h>
#include <taglib/id3v2tag.h>
#include <taglib/tbytevector.h>
#include <taglib/xiphcomment.h>

namespace ctaglib {

struct Picture {
    std::string mime;
    std::string description;
    int32_t type;
    TagLib::ByteVector data; // implicitly shared with TagLib's copy: no bytes are duplicated
};

// The freeform MP4 atom prefix iTunes, foobar2000, beets and mutagen use for custom keys.
const char *const kITunesFreeform = "----:com.apple.iTunes:";

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
    }

    ~ctl_file() { release(); }
};

namespace ctaglib {

/// The handle still holds an open file (a failed reopen after a save leaves none).
bool usable(const ctl_file *f);

/// Copies `text` into the caller's `error` buffer of `size` bytes, NUL-terminated.
void setError(char *error, size_t size, const std::string &text);

/// The ID3v2 tag a file carries pictures in (MP3, WAV, AIFF), created if `create`.
TagLib::ID3v2::Tag *id3v2TagOf(ctl_file *f, bool create);

/// The Vorbis comment block of an Ogg file (Vorbis, Opus, FLAC, Speex), else nullptr.
TagLib::Ogg::XiphComment *xiphCommentOf(TagLib::File *file);

/// Closes and reopens `f` in place (after a save). On failure `f` holds no file any more and
/// every later call on it fails softly.
bool reopen(ctl_file *f, char *error, size_t error_size);

} // namespace ctaglib
