// Writing an MP3's ID3v2 tag frame by frame, keeping the frames a write did not change as
// the file has them (file.h, spliceID3v2).
#include "file.h"

#include <taglib/id3v1genres.h>
#include <taglib/id3v2frame.h>
#include <taglib/id3v2header.h>
#include <taglib/mpegfile.h>
#include <taglib/textidentificationframe.h>

#include <algorithm>
#include <set>

using namespace TagLib;

namespace {

/// A frame's header, which TagLib 1.13 keeps protected: its version decides how the frame
/// renders (Tag::render sets it too). A pointer to the member, taken in a subclass, is the
/// legal way to reach it from outside.
struct FrameHeaderAccess : ID3v2::Frame {
    static ID3v2::Frame::Header *of(ID3v2::Frame *frame) {
        static constexpr ID3v2::Frame::Header *(ID3v2::Frame::*get)() const = &FrameHeaderAccess::header;
        return (frame->*get)();
    }
};

/// One frame as it lies in the tag: its ID and where its bytes (header included) are.
struct RawFrame {
    ByteVector id;
    unsigned int offset;
    unsigned int size;
};

unsigned int syncsafe(const ByteVector &v, unsigned int at) {
    return (static_cast<unsigned int>(v[at] & 0x7F) << 21) | (static_cast<unsigned int>(v[at + 1] & 0x7F) << 14) |
           (static_cast<unsigned int>(v[at + 2] & 0x7F) << 7) | static_cast<unsigned int>(v[at + 3] & 0x7F);
}

ByteVector syncsafeBytes(unsigned int n) {
    ByteVector v(4, 0);
    for (int i = 3; i >= 0; --i) {
        v[i] = static_cast<char>(n & 0x7F);
        n >>= 7;
    }
    return v;
}

/// The frames of a whole tag (`data`, header included), walked as TagLib's Tag::parse walks
/// them: up to the padding (a zero byte) or the end.
std::vector<RawFrame> rawFrames(const ByteVector &data, int version) {
    std::vector<RawFrame> out;
    const unsigned int end = data.size();
    unsigned int at = 10;
    while (at + 10 < end && data[at] != 0) {
        unsigned int size = version == 4 ? syncsafe(data, at + 4) : data.toUInt(at + 4, true);
        if (size == 0 || size > end - at - 10) break;
        out.push_back({data.mid(at, 4), at, size + 10});
        at += size + 10;
    }
    return out;
}

/// TagLib's name for a frame it read with ID `raw` from a tag of `version`.
ByteVector converted(const ByteVector &raw, int version) {
    if (version == 3) {
        if (raw == "TYER") return "TDRC";
        if (raw == "TORY") return "TDOR";
        if (raw == "IPLS") return "TIPL";
    }
    return raw;
}

/// Frames TagLib 1.13 drops from a v2.3 tag it renders (ID3v2.4's, but the sort names iTunes
/// writes in v2.3 too). A changed or new one is left to TagLib's save, which drops it as before.
bool v23Lacks(const ByteVector &id) {
    static const char *const ids[] = {"ASPI", "EQU2", "RVA2", "SEEK", "SIGN", "TDRL", "TDTG", "TMOO", "TPRO", "TSST"};
    for (const char *x : ids) {
        if (id == x) return true;
    }
    return false;
}

/// A changed or new frame rendered for a tag of `version`, as TagLib's save renders it there
/// (Tag::downgradeFrames): in a v2.3 tag TDRC becomes TYER (with TDAT and TIME for a full
/// date and time), TDOR becomes TORY, several genres become ID3v1 references and the first
/// other one, and the people list TIPL becomes IPLS. Empty when it renders as nothing; false
/// when this leaves it to TagLib (frames v2.3 lacks, a TMCL in a v2.3 tag).
bool renderFor(ID3v2::Frame *frame, int version, ByteVector &out) {
    out.clear();
    const ByteVector id = frame->frameID();
    if (version == 3 && (id == "TDRC" || id == "TDOR")) {
        auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame);
        if (text == nullptr) return false;
        const String content = text->toString();
        auto add = [&](const char *name, const String &value) {
            ID3v2::TextIdentificationFrame f(name, String::Latin1);
            f.setText(value);
            FrameHeaderAccess::of(&f)->setVersion(3);
            out.append(f.render());
        };
        if (content.size() < 4) return true;
        if (id == "TDOR") {
            add("TORY", content.substr(0, 4));
            return true;
        }
        add("TYER", content.substr(0, 4));
        if (content.size() >= 10 && content[4] == '-' && content[7] == '-') {
            add("TDAT", content.substr(8, 2) + content.substr(5, 2));
            if (content.size() >= 16 && content[10] == 'T' && content[13] == ':') {
                add("TIME", content.substr(11, 2) + content.substr(14, 2));
            }
        }
        return true;
    }
    if (version == 3 && (id == "TCON" || id == "TIPL")) {
        auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame);
        if (text == nullptr) return false;
        const StringList fields = text->fieldList();
        StringList value;
        if (id == "TIPL") {
            for (unsigned int i = 0; i + 1 < fields.size(); i += 2) {
                value.append(fields[i]);
                value.append(fields[i + 1]);
            }
        } else {
            String combined, genreText;
            for (const auto &genre : fields) {
                bool ok = false;
                int number = genre.toInt(&ok);
                if ((ok && number >= 0 && number <= 255) || genre == "RX" || genre == "CR") {
                    combined += '(' + genre + ')';
                } else if (fields.size() > 1 && (number = ID3v1::genreIndex(genre)) != 255) {
                    combined += '(' + String::number(number) + ')';
                } else if (genreText.isEmpty()) {
                    genreText = genre;
                }
            }
            value.append(combined + genreText);
        }
        ID3v2::TextIdentificationFrame f(id == "TIPL" ? "IPLS" : "TCON", String::Latin1);
        f.setText(value);
        FrameHeaderAccess::of(&f)->setVersion(3);
        out = f.render();
        return true;
    }
    if (version == 3 && (id == "TMCL" || v23Lacks(id))) return false;
    FrameHeaderAccess::of(frame)->setVersion(static_cast<unsigned int>(version));
    ByteVector bytes = frame->render();
    if (bytes.size() > 10) out = bytes;
    return true;
}

} // namespace

namespace ctaglib {

void trackID3v2(ctl_file *f) {
    if (f->id3Tracked || !usable(f) || f->stream->readOnly()) return;
    f->id3Tracked = true;
    auto *mpeg = dynamic_cast<MPEG::File *>(f->file);
    if (mpeg == nullptr || !mpeg->hasID3v2Tag()) return;
    // Sizes first: Frame::render() sets the size to the rendering's.
    for (auto *frame : mpeg->ID3v2Tag()->frameList()) f->id3Before.push_back({frame, frame->frameID(), frame->size(), ByteVector()});
    for (auto &tracked : f->id3Before) tracked.rendering = tracked.frame->render();
}

bool spliceID3v2(ctl_file *f, int otherTags) {
    auto *mpeg = dynamic_cast<MPEG::File *>(f->file);
    if (mpeg == nullptr || !f->id3Tracked || f->id3Before.empty() || !mpeg->hasID3v2Tag()) return false;
    ID3v2::Tag *tag = mpeg->ID3v2Tag();
    const ID3v2::Header *header = tag->header();
    const int version = static_cast<int>(header->majorVersion());
    if ((version != 3 && version != 4) || header->unsynchronisation() || header->extendedHeader() ||
        header->footerPresent()) {
        return false;
    }
    // The tag as the file has it, at its start.
    mpeg->seek(0);
    ByteVector head = mpeg->readBlock(10);
    if (head.size() != 10 || !head.startsWith("ID3")) return false;
    const unsigned int total = 10 + syncsafe(head, 6);
    mpeg->seek(0);
    ByteVector data = mpeg->readBlock(total + 3);
    // A second tag right after the first (some taggers stacked them): TagLib reads it as the
    // first's padding and its save replaces both; left to it.
    if (data.size() < total || data.mid(total, 3) == "ID3") return false;
    data.resize(total);

    // TagLib read one frame for each frame of the file, in order: check that this walk sees the
    // same ones (IDs, as TagLib renames a few of v2.3's, and sizes).
    std::vector<RawFrame> raw = rawFrames(data, version);
    if (raw.size() != f->id3Before.size()) return false;
    for (size_t i = 0; i < raw.size(); ++i) {
        const auto &tracked = f->id3Before[i];
        if (converted(raw[i].id, version) != tracked.id || tracked.size + 10 != raw[i].size) return false;
    }

    const ID3v2::FrameList now = tag->frameList();
    std::set<ID3v2::Frame *> present(now.begin(), now.end()), before;
    std::vector<bool> changed(raw.size());
    bool dateChanged = false;
    for (size_t i = 0; i < raw.size(); ++i) {
        ID3v2::Frame *frame = f->id3Before[i].frame;
        before.insert(frame);
        changed[i] = present.count(frame) == 0 || frame->render() != f->id3Before[i].rendering;
        if (changed[i] && f->id3Before[i].id == "TDRC") dateChanged = true;
    }
    for (auto *frame : now) {
        if (before.count(frame) == 0 && frame->frameID() == "TDRC") dateChanged = true;
    }

    ByteVector frames;
    ByteVector rendered;
    for (size_t i = 0; i < raw.size(); ++i) {
        ID3v2::Frame *frame = f->id3Before[i].frame;
        if (!changed[i]) {
            // A v2.3 date's day and time go with its year, changed or new.
            if (dateChanged && version == 3 && (raw[i].id == "TDAT" || raw[i].id == "TIME" || raw[i].id == "TRDA")) continue;
            frames.append(data.mid(raw[i].offset, raw[i].size));
        } else if (present.count(frame) != 0) {
            if (!renderFor(frame, version, rendered)) return false;
            frames.append(rendered);
        }
    }
    for (auto *frame : now) {
        if (before.count(frame) != 0) continue;
        if (!renderFor(frame, version, rendered)) return false;
        frames.append(rendered);
    }

    // Within the tag's room, padded to its size; else with room for the next edits.
    const unsigned int room = total - 10;
    const unsigned int size = frames.size() <= room ? room : frames.size() + 2048;
    if (size > 0x0FFFFFFF) return false;
    ByteVector tagBytes = data.mid(0, 5);
    tagBytes.append(static_cast<char>(header->experimentalIndicator() ? 0x20 : 0));
    tagBytes.append(syncsafeBytes(size));
    tagBytes.append(frames);
    tagBytes.append(ByteVector(size - frames.size(), 0));

    // The tags at the end first (their places are known from the file as TagLib opened it),
    // then the tag at the start.
    if (otherTags != 0 && !mpeg->save(otherTags, File::StripNone, ID3v2::v4, File::DoNotDuplicate)) return false;
    mpeg->insert(tagBytes, 0, total);
    return true;
}

} // namespace ctaglib
