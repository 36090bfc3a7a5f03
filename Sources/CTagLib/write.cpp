// The writing half of the shim: properties, the front cover, save. Reads are in ctaglib.cpp.
#include "file.h"

#include <taglib/attachedpictureframe.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/mp4coverart.h>
#include <taglib/mp4file.h>
#include <taglib/mp4tag.h>
#include <taglib/mpegfile.h>
#include <taglib/tfilestream.h>
#include <taglib/tpropertymap.h>
#include <taglib/wavfile.h>

using namespace TagLib;
using namespace ctaglib;

namespace {

/// MP4 keys TagLib 1.13 has no PropertyMap name for (REPLAYGAIN_* among them) become
/// iTunes freeform atoms; ReplayGain is lower-cased as foobar2000, beets and mutagen write it.
String mp4FreeformKey(const String &key) {
    if (!key.upper().startsWith("REPLAYGAIN_")) return String(kITunesFreeform) + key;
    std::string lower = key.to8Bit(true); // TagLib 1.13's String has upper() but no lower()
    for (char &c : lower) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return String(kITunesFreeform) + String(lower, String::UTF8);
}

/// Removes every freeform atom whose name matches `key` case-insensitively.
void mp4RemoveFreeform(MP4::Tag *tag, const String &key) {
    String wanted = (String(kITunesFreeform) + key).upper();
    StringList doomed;
    const MP4::ItemMap &items = tag->itemMap();
    for (auto it = items.begin(); it != items.end(); ++it) {
        if (it->first.upper() == wanted) doomed.append(it->first);
    }
    for (const auto &k : doomed) tag->removeItem(k);
}

} // namespace

extern "C" {

int ctl_property_set(ctl_file *file, const char *key, const char *const *values, int n) {
    if (!usable(file) || key == nullptr || n < 0 || (n > 0 && values == nullptr)) return 0;
    try {
        String k = String(key, String::UTF8).upper();
        if (k.isEmpty()) return 0;
        StringList list;
        for (int i = 0; i < n; ++i) {
            if (values[i] != nullptr) list.append(String(values[i], String::UTF8));
        }
        // PropertyMap has no per-key setter on File, so read, change one key, write all.
        PropertyMap map = file->file->properties();
        if (list.isEmpty()) map.erase(k); else map.replace(k, list);
        PropertyMap rejected = file->file->setProperties(map);
        if (auto *mp4 = dynamic_cast<MP4::File *>(file->file)) {
            MP4::Tag *tag = mp4->tag();
            if (tag != nullptr && (rejected.contains(k) || list.isEmpty())) {
                mp4RemoveFreeform(tag, k);
                if (!list.isEmpty()) tag->setItem(mp4FreeformKey(k), MP4::Item(list));
                return 1;
            }
        }
        return rejected.contains(k) ? 0 : 1;
    } catch (...) {
        return 0;
    }
}

int ctl_set_front_cover(ctl_file *file, const char *mime, const uint8_t *data, int64_t size,
                        const char *description) {
    if (!usable(file) || size < 0 || (size > 0 && data == nullptr)) return 0;
    try {
        file->picturesLoaded = false; // pointers handed out earlier are now stale
        ByteVector bytes(reinterpret_cast<const char *>(data), static_cast<unsigned int>(size));
        String mimeType(mime != nullptr ? mime : "", String::UTF8);
        String desc(description != nullptr ? description : "", String::UTF8);
        auto makeFLACPicture = [&] {
            auto *p = new FLAC::Picture();
            p->setType(FLAC::Picture::FrontCover);
            p->setMimeType(mimeType);
            p->setDescription(desc);
            p->setData(bytes);
            return p;
        };
        if (auto *x = dynamic_cast<FLAC::File *>(file->file)) {
            for (auto *p : x->pictureList()) {
                if (p->type() == FLAC::Picture::FrontCover) x->removePicture(p, true);
            }
            if (size > 0) x->addPicture(makeFLACPicture());
            return 1;
        }
        if (auto *xiph = xiphCommentOf(file->file)) {
            for (auto *p : xiph->pictureList()) {
                if (p->type() == FLAC::Picture::FrontCover) xiph->removePicture(p, true);
            }
            if (size > 0) xiph->addPicture(makeFLACPicture());
            return 1;
        }
        if (auto *id3 = id3v2TagOf(file, true)) {
            ID3v2::FrameList doomed;
            for (auto *frame : id3->frameListMap()["APIC"]) {
                auto *apic = dynamic_cast<ID3v2::AttachedPictureFrame *>(frame);
                if (apic != nullptr && apic->type() == ID3v2::AttachedPictureFrame::FrontCover) {
                    doomed.append(frame);
                }
            }
            for (auto *frame : doomed) id3->removeFrame(frame, true);
            if (size > 0) {
                auto *apic = new ID3v2::AttachedPictureFrame();
                apic->setType(ID3v2::AttachedPictureFrame::FrontCover);
                apic->setMimeType(mimeType);
                apic->setDescription(desc);
                apic->setPicture(bytes);
                id3->addFrame(apic);
            }
            return 1;
        }
        if (auto *x = dynamic_cast<MP4::File *>(file->file)) {
            MP4::Tag *tag = x->tag();
            if (tag == nullptr) return 0;
            // MP4 has no picture types; by convention the first covr entry is the front.
            MP4::CoverArtList list;
            if (size > 0) {
                MP4::CoverArt::Format format = MP4::CoverArt::Unknown;
                if (mimeType == "image/jpeg") format = MP4::CoverArt::JPEG;
                else if (mimeType == "image/png") format = MP4::CoverArt::PNG;
                else if (mimeType == "image/gif") format = MP4::CoverArt::GIF;
                else if (mimeType == "image/bmp") format = MP4::CoverArt::BMP;
                list.append(MP4::CoverArt(format, bytes));
            }
            if (tag->contains("covr")) {
                MP4::CoverArtList old = tag->item("covr").toCoverArtList();
                for (auto it = old.begin(); it != old.end(); ++it) {
                    if (it != old.begin()) list.append(*it);
                }
            }
            if (list.isEmpty()) tag->removeItem("covr"); else tag->setItem("covr", MP4::Item(list));
            return 1;
        }
        return 0;
    } catch (...) {
        return 0;
    }
}

int ctl_save(ctl_file *file, char *error, size_t error_size) {
    if (!usable(file)) {
        setError(error, error_size, "the file is no longer open");
        return 0;
    }
    try {
        if (file->stream->readOnly()) {
            setError(error, error_size, "the file was opened read-only");
            return 0;
        }
        file->picturesLoaded = false;
        bool ok;
        if (auto *mpeg = dynamic_cast<MPEG::File *>(file->file)) {
            // FileRef::save() on MPEG writes every tag type, and MPEG::File::read() always
            // creates empty in-memory ID3v1 and APE tags, so a plain save adds a "TAG" trailer.
            // Write ID3v2 and only the other tags the file already had (PLATFORM.md §2).
            int tags = MPEG::File::ID3v2;
            if (mpeg->hasID3v1Tag()) tags |= MPEG::File::ID3v1;
            if (mpeg->hasAPETag()) tags |= MPEG::File::APE;
            // Keep the file's ID3v2 version: players that read only v2.3 (Windows Explorer,
            // older car stereos) must still read a v2.3 file after Boomic writes it.
            ID3v2::Version version = ID3v2::v4;
            if (mpeg->hasID3v2Tag() && mpeg->ID3v2Tag()->header()->majorVersion() == 3) version = ID3v2::v3;
            ok = mpeg->save(tags, File::StripNone, version, File::DoNotDuplicate);
        } else if (auto *wav = dynamic_cast<RIFF::WAV::File *>(file->file)) {
            // Same trap: WAV keeps empty ID3v2 and INFO tags in memory; add INFO only if present.
            RIFF::WAV::File::TagTypes tags = wav->hasInfoTag() ? RIFF::WAV::File::AllTags
                                                               : RIFF::WAV::File::ID3v2;
            ok = wav->save(tags, File::StripNone, ID3v2::v4);
        } else {
            ok = file->file->save();
        }
        if (!ok) {
            setError(error, error_size, "TagLib could not write the file");
            return 0;
        }
        // FileStream writes through a buffered FILE*: the bytes reach the file only when it is
        // closed. Close and reopen, so the file on disk is complete now (another reader or
        // writer may come next) and this handle reflects exactly what was written.
        return reopen(file, error, error_size) ? 1 : 0;
    } catch (...) {
        setError(error, error_size, "TagLib failed while writing the file");
        return 0;
    }
}

} // extern "C"
