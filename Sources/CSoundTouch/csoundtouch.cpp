#include "csoundtouch.h"

#include <new>
#include <soundtouch/SoundTouch.h>

static_assert(sizeof(soundtouch::SAMPLETYPE) == sizeof(float), "libSoundTouch built with float samples");

// Debian's libSoundTouch is built with -ffast-math, so loading it runs crtfastmath's initializer,
// which turns on flush-to-zero and denormals-are-zero for the whole process: every double below
// 2.2e-308 then reads as 0 everywhere in boomic (JSON and query numbers went wrong). Shared
// libraries' initializers run before those of the program that links them, so this one, linked
// into the program, puts the floating-point mode back to IEEE before main starts; threads
// inherit it from there.
__attribute__((constructor)) static void cst_restore_ieee_denormals(void) {
#if defined(__x86_64__) || defined(__i386__)
    unsigned csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr));
    csr &= ~0x8040u; // FTZ (bit 15) and DAZ (bit 6)
    __asm__ volatile("ldmxcsr %0" : : "m"(csr));
#elif defined(__aarch64__)
    unsigned long fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr &= ~(1ul << 24); // FZ
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}

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
