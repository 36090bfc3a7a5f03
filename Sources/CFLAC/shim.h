#include <FLAC/stream_decoder.h>
#include <FLAC/metadata.h>

/* Swift cannot reference libFLAC's incomplete arrays of status strings ("cannot reference
   invalid declaration"): read them through these. */
static inline const char *cflac_decoder_error_string(FLAC__StreamDecoderErrorStatus s) {
    return FLAC__StreamDecoderErrorStatusString[s];
}
static inline const char *cflac_decoder_state_string(FLAC__StreamDecoderState s) {
    return FLAC__StreamDecoderStateString[s];
}
static inline const char *cflac_init_status_string(FLAC__StreamDecoderInitStatus s) {
    return FLAC__StreamDecoderInitStatusString[s];
}
