// The reading half of the C++ side of ctaglib.h (write.cpp writes). See the header for the contract.
#include "file.h"

#include <cerrno>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <fcntl.h>

#include <taglib/aifffile.h>
#include <taglib/apefile.h>
#include <taglib/apeitem.h>
#include <taglib/apetag.h>
#include <taglib/asffile.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/fileref.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/flacproperties.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4coverart.h>
#include <taglib/mp4file.h>
#include <taglib/mp4properties.h>
#include <taglib/mp4tag.h>
#include <taglib/mpcfile.h>
#include <taglib/mpegfile.h>
#include <taglib/mpegheader.h>
#include <taglib/oggflacfile.h>
#include <taglib/opusfile.h>
#include <taglib/speexfile.h>
#include <taglib/tdebuglistener.h>
#include <taglib/tfilestream.h>
#include <taglib/tpropertymap.h>
#include <taglib/trueaudiofile.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/wavpackfile.h>
#include <taglib/wavpackproperties.h>
#include <taglib/apeproperties.h>
#include <taglib/aiffproperties.h>
#include <taglib/wavproperties.h>
#include <taglib/xiphcomment.h>

using namespace TagLib;
using namespace ctaglib;

namespace {

// TagLib reports parse problems through a global debug listener that writes to stderr.
// Nothing below Boomic's CLI prints, and a corrupt file is reported as an error anyway.
class SilentListener : public DebugListener {
public:
    void printMessage(const String &) override {}
};

void installSilentListener() {
    // A function-local static is initialised exactly once, even when threads race here.
    static SilentListener listener;
    static const bool installed = [] {
        setDebugListener(&listener);
        return true;
    }();
    (void)installed;
}

ctl_format formatOf(File *f) {
    // Ogg::FLAC::File is not a FLAC::File, so the order below only matters for readability.
    if (dynamic_cast<FLAC::File *>(f)) return CTL_FORMAT_FLAC;
    if (dynamic_cast<MPEG::File *>(f)) return CTL_FORMAT_MPEG;
    if (dynamic_cast<MP4::File *>(f)) return CTL_FORMAT_MP4;
    if (dynamic_cast<Ogg::Vorbis::File *>(f)) return CTL_FORMAT_OGG_VORBIS;
    if (dynamic_cast<Ogg::Opus::File *>(f)) return CTL_FORMAT_OGG_OPUS;
    if (dynamic_cast<Ogg::FLAC::File *>(f)) return CTL_FORMAT_OGG_FLAC;
    if (dynamic_cast<Ogg::Speex::File *>(f)) return CTL_FORMAT_OGG_SPEEX;
    if (dynamic_cast<RIFF::WAV::File *>(f)) return CTL_FORMAT_WAV;
    if (dynamic_cast<RIFF::AIFF::File *>(f)) return CTL_FORMAT_AIFF;
    if (dynamic_cast<WavPack::File *>(f)) return CTL_FORMAT_WAVPACK;
    if (dynamic_cast<APE::File *>(f)) return CTL_FORMAT_APE;
    if (dynamic_cast<MPC::File *>(f)) return CTL_FORMAT_MPC;
    if (dynamic_cast<TrueAudio::File *>(f)) return CTL_FORMAT_TRUEAUDIO;
    if (dynamic_cast<ASF::File *>(f)) return CTL_FORMAT_ASF;
    return CTL_FORMAT_UNKNOWN;
}

const char *formatName(ctl_format format) {
    switch (format) {
    case CTL_FORMAT_FLAC: return "FLAC";
    case CTL_FORMAT_MPEG: return "MPEG";
    case CTL_FORMAT_MP4: return "MP4";
    case CTL_FORMAT_OGG_VORBIS: return "Ogg Vorbis";
    case CTL_FORMAT_OGG_OPUS: return "Ogg Opus";
    case CTL_FORMAT_OGG_FLAC: return "Ogg FLAC";
    case CTL_FORMAT_OGG_SPEEX: return "Ogg Speex";
    case CTL_FORMAT_WAV: return "WAV";
    case CTL_FORMAT_AIFF: return "AIFF";
    case CTL_FORMAT_WAVPACK: return "WavPack";
    case CTL_FORMAT_APE: return "Monkey's Audio";
    case CTL_FORMAT_MPC: return "Musepack";
    case CTL_FORMAT_TRUEAUDIO: return "TrueAudio";
    case CTL_FORMAT_ASF: return "ASF";
    default: return "audio";
    }
}

int32_t bitsPerSample(AudioProperties *p) {
    // The base class has no such field; each lossless format adds its own.
    if (auto *x = dynamic_cast<FLAC::Properties *>(p)) return x->bitsPerSample();
    if (auto *x = dynamic_cast<MP4::Properties *>(p)) return x->bitsPerSample();
    if (auto *x = dynamic_cast<RIFF::WAV::Properties *>(p)) return x->bitsPerSample();
    if (auto *x = dynamic_cast<RIFF::AIFF::Properties *>(p)) return x->bitsPerSample();
    if (auto *x = dynamic_cast<WavPack::Properties *>(p)) return x->bitsPerSample();
    if (auto *x = dynamic_cast<APE::Properties *>(p)) return x->bitsPerSample();
    if (auto *x = dynamic_cast<TrueAudio::Properties *>(p)) return x->bitsPerSample();
    return 0;
}

APE::Tag *apeTagOf(File *file) {
    if (auto *x = dynamic_cast<WavPack::File *>(file)) return x->hasAPETag() ? x->APETag() : nullptr;
    if (auto *x = dynamic_cast<APE::File *>(file)) return x->hasAPETag() ? x->APETag() : nullptr;
    if (auto *x = dynamic_cast<MPC::File *>(file)) return x->hasAPETag() ? x->APETag() : nullptr;
    return nullptr;
}

/// APE binary cover items carry no MIME type, so recognise the few image formats by magic.
std::string sniffMime(const ByteVector &data) {
    if (data.startsWith(ByteVector("\xFF\xD8\xFF", 3))) return "image/jpeg";
    if (data.startsWith(ByteVector("\x89PNG", 4))) return "image/png";
    if (data.startsWith(ByteVector("GIF8", 4))) return "image/gif";
    if (data.startsWith(ByteVector("BM", 2))) return "image/bmp";
    return "";
}

void loadPictures(ctl_file *f) {
    if (f->picturesLoaded) return;
    f->picturesLoaded = true;
    f->pictures.clear();
    auto addFLAC = [f](const List<FLAC::Picture *> &list) {
        for (auto *p : list) {
            f->pictures.push_back({p->mimeType().to8Bit(true), p->description().to8Bit(true),
                                   static_cast<int32_t>(p->type()), p->data()});
        }
    };
    if (auto *x = dynamic_cast<FLAC::File *>(f->file)) {
        addFLAC(x->pictureList());
    } else if (auto *xiph = xiphCommentOf(f->file)) {
        addFLAC(xiph->pictureList());
    } else if (auto *id3 = id3v2TagOf(f, false)) {
        for (auto *frame : id3->frameListMap()["APIC"]) {
            auto *apic = dynamic_cast<ID3v2::AttachedPictureFrame *>(frame);
            if (apic == nullptr) continue;
            f->pictures.push_back({apic->mimeType().to8Bit(true), apic->description().to8Bit(true),
                                   static_cast<int32_t>(apic->type()), apic->picture()});
        }
    } else if (auto *mp4 = dynamic_cast<MP4::File *>(f->file)) {
        MP4::Tag *tag = mp4->tag();
        if (tag != nullptr && tag->contains("covr")) {
            for (const auto &art : tag->item("covr").toCoverArtList()) {
                std::string mime;
                switch (art.format()) {
                case MP4::CoverArt::JPEG: mime = "image/jpeg"; break;
                case MP4::CoverArt::PNG: mime = "image/png"; break;
                case MP4::CoverArt::GIF: mime = "image/gif"; break;
                case MP4::CoverArt::BMP: mime = "image/bmp"; break;
                default: mime = sniffMime(art.data()); break;
                }
                f->pictures.push_back({mime, "", -1, art.data()});
            }
        }
    } else if (auto *ape = apeTagOf(f->file)) {
        // APEv2 stores "Cover Art (Front)" as "<description>\0<image bytes>".
        const auto &items = ape->itemListMap();
        for (auto it = items.begin(); it != items.end(); ++it) {
            if (it->second.type() != APE::Item::Binary) continue;
            String key = it->first.upper();
            if (!key.startsWith("COVER ART")) continue;
            ByteVector raw = it->second.binaryData();
            int nul = raw.find(ByteVector(1, '\0'));
            std::string desc = nul >= 0 ? std::string(raw.data(), static_cast<size_t>(nul)) : "";
            ByteVector data = nul >= 0 ? raw.mid(static_cast<unsigned int>(nul) + 1) : raw;
            int32_t type = key == "COVER ART (FRONT)" ? 3 : -1;
            f->pictures.push_back({sniffMime(data), desc, type, data});
        }
    }
}

/// Opens `f->path` into `f` (which holds no stream yet), or read-only from `fd` (taken over)
/// when it is not -1; false and a reason on failure.
bool load(ctl_file *f, bool writable, char *error, size_t error_size, int fd = -1) {
    errno = 0;
    int openError = 0;
    if (writable) {
        f->stream = new FileStream(f->path.c_str(), false);
        openError = errno;
    } else {
        // Read-only: never changes the file, works on read-only media, does not wake inotify
        // watchers with IN_CLOSE_WRITE the way TagLib's default "rb+" open does, and reads
        // with far fewer system calls (readstream.h).
        f->reader = fd >= 0 ? new ctaglib::ReadStream(fd, f->path.c_str()) : new ctaglib::ReadStream(f->path.c_str());
        f->stream = f->reader;
        openError = f->reader->error();
    }
    if (!f->stream->isOpen() || (writable && f->stream->readOnly())) {
        std::string reason = writable ? "cannot open the file for writing" : "cannot open the file";
        if (openError != 0) reason += std::string(" (") + std::strerror(openError) + ")";
        setError(error, error_size, reason);
        return false;
    }
    f->length = f->stream->length();
    if (f->length <= 0) {
        setError(error, error_size, "the file is empty");
        return false;
    }
    f->ref = new FileRef(f->stream, true, AudioProperties::Average);
    f->file = f->ref->file();
    if (f->file == nullptr) {
        setError(error, error_size, "not an audio format TagLib recognises");
        return false;
    }
    f->format = formatOf(f->file);
    std::string name = formatName(f->format);
    if (!f->file->isValid()) {
        setError(error, error_size, "damaged or truncated " + name + " data");
        return false;
    }
    AudioProperties *props = f->file->audioProperties();
    if (props == nullptr || props->sampleRate() <= 0 || props->channels() <= 0) {
        setError(error, error_size, "no " + name + " audio stream found");
        return false;
    }
    restoreEmptyCreditFields(f->file, f->stream);
    return true;
}

} // namespace

namespace ctaglib {

bool usable(const ctl_file *f) {
    return f != nullptr && f->file != nullptr;
}

void setError(char *error, size_t size, const std::string &text) {
    if (error == nullptr || size == 0) return;
    size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(error, text.data(), n);
    error[n] = '\0';
}

/// The ID3v2 tag a file carries pictures in, if its format uses one.
ID3v2::Tag *id3v2TagOf(ctl_file *f, bool create) {
    if (auto *x = dynamic_cast<MPEG::File *>(f->file)) {
        if (create || x->hasID3v2Tag()) return x->ID3v2Tag(create);
        return nullptr;
    }
    if (auto *x = dynamic_cast<RIFF::WAV::File *>(f->file)) {
        if (create || x->hasID3v2Tag()) return x->ID3v2Tag();
        return nullptr;
    }
    if (auto *x = dynamic_cast<RIFF::AIFF::File *>(f->file)) {
        if (create || x->hasID3v2Tag()) return x->tag();
        return nullptr;
    }
    return nullptr;
}

Ogg::XiphComment *xiphCommentOf(File *file) {
    if (auto *x = dynamic_cast<Ogg::Vorbis::File *>(file)) return x->tag();
    if (auto *x = dynamic_cast<Ogg::Opus::File *>(file)) return x->tag();
    if (auto *x = dynamic_cast<Ogg::FLAC::File *>(file)) return x->tag();
    if (auto *x = dynamic_cast<Ogg::Speex::File *>(file)) return x->tag();
    return nullptr;
}

/// Closes and reopens `f` in place (after a save). On failure `f` holds no file any more and
/// every later call on it fails softly.
bool reopen(ctl_file *f, char *error, size_t error_size) {
    bool writable = !f->stream->readOnly();
    f->release();
    if (load(f, writable, error, error_size)) return true;
    f->release();
    return false;
}

} // namespace ctaglib

extern "C" {

ctl_file *ctl_open(const char *path, int writable, char *error, size_t error_size) {
    try {
        installSilentListener();
        if (path == nullptr) {
            setError(error, error_size, "no path given");
            return nullptr;
        }
        auto *f = new ctl_file();
        f->path = path;
        if (!load(f, writable != 0, error, error_size)) {
            delete f;
            return nullptr;
        }
        return f;
    } catch (const std::bad_alloc &) {
        setError(error, error_size, "out of memory");
    } catch (...) {
        setError(error, error_size, "TagLib failed while reading the file");
    }
    return nullptr;
}

ctl_file *ctl_open_fd(int fd, const char *path, char *error, size_t error_size) {
    try {
        installSilentListener();
        int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        if (own < 0) {
            setError(error, error_size, std::string("cannot open the file (") + std::strerror(errno) + ")");
            return nullptr;
        }
        auto *f = new ctl_file();
        f->path = path != nullptr ? path : "";
        if (!load(f, false, error, error_size, own)) {
            delete f;
            return nullptr;
        }
        return f;
    } catch (const std::bad_alloc &) {
        setError(error, error_size, "out of memory");
    } catch (...) {
        setError(error, error_size, "TagLib failed while reading the file");
    }
    return nullptr;
}

void ctl_close(ctl_file *file) {
    try {
        delete file;
    } catch (...) {
    }
}

ctl_format ctl_file_format(const ctl_file *file) {
    return file != nullptr ? file->format : CTL_FORMAT_UNKNOWN;
}

void ctl_audio_properties_get(const ctl_file *file, ctl_audio_properties *out) {
    if (out == nullptr) return;
    *out = ctl_audio_properties{0, 0, 0, 0, 0};
    try {
        AudioProperties *p = usable(file) ? file->file->audioProperties() : nullptr;
        if (p == nullptr) return;
        out->length_ms = p->lengthInMilliseconds();
        if (file->format == CTL_FORMAT_MPEG) {
            long long exact = mpegGaplessLengthMs(file->file);
            if (exact > 0) out->length_ms = static_cast<int>(exact);
        }
        out->sample_rate = p->sampleRate();
        out->channels = p->channels();
        out->bitrate_kbps = p->bitrate();
        out->bits_per_sample = bitsPerSample(p);
    } catch (...) {
    }
}

int ctl_flac_md5(const ctl_file *file, uint8_t out[16]) {
    try {
        if (!usable(file) || out == nullptr) return 0;
        auto *p = dynamic_cast<FLAC::Properties *>(file->file->audioProperties());
        if (p == nullptr) return 0;
        ByteVector sig = p->signature();
        if (sig.size() != 16) return 0;
        bool allZero = true;
        for (unsigned i = 0; i < 16; ++i) {
            out[i] = static_cast<uint8_t>(sig[i]);
            if (out[i] != 0) allZero = false;
        }
        return allZero ? 0 : 1;
    } catch (...) {
        return 0;
    }
}

int ctl_mpeg_audio_range(ctl_file *file, int64_t *start, int64_t *end) {
    try {
        auto *x = usable(file) ? dynamic_cast<MPEG::File *>(file->file) : nullptr;
        if (x == nullptr) return 0;
        long first = x->firstFrameOffset();
        long last = x->lastFrameOffset();
        if (first < 0 || last < first) return 0;
        MPEG::Header header(x, last, false);
        long stop = last + (header.isValid() ? header.frameLength() : 0);
        if (stop > file->length) stop = file->length;
        if (stop <= first) return 0;
        if (start) *start = first;
        if (end) *end = stop;
        return 1;
    } catch (...) {
        return 0;
    }
}

int64_t ctl_file_length(ctl_file *file) {
    try {
        return usable(file) ? static_cast<int64_t>(file->length) : -1;
    } catch (...) {
        return -1;
    }
}

int64_t ctl_read_at(ctl_file *file, int64_t offset, void *buffer, int64_t count) {
    try {
        if (!usable(file) || buffer == nullptr || offset < 0 || count < 0) return -1;
        if (file->reader != nullptr) {
            return file->reader->readAt(static_cast<long>(offset), buffer, static_cast<long>(count));
        }
        long length = file->length;
        if (offset >= length || count == 0) return 0;
        if (count > length - offset) count = length - offset;
        file->file->seek(static_cast<long>(offset));
        ByteVector data = file->file->readBlock(static_cast<unsigned long>(count));
        std::memcpy(buffer, data.data(), data.size());
        return static_cast<int64_t>(data.size());
    } catch (...) {
        return -1;
    }
}

int ctl_properties_each(ctl_file *file, ctl_property_callback callback, void *context) {
    if (!usable(file) || callback == nullptr) return 0;
    int count = 0;
    try {
        PropertyMap map = file->file->properties();
        readOtherTags(file->file, map);
        ID3v2::Tag *id3 = readID3v2Of(file->file);
        readTIT1AsGrouping(id3, map);
        readPerformerCredits(id3, map);
        readDatesAsWritten(id3, map);
        readRVA2Gains(id3, map);
        for (auto it = map.begin(); it != map.end(); ++it) {
            std::string key = it->first.to8Bit(true);
            for (const auto &value : it->second) {
                std::string v = value.to8Bit(true);
                callback(key.c_str(), v.c_str(), context);
                ++count;
            }
        }
        if (auto *mp4 = dynamic_cast<MP4::File *>(file->file)) {
            MP4::Tag *tag = mp4->tag();
            const String prefix(kITunesFreeform);
            for (const auto &raw : map.unsupportedData()) {
                if (tag == nullptr || !raw.startsWith(prefix) || !tag->contains(raw)) continue;
                String name = raw.substr(prefix.size()).upper();
                if (name.isEmpty() || map.contains(name)) continue;
                std::string key = name.to8Bit(true);
                for (const auto &value : tag->item(raw).toStringList()) {
                    std::string v = value.to8Bit(true);
                    callback(key.c_str(), v.c_str(), context);
                    ++count;
                }
            }
        }
    } catch (...) {
    }
    return count;
}

int ctl_picture_count(ctl_file *file) {
    if (!usable(file)) return 0;
    try {
        loadPictures(file);
        return static_cast<int>(file->pictures.size());
    } catch (...) {
        return 0;
    }
}

int ctl_picture_at(ctl_file *file, int index, ctl_picture *out) {
    if (!usable(file) || out == nullptr || index < 0) return 0;
    try {
        loadPictures(file);
        if (static_cast<size_t>(index) >= file->pictures.size()) return 0;
        const Picture &p = file->pictures[static_cast<size_t>(index)];
        out->mime = p.mime.c_str();
        out->description = p.description.c_str();
        out->type = p.type;
        out->data = reinterpret_cast<const uint8_t *>(p.data.data());
        out->size = static_cast<int64_t>(p.data.size());
        return 1;
    } catch (...) {
        return 0;
    }
}

} // extern "C"
