// An MP3's exact length, as libmpg123 (Boomic's player, MPD's) plays it with gapless on. See file.h.
#include "file.h"

#include <cmath>
#include <cstring>

#include <taglib/mpegfile.h>
#include <taglib/mpegheader.h>
#include <taglib/mpegproperties.h>
#include <taglib/xingheader.h>

using namespace TagLib;

namespace ctaglib {

// TagLib counts an MP3 as the Xing/Info header's frames times the samples in a frame (an MP3 of
// 2.000 s made by LAME reads as 2.038): the encoder's delay before the music and its padding
// after it count too. LAME and FFmpeg write both into the LAME tag that follows the Info header
// (12 bits each, 21 bytes after the encoder's name), and a gapless decoder leaves them out, so
// `status` said 2.000 of a song the library listed as 2.038. Without that tag (no Xing header, a
// VBRI one, another encoder), nothing is known better than TagLib's figure.
long long mpegGaplessLengthMs(File *file) {
    auto *mpeg = dynamic_cast<MPEG::File *>(file);
    if (mpeg == nullptr) return -1;
    auto *properties = mpeg->audioProperties();
    if (properties == nullptr || properties->xingHeader() == nullptr || properties->sampleRate() <= 0) return -1;
    const MPEG::XingHeader *xing = properties->xingHeader();
    if (xing->type() != MPEG::XingHeader::Xing || xing->totalFrames() == 0) return -1;
    long first = mpeg->firstFrameOffset();
    if (first < 0) return -1;
    MPEG::Header header(mpeg, first, true);
    if (!header.isValid() || header.samplesPerFrame() <= 0) return -1;
    mpeg->seek(first);
    ByteVector frame = mpeg->readBlock(header.frameLength());
    // The Info header follows the side information, whose size depends on the version and on
    // whether the frame is mono.
    bool mono = header.channelMode() == MPEG::Header::SingleChannel;
    size_t at = header.version() == MPEG::Header::Version1 ? (mono ? 21 : 36) : (mono ? 13 : 21);
    if (frame.size() < at + 8) return -1;
    if (!(frame.containsAt("Xing", at) || frame.containsAt("Info", at))) return -1;
    unsigned flags = frame.toUInt(static_cast<unsigned>(at + 4), true);
    size_t lame = at + 8 + (flags & 1 ? 4 : 0) + (flags & 2 ? 4 : 0) + (flags & 4 ? 100 : 0) + (flags & 8 ? 4 : 0);
    if (frame.size() < lame + 24) return -1;
    if (!(frame.containsAt("LAME", lame) || frame.containsAt("Lavf", lame) || frame.containsAt("Lavc", lame))) return -1;
    auto byte = [&](size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(frame[static_cast<unsigned>(i)])); };
    unsigned delay = byte(lame + 21) << 4 | byte(lame + 22) >> 4;
    unsigned padding = (byte(lame + 22) & 0x0F) << 8 | byte(lame + 23);
    long long samples = static_cast<long long>(xing->totalFrames()) * header.samplesPerFrame() - delay - padding;
    if (samples <= 0) return -1;
    return std::llround(static_cast<double>(samples) * 1000.0 / properties->sampleRate());
}

} // namespace ctaglib
