#include "broker/store/index_file.h"

#include "broker/common/bytes.h"
#include "broker/common/java_hash.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

namespace mqdesk::store {

using common::readInt32;
using common::readInt64;
using common::writeInt32;
using common::writeInt64;

namespace {

// Header field offsets (§6.1).
constexpr int64_t kBeginTimestampAt = 0;
constexpr int64_t kEndTimestampAt = 8;
constexpr int64_t kBeginPhyOffsetAt = 16;
constexpr int64_t kEndPhyOffsetAt = 24;
constexpr int64_t kHashSlotCountAt = 32;
constexpr int64_t kIndexCountAt = 36;

// Entry field offsets (§6.2).
constexpr int64_t kEntryHashAt = 0;
constexpr int64_t kEntryPhyOffsetAt = 4;
constexpr int64_t kEntryTimeDiffAt = 12;
constexpr int64_t kEntryPrevAt = 16;

// A slot's raw bytes, as one aligned word for std::atomic_ref, to and from its int value.
int32_t fromBigEndian(uint32_t raw)
{
    return readInt32(reinterpret_cast<const uint8_t *>(&raw));
}

uint32_t toBigEndian(int32_t value)
{
    uint32_t raw;
    writeInt32(reinterpret_cast<uint8_t *>(&raw), value);
    return raw;
}

} // namespace

IndexFile::IndexFile(std::unique_ptr<MappedFile> file, int32_t hashSlotNum, int32_t indexNum)
    : file_(std::move(file)), base_(file_->appendTarget()), hashSlotNum_(hashSlotNum), indexNum_(indexNum)
{}

IndexFile::~IndexFile() = default;

std::unique_ptr<IndexFile> IndexFile::create(const std::string &path, int32_t hashSlotNum, int32_t indexNum,
                                             int64_t prevEndPhyOffset, int64_t prevEndTimestamp,
                                             std::string &error)
{
    auto mapped = MappedFile::open(path, 0, fileSizeFor(hashSlotNum, indexNum), true, error, kReservation);
    if (!mapped || !mapped->reserveThrough(slotsEnd(hashSlotNum), error))
        return nullptr;
    std::unique_ptr<IndexFile> file(new IndexFile(std::move(mapped), hashSlotNum, indexNum));
    // Only the inherited fields reach the bytes now, as in RocketMQ; the counts stay 0 on disk
    // until the first entry or flush.
    if (prevEndPhyOffset > 0) {
        file->beginPhyOffset_ = prevEndPhyOffset;
        file->endPhyOffset_ = prevEndPhyOffset;
        writeInt64(file->base_ + kBeginPhyOffsetAt, prevEndPhyOffset);
        writeInt64(file->base_ + kEndPhyOffsetAt, prevEndPhyOffset);
    }
    if (prevEndTimestamp > 0) {
        file->beginTimestamp_ = prevEndTimestamp;
        file->endTimestamp_ = prevEndTimestamp;
        writeInt64(file->base_ + kBeginTimestampAt, prevEndTimestamp);
        writeInt64(file->base_ + kEndTimestampAt, prevEndTimestamp);
    }
    return file;
}

std::unique_ptr<IndexFile> IndexFile::load(const std::string &path, int32_t hashSlotNum, int32_t indexNum,
                                           std::string &error)
{
    const int64_t expected = fileSizeFor(hashSlotNum, indexNum);
    std::error_code ec;
    const auto actual = std::filesystem::file_size(path, ec);
    if (ec) {
        error = "cannot read the size of " + path + ": " + ec.message();
        return nullptr;
    }
    if (static_cast<int64_t>(actual) != expected) {
        error = path + ": index file is " + std::to_string(actual) + " bytes but maxHashSlotNum="
                + std::to_string(hashSlotNum) + " and maxIndexNum=" + std::to_string(indexNum) + " make "
                + std::to_string(expected) + "-byte index files";
        return nullptr;
    }
    // Nothing reserved yet: a loaded file is mostly a full one only read from now on (a Java
    // store holds hundreds, their slots sparse). The first putKey reserves from byte 0 through
    // its entry, header and slots included.
    auto mapped = MappedFile::open(path, 0, expected, false, error, kReservation);
    if (!mapped)
        return nullptr;
    std::unique_ptr<IndexFile> file(new IndexFile(std::move(mapped), hashSlotNum, indexNum));
    file->readHeader();
    if (file->indexCount() > indexNum) {
        error = path + ": header indexCount " + std::to_string(file->indexCount()) + " exceeds maxIndexNum "
                + std::to_string(indexNum) + " (damaged, or written with other index settings)";
        return nullptr;
    }
    file->flushedIndexCount_ = file->indexCount();
    return file;
}

int32_t IndexFile::keyHash(std::string_view key)
{
    const int32_t hash = common::javaStringHashCode(key);
    if (hash == INT32_MIN) // Math.abs(Integer.MIN_VALUE) stays negative; RocketMQ uses 0
        return 0;
    return hash < 0 ? -hash : hash;
}

std::string IndexFile::fileName() const
{
    const std::string &p = path();
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

int32_t IndexFile::loadSlot(int64_t position, std::memory_order order) const
{
    // Slots are 4-byte aligned (the mapping is page aligned, slots start at byte 40).
    std::atomic_ref<uint32_t> slot(*reinterpret_cast<uint32_t *>(base_ + position));
    return fromBigEndian(slot.load(order));
}

void IndexFile::storeSlot(int64_t position, int32_t value)
{
    std::atomic_ref<uint32_t> slot(*reinterpret_cast<uint32_t *>(base_ + position));
    slot.store(toBigEndian(value), std::memory_order_release);
}

bool IndexFile::putKey(std::string_view key, int64_t phyOffset, int64_t storeTimestamp, std::string &error)
{
    const int32_t entry = indexCount_.load(std::memory_order_relaxed);
    if (entry >= indexNum_)
        return false;
    // Header, slots and entries below this one included (MappedFile::reserveThrough).
    if (!file_->reserveThrough(entryPosition(entry) + kIndexSize, error))
        return false;
    const int32_t hash = keyHash(key);
    const int64_t slotAt = slotPosition(hash);
    int32_t prev = loadSlot(slotAt, std::memory_order_relaxed);
    if (prev <= 0 || prev > entry)
        prev = 0;

    // timeDiff in whole seconds against the header's begin (possibly inherited, §6.2 quirk).
    const int64_t begin = beginTimestamp_.load(std::memory_order_relaxed);
    int64_t timeDiff = 0;
    if (begin > 0) {
        int64_t delta = 0;
        if (__builtin_sub_overflow(storeTimestamp, begin, &delta))
            delta = storeTimestamp < begin ? 0 : INT64_MAX;
        timeDiff = std::clamp<int64_t>(delta / 1000, 0, INT32_MAX);
    }

    uint8_t *at = base_ + entryPosition(entry);
    writeInt32(at + kEntryHashAt, hash);
    writeInt64(at + kEntryPhyOffsetAt, phyOffset);
    writeInt32(at + kEntryTimeDiffAt, static_cast<int32_t>(timeDiff));
    writeInt32(at + kEntryPrevAt, prev);
    storeSlot(slotAt, entry); // publishes the entry to readers

    if (entry <= 1) {
        beginPhyOffset_.store(phyOffset, std::memory_order_relaxed);
        beginTimestamp_.store(storeTimestamp, std::memory_order_relaxed);
    }
    if (prev == 0)
        hashSlotCount_.fetch_add(1, std::memory_order_relaxed);
    endPhyOffset_.store(phyOffset, std::memory_order_relaxed);
    endTimestamp_.store(storeTimestamp, std::memory_order_relaxed);
    // Last, so a reader that sees the new count also sees the end values above.
    indexCount_.store(entry + 1, std::memory_order_release);
    writeHeader();
    return true;
}

bool IndexFile::isTimeMatched(int64_t begin, int64_t end) const
{
    const int64_t fileBegin = beginTimestamp();
    const int64_t fileEnd = endTimestamp();
    return (begin < fileBegin && end > fileEnd) || (begin >= fileBegin && begin <= fileEnd)
           || (end >= fileBegin && end <= fileEnd);
}

void IndexFile::selectPhyOffsets(std::vector<int64_t> &phyOffsets, std::string_view key, int maxNum,
                                 int64_t begin, int64_t end) const
{
    if (maxNum <= 0)
        return;
    const auto limit = static_cast<size_t>(maxNum);
    const int32_t count = indexCount();
    const int32_t hash = keyHash(key);
    const int32_t slot = loadSlot(slotPosition(hash), std::memory_order_acquire);
    if (slot <= 0 || slot > count || count <= 1)
        return;
    const int64_t fileBegin = beginTimestamp();
    for (int32_t current = slot; phyOffsets.size() < limit;) {
        if (current >= indexNum_) // only a damaged file gets here; never read past its end
            break;
        const uint8_t *at = base_ + entryPosition(current);
        const int32_t hashRead = readInt32(at + kEntryHashAt);
        const int64_t phyOffsetRead = readInt64(at + kEntryPhyOffsetAt);
        const int64_t timeDiff = readInt32(at + kEntryTimeDiffAt);
        const int32_t prev = readInt32(at + kEntryPrevAt);
        if (timeDiff < 0)
            break;
        const int64_t timeRead = fileBegin + timeDiff * 1000;
        if (hashRead == hash && timeRead >= begin && timeRead <= end)
            phyOffsets.push_back(phyOffsetRead);
        // RocketMQ stops on prev == current; entries only ever link to older (smaller) numbers,
        // so prev >= current is the same test for a sound file and ends a damaged cyclic chain.
        if (prev <= 0 || prev > count || prev >= current || timeRead < begin)
            break;
        current = prev;
    }
}

IndexHeader IndexFile::header() const
{
    IndexHeader h;
    h.indexCount = indexCount(); // acquire first: the fields below are at least this new
    h.beginTimestamp = beginTimestamp();
    h.endTimestamp = endTimestamp();
    h.beginPhyOffset = beginPhyOffset();
    h.endPhyOffset = endPhyOffset();
    h.hashSlotCount = hashSlotCount();
    return h;
}

void IndexFile::readHeader()
{
    beginTimestamp_ = readInt64(base_ + kBeginTimestampAt);
    endTimestamp_ = readInt64(base_ + kEndTimestampAt);
    beginPhyOffset_ = readInt64(base_ + kBeginPhyOffsetAt);
    endPhyOffset_ = readInt64(base_ + kEndPhyOffsetAt);
    hashSlotCount_ = readInt32(base_ + kHashSlotCountAt);
    const int32_t count = readInt32(base_ + kIndexCountAt);
    indexCount_ = count <= 0 ? 1 : count; // a file that never got an entry reads 0
}

void IndexFile::writeHeader()
{
    writeInt64(base_ + kBeginTimestampAt, beginTimestamp_.load(std::memory_order_relaxed));
    writeInt64(base_ + kEndTimestampAt, endTimestamp_.load(std::memory_order_relaxed));
    writeInt64(base_ + kBeginPhyOffsetAt, beginPhyOffset_.load(std::memory_order_relaxed));
    writeInt64(base_ + kEndPhyOffsetAt, endPhyOffset_.load(std::memory_order_relaxed));
    writeInt32(base_ + kHashSlotCountAt, hashSlotCount_.load(std::memory_order_relaxed));
    writeInt32(base_ + kIndexCountAt, indexCount_.load(std::memory_order_relaxed));
}

bool IndexFile::flush(std::string &error)
{
    writeHeader();
    // The whole mapping, as MappedByteBuffer.force() does: entries and slots are scattered.
    if (::msync(base_, static_cast<size_t>(fileSize()), MS_SYNC) != 0) {
        error = "cannot flush " + path() + ": " + std::strerror(errno);
        return false;
    }
    flushedIndexCount_ = indexCount();
    return true;
}

bool IndexFile::destroy(std::string &error)
{
    base_ = nullptr;
    if (!file_->destroy(error))
        return false;
    return syncDirectoryOf(file_->path(), error);
}

} // namespace mqdesk::store
