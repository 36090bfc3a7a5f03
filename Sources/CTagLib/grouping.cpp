// ID3v2's TIT1 (the grouping, or the work) and TDRC as written. Shared by reads (ctaglib.cpp)
// and writes (write.cpp).
#include "file.h"

#include <taglib/aifffile.h>
#include <taglib/apetag.h>
#include <taglib/id3v1tag.h>
#include <taglib/infotag.h>
#include <taglib/mpegfile.h>
#include <taglib/textidentificationframe.h>
#include <taglib/tpropertymap.h>
#include <taglib/wavfile.h>

using namespace TagLib;

namespace ctaglib {

bool readsFrom(const Tag *tag, std::initializer_list<const Tag *> others) {
    if (tag == nullptr) return false;
    if (!tag->isEmpty()) return true;
    for (const Tag *other : others) {
        if (other != nullptr && !other->isEmpty()) return false;
    }
    return true;
}

ID3v2::Tag *readID3v2Of(File *file) {
    if (auto *x = dynamic_cast<MPEG::File *>(file)) {
        if (!x->hasID3v2Tag()) return nullptr;
        return readsFrom(x->ID3v2Tag(), {x->APETag(false), x->ID3v1Tag(false)}) ? x->ID3v2Tag() : nullptr;
    }
    if (auto *x = dynamic_cast<RIFF::WAV::File *>(file)) {
        if (!x->hasID3v2Tag()) return nullptr;
        return readsFrom(x->ID3v2Tag(), {x->InfoTag()}) ? x->ID3v2Tag() : nullptr;
    }
    if (auto *x = dynamic_cast<RIFF::AIFF::File *>(file)) return x->hasID3v2Tag() ? x->tag() : nullptr;
    return nullptr;
}

bool tit1IsGrouping(const ID3v2::Tag *tag) {
    return tag->frameListMap()["GRP1"].isEmpty();
}

void readTIT1AsGrouping(const ID3v2::Tag *tag, PropertyMap &map) {
    if (tag == nullptr || !tit1IsGrouping(tag)) return;
    StringList grouping;
    for (auto *frame : tag->frameListMap()["TIT1"]) {
        if (auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame)) grouping.append(text->fieldList());
    }
    if (grouping.isEmpty()) return;
    // TagLib put TIT1's values under WORK, next to any TXXX:WORK: take out one of each.
    if (map.contains("WORK")) {
        StringList work = map["WORK"];
        for (const auto &value : grouping) {
            auto it = work.find(value);
            if (it != work.end()) work.erase(it);
        }
        if (work.isEmpty()) map.erase("WORK"); else map.replace("WORK", work);
    }
    StringList values = grouping;
    if (map.contains("GROUPING")) values.append(map["GROUPING"]);
    map.replace("GROUPING", values);
}

void readDatesAsWritten(const ID3v2::Tag *tag, PropertyMap &map) {
    if (tag == nullptr || !map.contains("DATE")) return;
    StringList dates;
    for (auto *frame : tag->frameListMap()["TDRC"]) {
        if (auto *text = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame)) dates.append(text->fieldList());
    }
    // Only where TagLib's DATE is exactly these values with a 'T' made a space.
    if (dates.size() != map["DATE"].size()) return;
    for (unsigned int i = 0; i < dates.size(); ++i) {
        String spaced = dates[i];
        int t = spaced.find("T");
        if (t != -1) spaced[t] = ' ';
        if (spaced != map["DATE"][i]) return;
    }
    map.replace("DATE", dates);
}

} // namespace ctaglib
