// A small C interface over SoundTouch's C++ class, for changing tempo without changing pitch.
//
// Swift's C++ interop is not used anywhere in Boomic (see Sources/CTagLib), so the player talks to
// SoundTouch through this header only. Samples are 32-bit float, interleaved, ±1.0 (Debian's
// libSoundTouch is built with SOUNDTOUCH_FLOAT_SAMPLES). No C++ exception crosses this boundary.
// A `cst_stretcher` is not thread-safe: the engine's decode thread owns it.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cst_stretcher cst_stretcher;

/// A stretcher for this rate and channel count; NULL when SoundTouch refuses them.
cst_stretcher *cst_create(unsigned sample_rate, unsigned channels);
void cst_destroy(cst_stretcher *s);

/// Tempo as a factor of the original (2.0: twice as fast), pitch unchanged.
void cst_set_tempo(cst_stretcher *s, double tempo);
/// Hands `frames` frames over; SoundTouch copies them.
void cst_put(cst_stretcher *s, const float *samples, unsigned frames);
/// Takes up to `max_frames` processed frames; how many it took.
unsigned cst_receive(cst_stretcher *s, float *samples, unsigned max_frames);
/// Frames still inside (input not yet processed, and output not yet taken), in output frames
/// for the latter and input frames for the former.
unsigned cst_unprocessed(cst_stretcher *s);
unsigned cst_available(cst_stretcher *s);
/// Pushes the last input through (padding with silence); call at the very end only.
void cst_flush(cst_stretcher *s);
/// Forgets everything inside.
void cst_clear(cst_stretcher *s);

#ifdef __cplusplus
}
#endif
