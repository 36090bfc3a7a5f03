#include "readstream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ctaglib {

namespace {
// Big enough for the headers TagLib walks in small steps (FLAC metadata block headers, ID3v2
// frame headers, Ogg page headers); bigger reads bypass it.
const long kBlockSize = 16 * 1024;
} // namespace

ReadStream::ReadStream(const char *path) : name_(path != nullptr ? path : "") {
    fd_ = ::open(name_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd_ < 0) {
        error_ = errno;
        return;
    }
    adopt();
}

ReadStream::ReadStream(int fd, const char *path) : name_(path != nullptr ? path : ""), fd_(fd) {
    if (fd_ < 0) {
        error_ = EBADF;
        return;
    }
    adopt();
}

void ReadStream::adopt() {
    struct stat st;
    if (::fstat(fd_, &st) != 0) {
        error_ = errno;
    } else if (!S_ISREG(st.st_mode)) {
        error_ = S_ISDIR(st.st_mode) ? EISDIR : EINVAL; // a folder, device or pipe is no audio file
    }
    if (error_ != 0) {
        ::close(fd_);
        fd_ = -1;
        return;
    }
    length_ = static_cast<long>(st.st_size);
}

ReadStream::~ReadStream() {
    if (fd_ >= 0) ::close(fd_);
}

void ReadStream::seek(long offset, Position p) {
    long base = p == Beginning ? 0 : p == Current ? position_ : length_;
    long target = base + offset;
    // Like fseek: a negative position is refused and leaves the position alone.
    if (target >= 0) position_ = target;
}

long ReadStream::readFully(long offset, char *buffer, long count) const {
    long done = 0;
    while (done < count) {
        ssize_t n = ::pread(fd_, buffer + done, static_cast<size_t>(count - done), offset + done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        done += n;
    }
    return done;
}

long ReadStream::readAt(long offset, void *buffer, long count) {
    if (fd_ < 0 || offset < 0 || count < 0) return -1;
    if (offset >= length_ || count == 0) return 0;
    count = std::min(count, length_ - offset);
    long blockEnd = blockStart_ + static_cast<long>(block_.size());
    if (offset >= blockStart_ && offset + count <= blockEnd) {
        std::memcpy(buffer, block_.data() + (offset - blockStart_), static_cast<size_t>(count));
        return count;
    }
    if (count >= kBlockSize) return readFully(offset, static_cast<char *>(buffer), count);
    block_.resize(static_cast<size_t>(std::min(kBlockSize, length_ - offset)));
    long got = readFully(offset, block_.data(), static_cast<long>(block_.size()));
    if (got < 0) {
        block_.clear();
        return -1;
    }
    block_.resize(static_cast<size_t>(got));
    blockStart_ = offset;
    long n = std::min(count, got);
    std::memcpy(buffer, block_.data(), static_cast<size_t>(n));
    return n;
}

TagLib::ByteVector ReadStream::readBlock(unsigned long length) {
    if (fd_ < 0 || position_ >= length_ || length == 0) return TagLib::ByteVector();
    long count = std::min(static_cast<long>(std::min<unsigned long>(length, static_cast<unsigned long>(length_))),
                          length_ - position_);
    TagLib::ByteVector data(static_cast<unsigned int>(count), '\0');
    long got = readAt(position_, data.data(), count);
    if (got <= 0) return TagLib::ByteVector();
    if (got < count) data.resize(static_cast<unsigned int>(got));
    position_ += got;
    return data;
}

} // namespace ctaglib
