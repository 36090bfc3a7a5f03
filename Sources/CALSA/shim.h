#include <alsa/asoundlib.h>

/* alsa-lib prints its own "ALSA lib …" lines on stderr when a device cannot be opened (eight of
   them for a "default" with no sound card), before the caller has said anything. Boomic reports
   each failure in one line of its own, so the library's are silenced. The handler is C-variadic,
   which Swift cannot write: it lives here. */
static void calsa_silent_error_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void calsa_silence_errors(void) {
    snd_lib_error_set_handler(calsa_silent_error_handler);
}
