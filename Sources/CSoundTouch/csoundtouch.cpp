#include "csoundtouch.h"

#include <new>
#include <soundtouch/SoundTouch.h>

static_assert(sizeof(soundtouch::SAMPLETYPE) == sizeof(float), "libSoundTouch built with float samples");

struct cst_stretcher {
    soundtouch::SoundTouch touch;
};

extern "C" cst_stretcher *cst_create(unsigned sample_rate, unsigned channels) {
    try {
        auto *s = new (std::nothrow) cst_stretcher();
        if (!s) return nullptr;
        s->touch.setSampleRate(sample_rate);
        s->touch.setChannels(channels);
        s->touch.setTempo(1.0);
        s->touch.setPitch(1.0);
        s->touch.setRate(1.0);
        return s;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void cst_destroy(cst_stretcher *s) { delete s; }

extern "C" void cst_set_tempo(cst_stretcher *s, double tempo) {
    try { s->touch.setTempo(tempo); } catch (...) {}
}

extern "C" void cst_put(cst_stretcher *s, const float *samples, unsigned frames) {
    try { s->touch.putSamples(samples, frames); } catch (...) {}
}

extern "C" unsigned cst_receive(cst_stretcher *s, float *samples, unsigned max_frames) {
    try { return s->touch.receiveSamples(samples, max_frames); } catch (...) { return 0; }
}

extern "C" unsigned cst_unprocessed(cst_stretcher *s) { return s->touch.numUnprocessedSamples(); }
extern "C" unsigned cst_available(cst_stretcher *s) { return s->touch.numSamples(); }

extern "C" void cst_flush(cst_stretcher *s) {
    try { s->touch.flush(); } catch (...) {}
}

extern "C" void cst_clear(cst_stretcher *s) {
    try { s->touch.clear(); } catch (...) {}
}
