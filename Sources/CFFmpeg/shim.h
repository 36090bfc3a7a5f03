// FFmpeg for boomic-ffmpeg only: Debian builds FFmpeg with --enable-gpl, so the `boomic` binary
// never links it (NOTICE). Macros Swift cannot import are wrapped as functions.
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/log.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

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
/// AVERROR(EPIPE): the reader of the output went away.
static inline int cff_error_pipe(void) { return AVERROR(EPIPE); }
/// AVERROR(ENOMEM).
static inline int cff_error_no_memory(void) { return AVERROR(ENOMEM); }
/// Reads `samples` frames from `fifo` into `frame`'s planes (AVFrame's `data` is a fixed array
/// that Swift imports as a tuple).
static inline int cff_fifo_read_frame(AVAudioFifo *fifo, AVFrame *frame, int samples) {
    return av_audio_fifo_read(fifo, (void **)frame->data, samples);
}
/// Converts `count` frames of one interleaved plane through `swr` and appends what comes out to
/// `fifo`; a NULL `input` drains what the resampler holds. The frames added, or an AVERROR.
static inline int cff_convert_into(SwrContext *swr, AVAudioFifo *fifo, const uint8_t *input, int count,
                                   enum AVSampleFormat format, int channels) {
    int room = swr_get_out_samples(swr, count);
    if (room <= 0) return room;
    uint8_t **planes = NULL;
    int linesize = 0;
    int r = av_samples_alloc_array_and_samples(&planes, &linesize, channels, room, format, 0);
    if (r < 0) return r;
    const uint8_t *in[1] = { input };
    int n = swr_convert(swr, planes, room, input ? in : NULL, input ? count : 0);
    if (n > 0) {
        int written = av_audio_fifo_write(fifo, (void **)planes, n);
        if (written < n) n = written < 0 ? written : AVERROR(ENOMEM);
    }
    av_freep(&planes[0]);
    av_freep(&planes);
    return n;
}
