// Writing an ID3v2 tag frame by frame, keeping the frames a write did not change as the file
// has them: an MP3's at its start (file.h, spliceID3v2), a WAV's or an AIFF's in its chunk,
// where the chunks stay in their places (spliceRIFF).
#include "file.h"

#include <taglib/id3v1genres.h>
#include <taglib/id3v2frame.h>
#include <taglib/id3v2header.h>
#include <taglib/aifffile.h>
#include <taglib/infotag.h>
#include <taglib/mpegfile.h>
#include <taglib/textidentificationframe.h>
#include <taglib/wavfile.h>

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

/// The tag `data` (as the file has it, header included) with the frames changed since
/// `trackID3v2` rendered and the others as they are, in `out`: as big as the tag was when that
/// holds them, else with 2 KiB of room for the next edits. False when the tag is not one this
/// can splice, or TagLib read its frames otherwise than this walk does.
bool splicedTag(ctl_file *f, ID3v2::Tag *tag, const ByteVector &data, ByteVector &out) {
    const ID3v2::Header *header = tag->header();
    const int version = static_cast<int>(header->majorVersion());
    if ((version != 3 && version != 4) || header->unsynchronisation() || header->extendedHeader() ||
        header->footerPresent() || data.size() < 10 || !data.startsWith("ID3")) {
        return false;
    }
    const unsigned int total = data.size();

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
    out = data.mid(0, 5);
    out.append(static_cast<char>(header->experimentalIndicator() ? 0x20 : 0));
    out.append(syncsafeBytes(size));
    out.append(frames);
    out.append(ByteVector(size - frames.size(), 0));
    return true;
}

/// A top-level chunk of a RIFF (WAV) or FORM (AIFF) file: where its header is, and the size
/// of its data as the header says.
struct Chunk {
    ByteVector id;
    unsigned long header;
    unsigned int size;
    /// Whether the pad byte after odd-sized data is there (a file may end without it).
    bool padded;
    unsigned long end() const { return header + 8 + size + (padded ? 1 : 0); }
};

/// The file's top-level chunks, walked from its header; false for a file whose chunks this
/// does not follow (RF64, a chunk past the end, a name TagLib would not take), left to TagLib.
bool chunksOf(File *file, bool bigEndian, std::vector<Chunk> &out) {
    const long length = file->length();
    file->seek(0);
    const ByteVector head = file->readBlock(12);
    if (head.size() != 12 || !head.startsWith(bigEndian ? "FORM" : "RIFF")) return false;
    unsigned long at = 12;
    while (at + 8 <= static_cast<unsigned long>(length)) {
        file->seek(static_cast<long>(at));
        const ByteVector h = file->readBlock(8);
        if (h.size() != 8) return false;
        for (unsigned int i = 0; i < 4; ++i) {
            const auto c = static_cast<unsigned char>(h[i]);
            if (c < 32 || c > 126) return false;
        }
        const unsigned int size = h.toUInt(4, bigEndian);
        if (at + 8 + size > static_cast<unsigned long>(length)) return false;
        const bool padded = (size & 1) != 0 && at + 8 + size < static_cast<unsigned long>(length);
        out.push_back({h.mid(0, 4), at, size, padded});
        at = out.back().end();
    }
    return !out.empty();
}

/// One change to a chunked file: `replace` bytes at `at` become `bytes`; a chunk whose data
/// changed size gets `size` in its header at `sizeField`.
struct ChunkEdit {
    unsigned long at;
    unsigned long replace;
    ByteVector bytes;
    long sizeField; // -1: none
    unsigned int size;
};

/// The edit that gives `chunk` the data `data`, its pad byte kept to the rule.
ChunkEdit replacingData(const Chunk &chunk, const ByteVector &data) {
    ByteVector bytes = data;
    if ((bytes.size() & 1) != 0) bytes.append('\0');
    return {chunk.header + 8, chunk.size + (chunk.padded ? 1UL : 0UL), bytes, static_cast<long>(chunk.header + 4),
            data.size()};
}

} // namespace

namespace ctaglib {

void trackID3v2(ctl_file *f) {
    if (f->id3Tracked || !usable(f) || f->stream->readOnly()) return;
    f->id3Tracked = true;
    if (auto *wav = dynamic_cast<RIFF::WAV::File *>(f->file); wav != nullptr && wav->hasInfoTag()) {
        f->infoBefore = wav->InfoTag()->render();
    }
    ID3v2::Tag *tag = id3v2TagOf(f, false);
    if (tag == nullptr) return;
    // Sizes first: Frame::render() sets the size to the rendering's.
    for (auto *frame : tag->frameList()) f->id3Before.push_back({frame, frame->frameID(), frame->size(), ByteVector()});
    for (auto &tracked : f->id3Before) tracked.rendering = tracked.frame->render();
}

bool spliceID3v2(ctl_file *f, int otherTags) {
    auto *mpeg = dynamic_cast<MPEG::File *>(f->file);
    if (mpeg == nullptr || !f->id3Tracked || f->id3Before.empty() || !mpeg->hasID3v2Tag()) return false;
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
    ByteVector tagBytes;
    if (!splicedTag(f, mpeg->ID3v2Tag(), data, tagBytes)) return false;

    // The tags at the end first (their places are known from the file as TagLib opened it),
    // then the tag at the start.
    if (otherTags != 0 && !mpeg->save(otherTags, File::StripNone, ID3v2::v4, File::DoNotDuplicate)) return false;
    mpeg->insert(tagBytes, 0, total);
    return true;
}

bool spliceRIFF(ctl_file *f) {
    auto *wav = dynamic_cast<RIFF::WAV::File *>(f->file);
    auto *aiff = dynamic_cast<RIFF::AIFF::File *>(f->file);
    if ((wav == nullptr && aiff == nullptr) || !f->id3Tracked) return false;
    File *file = f->file;
    const bool bigEndian = aiff != nullptr;
    std::vector<Chunk> chunks;
    if (!chunksOf(file, bigEndian, chunks)) return false;
    const Chunk *id3 = nullptr;
    const Chunk *info = nullptr;
    for (const auto &c : chunks) {
        if (c.id == "ID3 " || c.id == "id3 ") {
            if (id3 != nullptr) return false; // two: left to TagLib, which keeps one
            id3 = &c;
        }
    }
    // Everything is decided before the first byte is written: a refusal leaves the file to
    // TagLib's save as it was.
    std::vector<ChunkEdit> edits;
    ID3v2::Tag *tag = wav != nullptr ? wav->ID3v2Tag() : aiff->tag();
    const bool hadID3 = wav != nullptr ? wav->hasID3v2Tag() : aiff->hasID3v2Tag();
    if (id3 != nullptr && hadID3 && tag != nullptr && tag->isEmpty()) {
        // Every frame gone (the undo of what INFO could not hold): the chunk goes, as TagLib's
        // save removes it, and the file is laid out as before it came.
        edits.push_back({id3->header, id3->end() - id3->header, ByteVector(), -1, 0});
    } else if (id3 != nullptr) {
        // (A chunk bigger than any tag TagLib would write is left to it rather than read whole.)
        if (!hadID3 || tag == nullptr || f->id3Before.empty() || id3->size > (64U << 20)) return false;
        file->seek(static_cast<long>(id3->header + 8));
        const ByteVector data = file->readBlock(id3->size);
        if (data.size() != id3->size || data.size() < 10 || !data.startsWith("ID3")) return false;
        const unsigned int total = 10 + syncsafe(data, 6);
        if (total > data.size()) return false;
        ByteVector tagBytes;
        if (!splicedTag(f, tag, data.mid(0, total), tagBytes)) return false;
        if (tagBytes.size() == total) {
            if (tagBytes != data.mid(0, total)) edits.push_back({id3->header + 8, total, tagBytes, -1, 0});
        } else {
            ByteVector whole = tagBytes;
            whole.append(data.mid(total));
            edits.push_back(replacingData(*id3, whole));
        }
    } else if (hadID3) {
        return false; // TagLib found a tag this walk did not
    } else if (tag != nullptr && !tag->isEmpty()) {
        // A new chunk, after the last one, as TagLib's save adds it (v2.4).
        const ByteVector data = tag->render(ID3v2::v4);
        ByteVector bytes("ID3 ");
        bytes.append(ByteVector::fromUInt(data.size(), bigEndian));
        bytes.append(data);
        if ((data.size() & 1) != 0) bytes.append('\0');
        edits.push_back({chunks.back().end(), 0, bytes, -1, 0});
    }
    if (wav != nullptr && wav->hasInfoTag()) {
        const ByteVector now = wav->InfoTag()->render();
        if (now != f->infoBefore) {
            for (const auto &c : chunks) {
                if (c.id != "LIST" || c.size < 4) continue;
                file->seek(static_cast<long>(c.header + 8));
                if (file->readBlock(4) != "INFO") continue;
                if (info != nullptr) return false;
                info = &c;
            }
            if (info == nullptr || now.isEmpty()) return false;
            edits.push_back(replacingData(*info, now));
        }
    }

    // From the end of the file back, so that each edit's place is still where it was found;
    // the container's size last.
    std::sort(edits.begin(), edits.end(), [](const ChunkEdit &a, const ChunkEdit &b) { return a.at > b.at; });
    long grown = 0;
    for (const auto &e : edits) {
        file->insert(e.bytes, e.at, e.replace);
        if (e.sizeField >= 0) file->insert(ByteVector::fromUInt(e.size, bigEndian), static_cast<unsigned long>(e.sizeField), 4);
        grown += static_cast<long>(e.bytes.size()) - static_cast<long>(e.replace);
    }
    if (grown != 0) {
        file->seek(4);
        const unsigned int said = file->readBlock(4).toUInt(0, bigEndian);
        file->insert(ByteVector::fromUInt(static_cast<unsigned int>(static_cast<long>(said) + grown), bigEndian), 4, 4);
    }
    return true;
}

} // namespace ctaglib
