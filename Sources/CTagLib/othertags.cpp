// The keys an MP3's or a WAV's other tags hold where the tag TagLib reads from has none.
#include "file.h"

#include <taglib/apetag.h>
#include <taglib/id3v1tag.h>
#include <taglib/infotag.h>
#include <taglib/mpegfile.h>
#include <taglib/relativevolumeframe.h>
#include <taglib/wavfile.h>

#include <algorithm>
#include <cstdio>

using namespace TagLib;

namespace ctaglib {

namespace {

/// Adds to `map` the keys of `other` it lacks, with their values.
void fillMissing(PropertyMap &map, const PropertyMap &other) {
    for (auto it = other.begin(); it != other.end(); ++it) {
        if (!map.contains(it->first)) map.insert(it->first, it->second);
    }
}

} // namespace

void readOtherTags(File *file, PropertyMap &map) {
    // TagLib's properties() come from the first non-empty tag only; each later one fills in.
    // Tag::properties() is not virtual in 1.13, so each tag is asked as its own type.
    if (auto *x = dynamic_cast<MPEG::File *>(file)) {
        ID3v2::Tag *id3 = x->ID3v2Tag(false);
        APE::Tag *ape = x->APETag(false);
        ID3v1::Tag *v1 = x->ID3v1Tag(false);
        const bool id3Read = id3 != nullptr && !id3->isEmpty();
        const bool apeRead = !id3Read && ape != nullptr && !ape->isEmpty();
        if (!apeRead && ape != nullptr && !ape->isEmpty()) fillMissing(map, ape->properties());
        if (v1 != nullptr && !v1->isEmpty() && (id3Read || apeRead)) fillMissing(map, v1->Tag::properties());
    } else if (auto *x = dynamic_cast<RIFF::WAV::File *>(file)) {
        RIFF::Info::Tag *info = x->InfoTag();
        if (x->ID3v2Tag() != nullptr && !x->ID3v2Tag()->isEmpty() && info != nullptr && !info->isEmpty()) {
            fillMissing(map, info->Tag::properties());
        }
    }
}

void readRVA2Gains(ID3v2::Tag *tag, PropertyMap &map) {
    if (tag == nullptr) return;
    for (auto *frame : tag->frameListMap()["RVA2"]) {
        auto *rva2 = dynamic_cast<ID3v2::RelativeVolumeFrame *>(frame);
        if (rva2 == nullptr) continue;
        // MPD's reading: "album" is the album gain, any other identification the track's.
        const String key = rva2->identification().upper() == "ALBUM" ? "REPLAYGAIN_ALBUM_GAIN" : "REPLAYGAIN_TRACK_GAIN";
        if (map.contains(key)) continue;
        const auto channels = rva2->channels();
        if (std::find(channels.begin(), channels.end(), ID3v2::RelativeVolumeFrame::MasterVolume) == channels.end()) continue;
        char text[32];
        std::snprintf(text, sizeof text, "%.2f dB", rva2->volumeAdjustment(ID3v2::RelativeVolumeFrame::MasterVolume));
        map.insert(key, StringList(String(text)));
    }
}

} // namespace ctaglib
