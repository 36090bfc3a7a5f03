// ID3v2's performer credits: TMCL (v2.4) and the instrument roles of TIPL (v2.3's IPLS). Shared
// by reads (ctaglib.cpp) and writes (write.cpp).
#include "file.h"

#include <taglib/mpegfile.h>
#include <taglib/textidentificationframe.h>
#include <taglib/tpropertymap.h>

using namespace TagLib;

namespace ctaglib {

namespace {

/// TIPL's roles that are not performances: TagLib's involvedPeopleMap and Picard's TIPL roles.
bool isInvolvedPeopleRole(const String &role) {
    const String r = role.upper();
    return r == "ARRANGER" || r == "ENGINEER" || r == "PRODUCER" || r == "DJ-MIX" || r == "MIX";
}

/// The text frames with id `id` in `tag`.
std::vector<ID3v2::TextIdentificationFrame *> textFrames(const ID3v2::Tag *tag, const char *id) {
    std::vector<ID3v2::TextIdentificationFrame *> frames;
    for (auto *frame : tag->frameListMap()[id]) {
        if (auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame)) frames.push_back(text);
    }
    return frames;
}

/// Calls `each(role, name, isPerformance)` for every pair of a TMCL or TIPL frame, frame by
/// frame in the tag's order (a frame with an odd count of fields drops its last one).
template <typename Each> void eachCredit(const ID3v2::Tag *tag, Each each) {
    for (auto *frame : tag->frameList()) {
        const ByteVector id = frame->frameID();
        if (id != "TMCL" && id != "TIPL") continue;
        auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame);
        if (text == nullptr) continue;
        const StringList fields = text->fieldList();
        for (auto it = fields.begin(); it != fields.end(); ++it) {
            const String role = *it;
            if (++it == fields.end()) break;
            each(role, *it, id == "TMCL" || !isInvolvedPeopleRole(role));
        }
    }
}

/// "Name (role)", as Picard writes a performer in a Vorbis comment; the name alone without a role.
String credit(const String &role, const String &name) {
    return role.stripWhiteSpace().isEmpty() ? name : name + " (" + role + ")";
}

/// Splits "Name (role)" at the parenthesis that closes the value (so "A (Jr.) (piano)" is
/// "A (Jr.)" playing "piano"); a value without one is a name with an empty role.
std::pair<String, String> roleAndName(const String &value) {
    const unsigned int n = value.size();
    if (n > 0 && value[n - 1] == L')') {
        int depth = 0;
        for (unsigned int i = n; i-- > 0;) {
            if (value[i] == L')') ++depth;
            else if (value[i] == L'(' && --depth == 0) {
                if (i >= 2 && value[i - 1] == L' ') return {value.substr(i + 1, n - i - 2), value.substr(0, i - 1)};
                break;
            }
        }
    }
    return {String(), value};
}

/// The fields of a text frame's data (encoding byte, then strings), empty ones kept; one
/// trailing terminator's empty field is dropped when it leaves the count odd.
StringList rawFields(const ByteVector &data) {
    StringList fields;
    if (data.isEmpty()) return fields;
    const auto encoding = static_cast<String::Type>(static_cast<unsigned char>(data[0]));
    if (encoding > String::UTF8) return fields;
    const bool wide = encoding == String::UTF16 || encoding == String::UTF16BE;
    const unsigned int step = wide ? 2 : 1;
    unsigned int start = 1;
    for (unsigned int i = 1; i + step <= data.size(); i += step) {
        if (data[i] != 0 || (wide && data[i + 1] != 0)) continue;
        fields.append(String(data.mid(start, i - start), encoding));
        start = i + step;
    }
    if (start < data.size()) fields.append(String(data.mid(start), encoding));
    else fields.append(String());
    if (fields.size() % 2 == 1 && fields.back().isEmpty()) fields.erase(--fields.end());
    return fields;
}

/// A 28-bit synchsafe integer (ID3v2.4's sizes and every tag size).
unsigned int synchsafe(const ByteVector &b, unsigned int at) {
    return (static_cast<unsigned int>(b[at] & 0x7F) << 21) | (static_cast<unsigned int>(b[at + 1] & 0x7F) << 14)
        | (static_cast<unsigned int>(b[at + 2] & 0x7F) << 7) | static_cast<unsigned int>(b[at + 3] & 0x7F);
}

/// The data of each TMCL and TIPL (IPLS) frame of the ID3v2 tag at the start of `stream`, in
/// the tag's order, as {id, data}; empty when the tag uses what this reader does not undo
/// (unsynchronisation, an extended header, compressed or encrypted frames).
std::vector<std::pair<ByteVector, ByteVector>> rawCreditFrames(IOStream *stream) {
    std::vector<std::pair<ByteVector, ByteVector>> found;
    stream->seek(0);
    const ByteVector header = stream->readBlock(10);
    if (header.size() < 10 || !header.startsWith("ID3")) return found;
    const int version = header[3];
    if ((version != 3 && version != 4) || (header[5] & 0xC0) != 0) return found;
    const ByteVector tag = stream->readBlock(synchsafe(header, 6));
    unsigned int at = 0;
    while (at + 10 <= tag.size() && tag[at] != 0) {
        const ByteVector id = tag.mid(at, 4);
        const unsigned int size = version == 4 ? synchsafe(tag, at + 4) : tag.toUInt(at + 4, true);
        const unsigned char flags = static_cast<unsigned char>(tag[at + 9]);
        if (size > tag.size() - at - 10) return {};
        if (id == "TMCL" || id == "TIPL" || id == "IPLS") {
            const bool plain = version == 4 ? (flags & 0x4F) == 0 : (flags & 0xE0) == 0;
            if (!plain) return {};
            found.emplace_back(id == "TMCL" ? ByteVector("TMCL") : ByteVector("TIPL"), tag.mid(at + 10, size));
        }
        at += 10 + size;
    }
    return found;
}

/// `a` without its empty strings is `b`.
bool sameWithoutEmpties(const StringList &a, const StringList &b) {
    StringList kept;
    for (const auto &s : a) {
        if (!s.isEmpty()) kept.append(s);
    }
    return kept == b;
}

} // namespace

void readPerformerCredits(const ID3v2::Tag *tag, PropertyMap &map) {
    if (tag == nullptr) return;
    StringList credits;
    eachCredit(tag, [&](const String &role, const String &name, bool isPerformance) {
        if (isPerformance && !name.stripWhiteSpace().isEmpty()) credits.append(credit(role, name));
    });
    // TagLib's own reading of TMCL: PERFORMER:PIANO keys, the role upper-cased and the names
    // split at commas. The credits above replace it.
    StringList doomed;
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (it->first.startsWith("PERFORMER:")) doomed.append(it->first);
    }
    for (const auto &key : doomed) map.erase(key);
    if (credits.isEmpty()) return;
    StringList values = map.contains("PERFORMER") ? map["PERFORMER"] : StringList();
    values.append(credits);
    map.replace("PERFORMER", values);
}

bool hasPerformerCredits(const ID3v2::Tag *tag) {
    bool found = false;
    eachCredit(tag, [&](const String &, const String &, bool isPerformance) { found = found || isPerformance; });
    return found;
}

void setPerformerCredits(ID3v2::Tag *tag, const StringList &list) {
    for (auto *frame : textFrames(tag, "TMCL")) tag->removeFrame(frame, true);
    const ID3v2::FrameList txxxs = tag->frameListMap()["TXXX"]; // a copy: frames go below
    for (auto *frame : txxxs) {
        auto *txxx = dynamic_cast<ID3v2::UserTextIdentificationFrame *>(frame);
        if (txxx != nullptr && txxx->description().upper() == "PERFORMER") tag->removeFrame(frame, true);
    }
    // TIPL keeps its producers, engineers and the like; its instrument roles go.
    for (auto *tipl : textFrames(tag, "TIPL")) {
        const StringList fields = tipl->fieldList();
        StringList kept;
        for (auto it = fields.begin(); it != fields.end(); ++it) {
            const String role = *it;
            if (++it == fields.end()) break;
            if (isInvolvedPeopleRole(role)) kept.append(role).append(*it);
        }
        if (kept.isEmpty()) tag->removeFrame(tipl, true); else tipl->setText(kept);
    }
    if (list.isEmpty()) return;
    StringList pairs;
    for (const auto &value : list) {
        auto [role, name] = roleAndName(value);
        pairs.append(role).append(name);
    }
    auto *tmcl = new ID3v2::TextIdentificationFrame("TMCL", String::UTF8);
    tmcl->setText(pairs);
    tag->addFrame(tmcl);
}

void restoreEmptyCreditFields(File *file, IOStream *stream) {
    auto *mpeg = dynamic_cast<MPEG::File *>(file);
    if (mpeg == nullptr || !mpeg->hasID3v2Tag()) return;
    ID3v2::Tag *tag = mpeg->ID3v2Tag();
    // Only UTF-16 writes an empty string as bytes (its BOM); the other encodings lose it.
    std::vector<ID3v2::TextIdentificationFrame *> parsed;
    bool narrow = false;
    for (auto *frame : tag->frameList()) {
        if (frame->frameID() != "TMCL" && frame->frameID() != "TIPL") continue;
        auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame);
        if (text == nullptr) return;
        parsed.push_back(text);
        narrow = narrow || text->textEncoding() == String::Latin1 || text->textEncoding() == String::UTF8;
    }
    if (!narrow) return;
    const long position = stream->tell();
    const auto raw = rawCreditFrames(stream);
    stream->seek(position);
    if (raw.size() != parsed.size()) return;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i].first != parsed[i]->frameID()) return;
    }
    for (size_t i = 0; i < raw.size(); ++i) {
        const StringList fields = rawFields(raw[i].second);
        // Only where TagLib's reading is this one less its empty strings: anything else is a
        // tag this reader does not understand as TagLib does, and is left as TagLib read it.
        if (fields != parsed[i]->fieldList() && sameWithoutEmpties(fields, parsed[i]->fieldList())) {
            parsed[i]->setText(fields);
        }
    }
}

} // namespace ctaglib
