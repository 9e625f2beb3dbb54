#include "broker/store/timer_wheel.h"

#include "broker/common/bytes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <utility>

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
    std::vector<Page> pages(static_cast<size_t>((length + kPageSize - 1) / kPageSize));
    if (!loadPages(fd, path, length, pages, error)) {
        ::close(fd);
        return nullptr;
    }
    return std::unique_ptr<TimerWheel>(new TimerWheel(path, fd, std::move(pages), slotsTotal, precisionMs));
}

namespace {

bool readFully(int fd, uint8_t *into, size_t size, off_t offset)
{
    for (size_t done = 0; done < size;) {
        const ssize_t n = ::pread(fd, into + done, size - done, offset + static_cast<off_t>(done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0)
            errno = 0; // the file ended early
        if (n <= 0)
            return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

bool isAllZero(const uint8_t *bytes, size_t size)
{
    return std::all_of(bytes, bytes + size, [](uint8_t b) { return b == 0; });
}

} // namespace

bool TimerWheel::loadPages(int fd, const std::string &path, int64_t length, std::vector<Page> &pages,
                           std::string &error)
{
    // The data extents of the file; a file system without SEEK_DATA reports the whole file as
    // one, and its all-zero pages are dropped after reading.
    std::vector<std::pair<off_t, off_t>> extents;
    for (off_t from = 0; from < length;) {
        const off_t data = ::lseek(fd, from, SEEK_DATA);
        if (data < 0) {
            if (errno == ENXIO)
                break; // only a hole from here on
            extents.assign(1, {0, static_cast<off_t>(length)});
            break;
        }
        off_t hole = ::lseek(fd, data, SEEK_HOLE);
        if (hole < 0 || hole > length)
            hole = static_cast<off_t>(length);
        extents.emplace_back(data, hole);
        from = hole;
    }
    auto page = std::make_unique<uint8_t[]>(kPageSize);
    for (const auto &[begin, end] : extents) {
        for (off_t at = begin / kPageSize * kPageSize; at < end; at += kPageSize) {
            const size_t size = std::min<size_t>(kPageSize, static_cast<size_t>(length - at));
            std::fill_n(page.get(), kPageSize, uint8_t{0});
            if (!readFully(fd, page.get(), size, at)) {
                error = "cannot read " + path + " at " + std::to_string(at) + ": "
                        + (errno != 0 ? std::strerror(errno) : "short file");
                return false;
            }
            if (!isAllZero(page.get(), size))
                pages[static_cast<size_t>(at) / kPageSize] = std::exchange(page, std::make_unique<uint8_t[]>(kPageSize));
        }
    }
    return true;
}

TimerWheel::TimerWheel(std::string path, int fd, std::vector<Page> pages, int32_t slotsTotal, int32_t precisionMs)
    : path_(std::move(path)), fd_(fd), slotsTotal_(slotsTotal), precisionMs_(precisionMs), pages_(std::move(pages))
{}

TimerWheel::~TimerWheel()
{
    ::close(fd_);
}

const uint8_t *TimerWheel::slotBytes(int64_t index) const
{
    static constexpr uint8_t kZeroSlot[kSlotSize] = {};
    const size_t byte = static_cast<size_t>(index) * kSlotSize;
    const Page &page = pages_[byte / kPageSize];
    return page ? page.get() + byte % kPageSize : kZeroSlot;
}

uint8_t *TimerWheel::at(int64_t timeMs)
{
    const int32_t index = slotIndex(timeMs);
    dirty_.insert(index);
    const size_t byte = static_cast<size_t>(index) * kSlotSize;
    Page &page = pages_[byte / kPageSize];
    if (!page)
        page = std::make_unique<uint8_t[]>(kPageSize); // value-initialised: zeros, as the hole read
    return page.get() + byte % kPageSize;
}

int32_t TimerWheel::slotIndex(int64_t timeMs) const
{
    return static_cast<int32_t>(timeMs / precisionMs_ % (static_cast<int64_t>(slotsTotal_) * 2));
}

TimerSlot TimerWheel::slot(int64_t timeMs) const
{
    std::lock_guard lock(mutex_);
    const uint8_t *p = slotBytes(slotIndex(timeMs));
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
        const uint8_t *p = slotBytes((first + i) % slots);
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
        const uint8_t *p = slotBytes((first + i) % slots);
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
            const uint8_t *slot = slotBytes(index);
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
