#include "broker/store/timer_checkpoint.h"

#include "broker/common/bytes.h"
#include "broker/common/clock.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mqdesk::store {

using common::readInt64;
using common::writeInt64;

std::unique_ptr<TimerCheckpoint> TimerCheckpoint::open(const std::string &path, std::string &error)
{
    const bool existed = ::access(path.c_str(), F_OK) == 0;
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
    return std::unique_ptr<TimerCheckpoint>(new TimerCheckpoint(path, fd, static_cast<uint8_t *>(mapped), existed));
}

TimerCheckpoint::TimerCheckpoint(std::string path, int fd, uint8_t *mapped, bool existed)
    : path_(std::move(path)), fd_(fd), mapped_(mapped)
{
    if (!existed) {
        versionTimestamp_ = common::wallMillis(); // new DataVersion()
        return;
    }
    lastReadTimeMs_ = readInt64(mapped_);
    lastTimerLogFlushPos_ = readInt64(mapped_ + 8);
    lastTimerQueueOffset_ = readInt64(mapped_ + 16);
    masterTimerQueueOffset_ = readInt64(mapped_ + 24);
    stateVersion_ = readInt64(mapped_ + 32);
    versionTimestamp_ = readInt64(mapped_ + 40);
    versionCounter_ = readInt64(mapped_ + 48);
}

TimerCheckpoint::~TimerCheckpoint()
{
    ::munmap(mapped_, kFileSize);
    ::close(fd_);
}

void TimerCheckpoint::nextVersion(int64_t stateVersion)
{
    versionTimestamp_ = common::wallMillis();
    stateVersion_ = stateVersion;
    ++versionCounter_;
}

bool TimerCheckpoint::flush(std::string &error)
{
    std::lock_guard lock(flushMutex_);
    writeInt64(mapped_, lastReadTimeMs());
    writeInt64(mapped_ + 8, lastTimerLogFlushPos());
    writeInt64(mapped_ + 16, lastTimerQueueOffset());
    writeInt64(mapped_ + 24, masterTimerQueueOffset());
    writeInt64(mapped_ + 32, stateVersion());
    writeInt64(mapped_ + 40, versionTimestamp());
    writeInt64(mapped_ + 48, versionCounter());
    if (::msync(mapped_, kFileSize, MS_SYNC) != 0) {
        error = "cannot flush " + path_ + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

} // namespace mqdesk::store
