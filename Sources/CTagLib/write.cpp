// The writing half of the shim: properties, the front cover, save. Reads are in ctaglib.cpp.
#include "file.h"

#include <algorithm>
#include <iterator>

#include <taglib/aifffile.h>
#include <taglib/apefile.h>
#include <taglib/apeitem.h>
#include <taglib/apetag.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/commentsframe.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/mp4coverart.h>
#include <taglib/mp4file.h>
#include <taglib/mp4tag.h>
#include <taglib/mpcfile.h>
#include <taglib/mpegfile.h>
#include <taglib/oggfile.h>
#include <taglib/opusfile.h>
#include <taglib/vorbisfile.h>
#include <taglib/id3v1genres.h>
#include <taglib/id3v1tag.h>
#include <taglib/relativevolumeframe.h>
#include <taglib/textidentificationframe.h>
#include <taglib/uniquefileidentifierframe.h>
#include <taglib/unsynchronizedlyricsframe.h>
#include <taglib/urllinkframe.h>
#include <taglib/wavpackfile.h>
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

// MARK: Per-key writes on the native tag
//
// TagLib's File::setProperties(map) rewrites the whole tag from the map, and for APEv2 that is
// not a round trip: properties() reads both YEAR and DATE as DATE, both DISC and DISCNUMBER as
// DISCNUMBER, and setProperties writes them back merged under YEAR and DISC, re-spelling keys
// upper-case. So a key is set on the native tag instead, touching only the items or frames that
// read as that key and keeping their spelling; everything else stays byte for byte.

enum class Native { NotHandled, Accepted, Rejected };

/// APE items TagLib 1.13's APE::Tag::properties() reads under another property name.
const char *const kAPEKeyConversions[][2] = {
    {"TRACKNUMBER", "TRACK"}, {"DATE", "YEAR"}, {"ALBUMARTIST", "ALBUM ARTIST"},
    {"DISCNUMBER", "DISC"}, {"REMIXER", "MIXARTIST"}};

String apePropertyName(const String &itemKey) {
    String k = itemKey.upper();
    for (const auto &c : kAPEKeyConversions) {
        if (k == c[1]) return c[0];
    }
    return k;
}

String apeItemName(const String &property) {
    for (const auto &c : kAPEKeyConversions) {
        if (property == c[0]) return c[1];
    }
    return property;
}

/// Sets property `k` in an APEv2 tag: the first text item that reads as `k` keeps its key as
/// spelled and gets the values; other items that read as `k` go; without one, a new item.
Native setAPE(APE::Tag *tag, const String &k, const StringList &list) {
    StringList carriers; // the tag's (upper-case) map keys
    String spelled;
    const APE::ItemListMap &items = tag->itemListMap();
    for (auto it = items.begin(); it != items.end(); ++it) {
        if (it->second.type() != APE::Item::Text || apePropertyName(it->first) != k) continue;
        if (carriers.isEmpty()) spelled = it->second.key();
        carriers.append(it->first);
    }
    if (list.isEmpty() || !carriers.isEmpty()) {
        for (const auto &c : carriers) tag->removeItem(c);
        if (!list.isEmpty()) tag->setItem(spelled, APE::Item(spelled, list));
        return Native::Accepted;
    }
    String name = apeItemName(k);
    if (!APE::Tag::checkKey(name)) return Native::Rejected;
    tag->setItem(name, APE::Item(name, list));
    return Native::Accepted;
}

/// The properties one frame contributes (Frame::asProperties is protected in 1.13; the
/// subclasses' are public). Pictures, private and unknown frames contribute none.
PropertyMap propertiesOf(ID3v2::Frame *f) {
    using namespace ID3v2;
    if (auto *x = dynamic_cast<UserTextIdentificationFrame *>(f)) return x->asProperties();
    if (auto *x = dynamic_cast<TextIdentificationFrame *>(f)) return x->asProperties();
    if (auto *x = dynamic_cast<CommentsFrame *>(f)) return x->asProperties();
    if (auto *x = dynamic_cast<UniqueFileIdentifierFrame *>(f)) return x->asProperties();
    if (auto *x = dynamic_cast<UnsynchronizedLyricsFrame *>(f)) return x->asProperties();
    if (auto *x = dynamic_cast<UserUrlLinkFrame *>(f)) return x->asProperties();
    if (auto *x = dynamic_cast<UrlLinkFrame *>(f)) return x->asProperties();
    return PropertyMap();
}

/// What `frame` reads as in `tag`: TagLib's properties, but TIT1 is GROUPING where the tag
/// reads it so (tit1IsGrouping).
PropertyMap readsAs(ID3v2::Frame *frame, const ID3v2::Tag *tag) {
    if (frame->frameID() == "TIT1" && tit1IsGrouping(tag)) {
        if (auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame)) {
            PropertyMap p;
            p.insert("GROUPING", text->fieldList());
            return p;
        }
    }
    return propertiesOf(frame);
}

/// The frame a new value of `k` goes in: TIT1 for the grouping and TXXX:WORK for the work
/// where TIT1 reads as the grouping, else the frame TagLib's setProperties would have made.
ID3v2::Frame *newFrame(const ID3v2::Tag *tag, const String &k, const StringList &list) {
    if (tit1IsGrouping(tag) && (k == "GROUPING" || k == "WORK")) {
        if (k == "WORK") return new ID3v2::UserTextIdentificationFrame("WORK", list, String::UTF8);
        auto *frame = new ID3v2::TextIdentificationFrame("TIT1", String::UTF8);
        frame->setText(list);
        return frame;
    }
    return ID3v2::Frame::createTextualFrame(k, list);
}

/// Before the last GRP1 goes from a tag that reads TIT1 as the work: TIT1 becomes TXXX:WORK,
/// so the work does not turn into the grouping.
void keepTIT1AsWork(ID3v2::Tag *tag) {
    StringList work;
    ID3v2::FrameList doomed;
    for (auto *frame : tag->frameListMap()["TIT1"]) {
        if (auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame)) work.append(text->fieldList());
        doomed.append(frame);
    }
    if (doomed.isEmpty()) return;
    for (auto *frame : doomed) tag->removeFrame(frame, true);
    if (auto *txxx = ID3v2::UserTextIdentificationFrame::find(tag, "WORK")) {
        // A TXXX's fieldList() starts with its description; setText() puts it back.
        StringList own = txxx->fieldList();
        StringList merged = work;
        for (auto it = own.begin(); it != own.end(); ++it) {
            if (it != own.begin()) merged.append(*it);
        }
        txxx->setText(merged);
    } else {
        tag->addFrame(new ID3v2::UserTextIdentificationFrame("WORK", work, String::UTF8));
    }
}

/// Sets property `k` in an ID3v2 tag: the first frame that reads as `k` keeps its kind,
/// encoding and (TXXX) description and gets the values; other frames that read as `k` go;
/// without one, the frame TagLib's setProperties would have made. Performers go back where the
/// tag keeps them (setPerformerCredits). Frames that carry several keys at once (TIPL, TMCL)
/// are otherwise left to setProperties.
Native setID3v2(ID3v2::Tag *tag, const String &k, const StringList &list) {
    ID3v2::FrameList carriers;
    // A gain read from RVA2 (readRVA2Gains) goes when the gain is cleared; a new gain goes into
    // TXXX, which is read first.
    if (list.isEmpty() && (k == "REPLAYGAIN_TRACK_GAIN" || k == "REPLAYGAIN_ALBUM_GAIN")) {
        for (auto *frame : ID3v2::FrameList(tag->frameListMap()["RVA2"])) {
            auto *rva2 = dynamic_cast<ID3v2::RelativeVolumeFrame *>(frame);
            const bool album = rva2 != nullptr && rva2->identification().upper() == "ALBUM";
            if (rva2 != nullptr && album == (k == "REPLAYGAIN_ALBUM_GAIN")) tag->removeFrame(frame, true);
        }
    }
    if (k == "GROUPING" && list.isEmpty() && !tit1IsGrouping(tag)) keepTIT1AsWork(tag);
    if (k == "PERFORMER" && hasPerformerCredits(tag)) {
        setPerformerCredits(tag, list);
        return Native::Accepted;
    }
    for (auto *frame : tag->frameList()) {
        PropertyMap p = readsAs(frame, tag);
        if (!p.contains(k)) continue;
        if (p.size() != 1 || frame->frameID() == "TIPL" || frame->frameID() == "TMCL") {
            return Native::NotHandled;
        }
        carriers.append(frame);
    }
    // Comments in several COMM frames (one per language, as iTunes and others write them):
    // the values go back frame by frame, each keeping its language, so a second comment the
    // library never read stays where it was.
    bool allComments = !carriers.isEmpty();
    for (auto *frame : carriers) allComments = allComments && dynamic_cast<ID3v2::CommentsFrame *>(frame) != nullptr;
    if (allComments && !list.isEmpty()) {
        auto value = list.begin();
        for (auto *frame : carriers) {
            if (value == list.end()) tag->removeFrame(frame, true);
            else static_cast<ID3v2::CommentsFrame *>(frame)->setText(*value++);
        }
        auto *first = static_cast<ID3v2::CommentsFrame *>(carriers.front());
        for (; value != list.end(); ++value) {
            auto *comm = new ID3v2::CommentsFrame(String::UTF8);
            comm->setLanguage(first->language());
            comm->setDescription(first->description());
            comm->setText(*value);
            tag->addFrame(comm);
        }
        return Native::Accepted;
    }
    bool kept = false;
    if (!list.isEmpty() && !carriers.isEmpty()) {
        ID3v2::Frame *first = carriers.front();
        if (auto *txxx = dynamic_cast<ID3v2::UserTextIdentificationFrame *>(first)) {
            txxx->setText(list);
            kept = true;
        } else if (auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(first)) {
            text->setText(list);
            kept = true;
        } else if (auto *comm = dynamic_cast<ID3v2::CommentsFrame *>(first); comm && list.size() == 1) {
            comm->setText(list.front());
            kept = true;
        } else if (auto *ufid = dynamic_cast<ID3v2::UniqueFileIdentifierFrame *>(first);
                   ufid && list.size() == 1) {
            ufid->setIdentifier(list.front().data(String::UTF8));
            kept = true;
        }
    }
    for (auto it = carriers.begin(); it != carriers.end(); ++it) {
        if (kept && it == carriers.begin()) continue;
        tag->removeFrame(*it, true);
    }
    if (list.isEmpty() || kept) return Native::Accepted;
    ID3v2::Frame *frame = newFrame(tag, k, list);
    if (frame == nullptr) return Native::Rejected;
    tag->addFrame(frame);
    return Native::Accepted;
}

/// Sets `k` in a tag of the seven basic fields (ID3v1, RIFF INFO) that sits beside the tag the
/// file reads from, so that it says the same; a key it has no field for leaves it alone. One
/// field at a time: setting the whole tag from the property map cleared what the other tag
/// lacks (an ID3v1 track number under an ID3v2 tag without TRCK) and copied in what it has.
void setBasic(Tag *tag, const String &k, const StringList &list) {
    if (tag == nullptr) return;
    const String first = list.isEmpty() ? String() : list.front();
    if (k == "TITLE") tag->setTitle(first);
    else if (k == "ARTIST") tag->setArtist(list.toString(" / "));
    else if (k == "ALBUM") tag->setAlbum(first);
    else if (k == "COMMENT") tag->setComment(first);
    else if (k == "GENRE") tag->setGenre(first);
    else if (k == "DATE") tag->setYear(first.size() >= 4 ? static_cast<unsigned int>(first.substr(0, 4).toInt()) : 0);
    else if (k == "TRACKNUMBER") tag->setTrack(first.isEmpty() ? 0 : static_cast<unsigned int>(first.toInt()));
}

/// Whether a basic tag (ID3v1, RIFF INFO) holds `list` under `k` so that it reads back the
/// same: one value (or none), a year alone as a date, a plain track number.
bool fitsBasic(const String &k, const StringList &list) {
    static const char *const keys[] = {"TITLE", "ARTIST", "ALBUM", "COMMENT", "GENRE", "DATE", "TRACKNUMBER"};
    if (std::none_of(std::begin(keys), std::end(keys), [&](const char *key) { return k == key; })) return false;
    if (list.isEmpty()) return true;
    if (list.size() != 1) return false;
    const String &v = list.front();
    auto digits = [&] { return !v.isEmpty() && std::all_of(v.begin(), v.end(), [](wchar_t c) { return c >= L'0' && c <= L'9'; }); };
    if (k == "DATE") return v.size() == 4 && digits();
    if (k == "TRACKNUMBER") return digits() && v.toInt() > 0;
    return true;
}

/// Whether `tag` holds any of the fields every tag format has (title, artist, album, comment,
/// genre, year, track): ID3v2's `isEmpty` counts any frame.
bool hasBasicField(const Tag *tag) {
    return tag != nullptr && (!tag->title().isEmpty() || !tag->artist().isEmpty() || !tag->album().isEmpty() ||
                              !tag->comment().isEmpty() || !tag->genre().isEmpty() || tag->year() != 0 || tag->track() != 0);
}

/// Whether an ID3v1 tag holds `list` under `k` so that it reads back the same: `fitsBasic`,
/// in Latin-1, within the tag's 30 bytes (28 for a comment beside a track number), and a genre
/// of ID3v1's list.
bool fitsID3v1(const String &k, const StringList &list) {
    if (!fitsBasic(k, list)) return false;
    if (list.isEmpty()) return true;
    const String &v = list.front();
    if (!std::all_of(v.begin(), v.end(), [](wchar_t c) { return c > 0 && c < 0x100; })) return false;
    if (k == "GENRE") return ID3v1::genreIndex(v) < 192;
    return v.size() <= (k == "COMMENT" ? 28u : 30u);
}

/// Sets `k` on the file's native tag when the format has a per-key path, and in the ID3v1, APE
/// or RIFF INFO tag beside it.
Native setNative(File *file, const String &k, const StringList &list) {
    if (auto *x = dynamic_cast<MPEG::File *>(file)) {
        ID3v2::Tag *v2 = x->ID3v2Tag(false);
        ID3v1::Tag *onlyV1 = x->ID3v1Tag(false);
        APE::Tag *ape = x->APETag(false);
        if ((v2 == nullptr || v2->isEmpty()) && (ape == nullptr || ape->isEmpty()) && onlyV1 != nullptr && !onlyV1->isEmpty()) {
            // An MP3 tagged in ID3v1 alone (an old rip) stays so where ID3v1 holds the value as
            // the library reads it; anything else goes into an ID3v2 tag of its own, and
            // reading fills the rest in from ID3v1 (readOtherTags).
            if (fitsID3v1(k, list)) {
                setBasic(onlyV1, k, list);
                return Native::Accepted;
            }
            Native r = setID3v2(x->ID3v2Tag(true), k, list);
            if (r != Native::Rejected) setBasic(onlyV1, k, list);
            return r;
        }
        APE::Tag *onlyAPE = x->APETag(false);
        if (ID3v2::Tag *had = x->ID3v2Tag(false); (had == nullptr || had->isEmpty()) && onlyAPE != nullptr && !onlyAPE->isEmpty()) {
            // An MP3 tagged in APE alone (foobar2000, mp3gain) stays so: the edit goes where
            // its readers (MPD reads APE first) look, not into a new ID3v2 tag beside a stale one.
            Native r = setAPE(onlyAPE, k, list);
            if (r != Native::NotHandled) setBasic(x->ID3v1Tag(false), k, list);
            return r;
        }
        ID3v2::Tag *id3 = x->ID3v2Tag(true);
        if (!readsFrom(id3, {x->APETag(false), x->ID3v1Tag(false)})) return Native::NotHandled;
        Native r = setID3v2(id3, k, list);
        if (r != Native::NotHandled) {
            setBasic(x->ID3v1Tag(false), k, list);
            // An APE tag beside the ID3v2 one (foobar2000 and some players read it first).
            if (APE::Tag *ape = x->APETag(false); ape != nullptr && !ape->isEmpty()) setAPE(ape, k, list);
        }
        return r;
    }
    if (auto *x = dynamic_cast<RIFF::WAV::File *>(file)) {
        // INFO is the file's tag while the ID3 chunk holds none of the fields INFO can: an
        // ID3 chunk added for a composer alone (by Boomic, for what INFO cannot hold) does not
        // make a title edit go into it too, where it would outlive the composer's undo.
        const bool infoHome = x->hasInfoTag() && x->InfoTag() != nullptr && !x->InfoTag()->isEmpty() &&
                              !hasBasicField(x->ID3v2Tag());
        if (infoHome || !readsFrom(x->ID3v2Tag(), {x->InfoTag()})) {
            // A WAV tagged in RIFF INFO alone (ffmpeg, Windows, most DAWs) keeps to it where
            // INFO holds the value as the library reads it. Anything else goes into an ID3
            // chunk beside it, alone: reading fills the rest in from INFO (readOtherTags).
            if (x->InfoTag() == nullptr || x->InfoTag()->isEmpty()) return Native::NotHandled;
            // INFO gets what it can hold of the rest too (two artists as "A / B"), so that a
            // reader of INFO alone (MPD, ffprobe) sees no stale value.
            Native r = fitsBasic(k, list) ? Native::Accepted : setID3v2(x->ID3v2Tag(), k, list);
            if (r != Native::Rejected) setBasic(x->InfoTag(), k, list);
            return r;
        }
        Native r = setID3v2(x->ID3v2Tag(), k, list);
        if (r != Native::NotHandled) setBasic(x->InfoTag(), k, list);
        return r;
    }
    if (auto *x = dynamic_cast<RIFF::AIFF::File *>(file)) {
        return x->tag() != nullptr ? setID3v2(x->tag(), k, list) : Native::NotHandled;
    }
    auto ape = [&](APE::Tag *tag, ID3v1::Tag *v1) {
        if (tag == nullptr || !readsFrom(tag, {v1})) return Native::NotHandled;
        Native r = setAPE(tag, k, list);
        if (r != Native::NotHandled) setBasic(v1, k, list);
        return r;
    };
    // A file without an APE tag gets one (as setProperties would do) unless an ID3v1 tag is
    // what it reads from; then the whole map goes into the new APE tag.
    auto apeOf = [](auto *x) { return x->APETag(!x->hasID3v1Tag()); };
    if (auto *x = dynamic_cast<WavPack::File *>(file)) return ape(apeOf(x), x->ID3v1Tag(false));
    if (auto *x = dynamic_cast<APE::File *>(file)) return ape(apeOf(x), x->ID3v1Tag(false));
    if (auto *x = dynamic_cast<MPC::File *>(file)) return ape(apeOf(x), x->ID3v1Tag(false));
    return Native::NotHandled;
}

} // namespace

/// The version a WAV's or an AIFF's ID3 chunk is written in: v2.3 if it was (or v2.2, which
/// TagLib cannot write), so a reader of v2.3 alone still reads it; else v2.4.
static ID3v2::Version keptVersion(ID3v2::Tag *tag) {
    return tag != nullptr && tag->header()->majorVersion() <= 3 ? ID3v2::v3 : ID3v2::v4;
}

/// After a save that returned `ok`: FileStream writes through a buffered FILE*, so the bytes
/// reach the file only when it is closed. Close and reopen, so the file on disk is complete now
/// (another reader or writer may come next) and the handle reflects exactly what was written.
static int saved(ctl_file *file, bool ok, char *error, size_t error_size) {
    if (!ok) {
        setError(error, error_size, "TagLib could not write the file");
        return 0;
    }
    return reopen(file, error, error_size) ? 1 : 0;
}

extern "C" {

int ctl_property_set(ctl_file *file, const char *key, const char *const *values, int n) {
    if (!usable(file) || key == nullptr || n < 0 || (n > 0 && values == nullptr)) return 0;
    try {
        trackID3v2(file);
        String k = String(key, String::UTF8).upper();
        if (k.isEmpty()) return 0;
        StringList list;
        for (int i = 0; i < n; ++i) {
            if (values[i] != nullptr) list.append(String(values[i], String::UTF8));
        }
        switch (setNative(file->file, k, list)) {
        case Native::Accepted: return 1;
        case Native::Rejected: return 0;
        case Native::NotHandled: break;
        }
        // Vorbis comments (setProperties only touches keys whose values differ), MP4 and the
        // rest: read, change one key, write all.
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
        trackID3v2(file);
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
            // TagLib cannot write v2.2; v2.3 is what the players of v2.2's day read.
            ID3v2::Version version = ID3v2::v4;
            if (mpeg->hasID3v2Tag() && mpeg->ID3v2Tag()->header()->majorVersion() <= 3) version = ID3v2::v3;
            // The frames the write did not change stay as the file has them (spliceID3v2);
            // TagLib renders the whole tag only where that cannot be done.
            ok = (!file->renderWhole && spliceID3v2(file, tags & ~MPEG::File::ID3v2)) ||
                 mpeg->save(tags, File::StripNone, version, File::DoNotDuplicate);
        } else if (auto *wav = dynamic_cast<RIFF::WAV::File *>(file->file)) {
            // Same trap: WAV keeps empty ID3v2 and INFO tags in memory; add INFO only if present.
            RIFF::WAV::File::TagTypes tags = wav->hasInfoTag() ? RIFF::WAV::File::AllTags
                                                               : RIFF::WAV::File::ID3v2;
            // The chunks stay where they are, their untouched frames as they were (spliceRIFF).
            ok = (!file->renderWhole && spliceRIFF(file)) ||
                 wav->save(tags, File::StripNone, keptVersion(wav->hasID3v2Tag() ? wav->ID3v2Tag() : nullptr));
        } else if (auto *aiff = dynamic_cast<RIFF::AIFF::File *>(file->file)) {
            ok = (!file->renderWhole && spliceRIFF(file)) ||
                 aiff->save(keptVersion(aiff->hasID3v2Tag() ? aiff->tag() : nullptr));
        } else {
            ok = file->file->save();
        }
        return saved(file, ok, error, error_size);
    } catch (...) {
        setError(error, error_size, "TagLib failed while writing the file");
        return 0;
    }
}

int ctl_flac_reads_comments(ctl_file *file) {
    if (!usable(file)) return 0;
    auto *flac = dynamic_cast<FLAC::File *>(file->file);
    if (flac == nullptr) return 0;
    // FLAC::File's TagUnion takes the first tag that is not empty, comments first.
    if (flac->hasXiphComment() && !flac->xiphComment()->isEmpty()) return 1;
    return !flac->hasID3v2Tag() && !flac->hasID3v1Tag() ? 1 : 0;
}

void ctl_render_whole(ctl_file *file) {
    if (file != nullptr) file->renderWhole = true;
}

/// The Ogg file whose second packet holds its comments (Vorbis, Opus); nullptr otherwise.
static Ogg::File *oggWithCommentPacket(File *file) {
    if (auto *x = dynamic_cast<Ogg::Vorbis::File *>(file)) return x;
    if (auto *x = dynamic_cast<Ogg::Opus::File *>(file)) return x;
    return nullptr;
}

int ctl_ogg_comment_packet(ctl_file *file, void (*body)(const uint8_t *, int64_t, void *), void *context) {
    if (!usable(file) || body == nullptr) return 0;
    try {
        Ogg::File *ogg = oggWithCommentPacket(file->file);
        if (ogg == nullptr) return 0;
        ByteVector packet = ogg->packet(1);
        if (packet.isEmpty()) return 0;
        body(reinterpret_cast<const uint8_t *>(packet.data()), packet.size(), context);
        return 1;
    } catch (...) {
        return 0;
    }
}

int ctl_ogg_save_comment_packet(ctl_file *file, const uint8_t *data, int64_t size, char *error, size_t error_size) {
    if (!usable(file) || data == nullptr || size <= 0 || size > 0x7FFFFFFF) {
        setError(error, error_size, "no comment packet to write");
        return 0;
    }
    try {
        Ogg::File *ogg = oggWithCommentPacket(file->file);
        if (ogg == nullptr || file->stream->readOnly()) {
            setError(error, error_size, "not an Ogg Vorbis or Opus file open for writing");
            return 0;
        }
        file->picturesLoaded = false;
        ogg->setPacket(1, ByteVector(reinterpret_cast<const char *>(data), static_cast<unsigned int>(size)));
        // Ogg::File's own save writes the packets set; Vorbis::File::save and Opus::File::save
        // would first replace this one with their rendering of the comments.
        return saved(file, ogg->Ogg::File::save(), error, error_size);
    } catch (...) {
        setError(error, error_size, "TagLib failed while writing the file");
        return 0;
    }
}

} // extern "C"
