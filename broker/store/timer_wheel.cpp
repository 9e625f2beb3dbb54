#include "broker/store/timer_wheel.h"

#include "broker/common/bytes.h"

#include <fcntl.h>
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
    const auto fail = [&](std::string why) {
        error = std::move(why);
        ::close(fd);
        return nullptr;
    };
    struct stat st{};
    if (::fstat(fd, &st) != 0)
        return fail("cannot stat " + path + ": " + std::strerror(errno));
    if (st.st_size != 0 && st.st_size != length)
        return fail(path + ": timer wheel length " + std::to_string(st.st_size) + " != expected " + std::to_string(length)
                    + " (2 × " + std::to_string(slotsTotal) + " slots of 32 bytes)");
    // A sparse file, as Java's setLength makes: only written slots take blocks.
    if (st.st_size == 0 && ::ftruncate(fd, length) != 0)
        return fail("cannot size " + path + ": " + std::strerror(errno));
    std::vector<uint8_t> heap(static_cast<size_t>(length));
    for (size_t done = 0; done < heap.size();) {
        const ssize_t n = ::pread(fd, heap.data() + done, heap.size() - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail("cannot read " + path + ": " + (n < 0 ? std::strerror(errno) : "short file"));
        done += static_cast<size_t>(n);
    }
    return std::unique_ptr<TimerWheel>(new TimerWheel(path, fd, std::move(heap), slotsTotal, precisionMs));
}

TimerWheel::TimerWheel(std::string path, int fd, std::vector<uint8_t> heap, int32_t slotsTotal, int32_t precisionMs)
    : path_(std::move(path)), fd_(fd), slotsTotal_(slotsTotal), precisionMs_(precisionMs), heap_(std::move(heap))
{}

TimerWheel::~TimerWheel()
{
    ::close(fd_);
}

uint8_t *TimerWheel::at(int64_t timeMs)
{
    const int32_t index = slotIndex(timeMs);
    dirty_.insert(index);
    return heap_.data() + static_cast<size_t>(index) * kSlotSize;
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
}

void TimerWheel::reviseSlot(int64_t timeMs, int64_t firstPos, int64_t lastPos, bool force)
{
    std::lock_guard lock(mutex_);
    uint8_t *p = at(timeMs);
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
    std::set<int32_t> slots;
    std::vector<uint8_t> bytes;
    {
        std::lock_guard lock(mutex_);
        if (dirty_.empty())
            return true; // a quiet wheel costs nothing
        slots.swap(dirty_);
        bytes.reserve(slots.size() * kSlotSize);
        for (const int32_t index : slots) {
            const uint8_t *slot = heap_.data() + static_cast<size_t>(index) * kSlotSize;
            bytes.insert(bytes.end(), slot, slot + kSlotSize);
        }
    }
    // A slot changed again meanwhile is dirty again and written by the next flush.
    bool ok = true;
    size_t at = 0;
    for (const int32_t index : slots) {
        const off_t offset = static_cast<off_t>(index) * kSlotSize;
        if (::pwrite(fd_, bytes.data() + at, kSlotSize, offset) != kSlotSize) {
            error = "cannot write slot " + std::to_string(index) + " of " + path_ + ": " + std::strerror(errno);
            ok = false;
            break;
        }
        at += kSlotSize;
    }
    if (ok && ::fdatasync(fd_) != 0) {
        error = "cannot flush " + path_ + ": " + std::strerror(errno);
        ok = false;
    }
    if (!ok) {
        std::lock_guard lock(mutex_);
        dirty_.insert(slots.begin(), slots.end()); // written again next time
    }
    return ok;
}

} // namespace mqdesk::store
