#include "broker/store/timer_wheel.h"

#include "broker/common/bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace mqdesk::store {

using common::readInt32;
using common::readInt64;
using common::writeInt32;
using common::writeInt64;

std::unique_ptr<TimerWheel> TimerWheel::open(const std::string &path, int32_t slotsTotal, int32_t precisionMs,
                                             std::string &error)
{
    const int64_t length = static_cast<int64_t>(slotsTotal) * 2 * kSlotSize;
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return nullptr;
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        error = "cannot stat " + path + ": " + std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    if (st.st_size != 0 && st.st_size != length) {
        error = path + ": timer wheel length " + std::to_string(st.st_size) + " != expected " + std::to_string(length)
                + " (2 × " + std::to_string(slotsTotal) + " slots of 32 bytes)";
        ::close(fd);
        return nullptr;
    }
    // A sparse file, as Java's setLength makes: only written slots take blocks.
    if (st.st_size == 0 && ::ftruncate(fd, length) != 0) {
        error = "cannot size " + path + ": " + std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    void *mapped = ::mmap(nullptr, static_cast<size_t>(length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
        error = "cannot map " + path + ": " + std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    return std::unique_ptr<TimerWheel>(new TimerWheel(path, fd, static_cast<uint8_t *>(mapped), slotsTotal, precisionMs));
}

TimerWheel::TimerWheel(std::string path, int fd, uint8_t *mapped, int32_t slotsTotal, int32_t precisionMs)
    : path_(std::move(path)), fd_(fd), mapped_(mapped), slotsTotal_(slotsTotal), precisionMs_(precisionMs),
      heap_(mapped, mapped + static_cast<size_t>(slotsTotal) * 2 * kSlotSize)
{}

TimerWheel::~TimerWheel()
{
    ::munmap(mapped_, heap_.size());
    ::close(fd_);
}

int32_t TimerWheel::slotIndex(int64_t timeMs) const
{
    return static_cast<int32_t>(timeMs / precisionMs_ % (static_cast<int64_t>(slotsTotal_) * 2));
}

TimerSlot TimerWheel::slot(int64_t timeMs) const
{
    std::lock_guard lock(mutex_);
    const uint8_t *p = heap_.data() + static_cast<size_t>(slotIndex(timeMs)) * kSlotSize;
    if (readInt64(p) != timeMs / precisionMs_)
        return TimerSlot{};
    return TimerSlot{readInt64(p) * precisionMs_, readInt64(p + 8), readInt64(p + 16), readInt32(p + 24),
                     readInt32(p + 28)};
}

void TimerWheel::putSlot(int64_t timeMs, int64_t firstPos, int64_t lastPos, int32_t num, int32_t magic)
{
    std::lock_guard lock(mutex_);
    uint8_t *p = at(timeMs);
    // Precision units, not ms: files of Java's fixed-1000 ms versions read the same.
    writeInt64(p, timeMs / precisionMs_);
    writeInt64(p + 8, firstPos);
    writeInt64(p + 16, lastPos);
    writeInt32(p + 24, num);
    writeInt32(p + 28, magic);
    dirty_ = true;
}

void TimerWheel::reviseSlot(int64_t timeMs, int64_t firstPos, int64_t lastPos, bool force)
{
    std::lock_guard lock(mutex_);
    uint8_t *p = at(timeMs);
    dirty_ = true;
    if (readInt64(p) != timeMs / precisionMs_) {
        if (force) {
            // Java's three-long putSlot: num and magic stay as they were.
            writeInt64(p, timeMs / precisionMs_);
            writeInt64(p + 8, firstPos != kIgnore ? firstPos : lastPos);
            writeInt64(p + 16, lastPos);
        }
        return;
    }
    if (firstPos != kIgnore)
        writeInt64(p + 8, firstPos);
    writeInt64(p + 16, lastPos);
}

int64_t TimerWheel::checkPhyPos(int64_t timeStartMs, int64_t maxOffset) const
{
    std::lock_guard lock(mutex_);
    int64_t minFirst = std::numeric_limits<int64_t>::max();
    const int64_t slots = static_cast<int64_t>(slotsTotal_) * 2;
    const int64_t first = slotIndex(timeStartMs);
    for (int64_t i = 0; i < slots; ++i) {
        const uint8_t *p = heap_.data() + static_cast<size_t>((first + i) % slots) * kSlotSize;
        if ((timeStartMs + i * precisionMs_) / precisionMs_ != readInt64(p))
            continue;
        if (readInt64(p + 16) > maxOffset)
            minFirst = std::min(minFirst, readInt64(p + 8));
    }
    return minFirst;
}

int64_t TimerWheel::allNum(int64_t timeStartMs) const
{
    std::lock_guard lock(mutex_);
    int64_t total = 0;
    const int64_t slots = static_cast<int64_t>(slotsTotal_) * 2;
    const int64_t first = slotIndex(timeStartMs);
    for (int64_t i = 0; i < slots; ++i) {
        const uint8_t *p = heap_.data() + static_cast<size_t>((first + i) % slots) * kSlotSize;
        if ((timeStartMs + i * precisionMs_) / precisionMs_ == readInt64(p))
            total += readInt32(p + 24);
    }
    return total;
}

bool TimerWheel::flush(std::string &error)
{
    {
        std::lock_guard lock(mutex_);
        if (!dirty_)
            return true; // nothing to write: a quiet wheel costs no 38 MB comparison a second
        dirty_ = false;
        // Only differing bytes are written, as Java does: untouched slots of the sparse file
        // never get blocks, and a flush of a quiet wheel dirties no page.
        const size_t length = heap_.size();
        for (size_t i = 0; i < length; i += 8) {
            if (std::memcmp(heap_.data() + i, mapped_ + i, 8) != 0)
                std::memcpy(mapped_ + i, heap_.data() + i, 8);
        }
    }
    if (::msync(mapped_, heap_.size(), MS_SYNC) != 0) {
        error = "cannot flush " + path_ + ": " + std::strerror(errno);
        std::lock_guard lock(mutex_);
        dirty_ = true; // forced again next time
        return false;
    }
    return true;
}

} // namespace mqdesk::store
