#include "broker/store/store_checkpoint.h"

#include "broker/common/bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mqdesk::store {

using common::readInt64;
using common::writeInt64;

StoreCheckpoint::StoreCheckpoint(std::string path, int fd, uint8_t *mapped)
    : path_(std::move(path)), fd_(fd), mapped_(mapped)
{
    physic_ = readInt64(mapped_ + 0);
    logics_ = readInt64(mapped_ + 8);
    index_ = readInt64(mapped_ + 16);
    masterFlushed_ = readInt64(mapped_ + 24);
    confirm_ = readInt64(mapped_ + 32);
}

std::unique_ptr<StoreCheckpoint> StoreCheckpoint::open(const std::string &path, std::string &error)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return nullptr;
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0 || (st.st_size < kFileSize && ::ftruncate(fd, kFileSize) != 0)) {
        error = "cannot size " + path + " to 4096 bytes: " + std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    // Blocks reserved now, so a write through the mapping can never fault on a full disk later.
    if (const int rc = ::posix_fallocate(fd, 0, kFileSize); rc != 0) {
        error = "cannot reserve 4096 bytes for " + path + ": " + std::strerror(rc);
        ::close(fd);
        return nullptr;
    }
    void *mapped = ::mmap(nullptr, kFileSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
        error = "cannot map " + path + ": " + std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    return std::unique_ptr<StoreCheckpoint>(new StoreCheckpoint(path, fd, static_cast<uint8_t *>(mapped)));
}

StoreCheckpoint::~StoreCheckpoint()
{
    ::munmap(mapped_, kFileSize);
    ::close(fd_);
}

int64_t StoreCheckpoint::minTimestamp() const
{
    return std::max<int64_t>(0, std::min(physicMsgTimestamp(), logicsMsgTimestamp()) - 3000);
}

int64_t StoreCheckpoint::minTimestampIndex() const
{
    return std::min(minTimestamp(), indexMsgTimestamp());
}

bool StoreCheckpoint::flush(std::string &error)
{
    std::lock_guard lock(flushMutex_);
    writeInt64(mapped_ + 0, physicMsgTimestamp());
    writeInt64(mapped_ + 8, logicsMsgTimestamp());
    writeInt64(mapped_ + 16, indexMsgTimestamp());
    writeInt64(mapped_ + 24, masterFlushedOffset());
    writeInt64(mapped_ + 32, confirmPhyOffset());
    if (::msync(mapped_, kFileSize, MS_SYNC) != 0) {
        error = "cannot flush " + path_ + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

} // namespace mqdesk::store
