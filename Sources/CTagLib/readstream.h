// A read-only TagLib stream over pread(2), for scanning.
//
// TagLib's FileStream wraps a FILE*: every length() seeks to the end and back, and every seek
// drops the stdio buffer, so parsing one file costs dozens of lseek and read calls. This stream
// knows its length from one fstat, seeks without a system call and serves small reads from one
// cached block. It cannot write; files opened for writing use FileStream.
#pragma once

#include <string>
#include <vector>

#include <taglib/tiostream.h>

namespace ctaglib {

class ReadStream : public TagLib::IOStream {
public:
    /// Opens `path` read-only, without waiting (O_NONBLOCK: a FIFO would wait for a writer);
    /// check `isOpen()`, and `error()` for the errno when it is not.
    explicit ReadStream(const char *path);
    /// Reads the open file `fd` (which it owns from then on, and closes), named `path` in
    /// messages. The caller opened it as Boomic opens every file it reads
    /// (`FileDescriptor.openRegular`): the stream never touches the path.
    ReadStream(int fd, const char *path);
    ~ReadStream() override;

    TagLib::FileName name() const override { return name_.c_str(); }
    TagLib::ByteVector readBlock(unsigned long length) override;
    void writeBlock(const TagLib::ByteVector &) override {}
    void insert(const TagLib::ByteVector &, unsigned long = 0, unsigned long = 0) override {}
    void removeBlock(unsigned long = 0, unsigned long = 0) override {}
    bool readOnly() const override { return true; }
    bool isOpen() const override { return fd_ >= 0; }
    void seek(long offset, Position p = Beginning) override;
    void clear() override {}
    long tell() const override { return position_; }
    long length() override { return length_; }
    void truncate(long) override {}

    /// The errno of a failed open (EISDIR for a folder), else 0.
    int error() const { return error_; }

    /// Copies up to `count` bytes at `offset` into `buffer` without moving the position.
    /// Returns the number copied (0 at the end), or -1 on a read error.
    long readAt(long offset, void *buffer, long count);

private:
    /// Takes `fd_`: refuses anything but a regular file, and learns its length.
    void adopt();

    /// pread until `count` bytes or the end of the file; -1 on error.
    long readFully(long offset, char *buffer, long count) const;

    std::string name_;
    int fd_ = -1;
    int error_ = 0;
    long length_ = 0;
    long position_ = 0;
    std::vector<char> block_;
    long blockStart_ = 0;
};

} // namespace ctaglib
