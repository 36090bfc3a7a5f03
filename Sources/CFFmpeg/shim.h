// FFmpeg for boomic-ffmpeg only: Debian builds FFmpeg with --enable-gpl, so the `boomic` binary
// never links it (NOTICE). Macros Swift cannot import are wrapped as functions.
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/log.h>

/// AVERROR_EOF: the demuxer or decoder has nothing more.
static inline int cff_error_eof(void) { return AVERROR_EOF; }
/// AVERROR(EAGAIN): send more input / take output first.
static inline int cff_error_again(void) { return AVERROR(EAGAIN); }
/// AVERROR_INVALIDDATA: damaged input.
static inline int cff_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
/// AV_NOPTS_VALUE: no timestamp.
static inline int64_t cff_no_pts(void) { return AV_NOPTS_VALUE; }
/// av_err2str without its compound literal.
static inline void cff_describe(int error, char *buffer, size_t size) { av_strerror(error, buffer, size); }
/// AVERROR_STREAM_NOT_FOUND: the file has no stream of the kind asked for.
static inline int cff_error_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
/// AVERROR(EIO): a read failed.
static inline int cff_error_io(void) { return AVERROR(EIO); }
