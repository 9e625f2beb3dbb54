#pragma once

// One index file, `index/<yyyyMMddHHmmssSSS>` (store-format §6, RocketMQ's IndexFile and
// IndexHeader): a 40-byte header, `hashSlotNum` 4-byte slots and `indexNum` 20-byte entries,
// all big-endian, sized to 40 + hashSlotNum×4 + indexNum×20 bytes. The file is sparse, as
// Java's: the header and slots (written anywhere) are reserved when the file is created, or
// by the first entry added after it is loaded; the entries (written in order) as they are
// appended (MappedFile::Reservation).
//
// Every slot holds the 1-based number of the newest entry of its bucket; each entry links to the
// previous entry of the same bucket, so a bucket is a newest-first chain. Entry 0 is never used
// and the header's indexCount is entries + 1.
//
// Threading: one writer (putKey, flush) — the caller serialises them. Any number of readers
// (selectPhyOffsets, isTimeMatched, the getters) may run concurrently with the writer: putKey
// writes the entry before publishing it in its slot (release) and publishes the header's
// indexCount last (release), and readers load indexCount, then the slot (acquire) before
// following a chain, so every entry a reader reaches is completely written.
// destroy() requires that no reader and no writer uses the file any more.

#include "broker/store/mapped_file.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {

// The header values (§6.1). indexCount is entries + 1: a fresh file reads 0 on disk until its
// first entry or flush; in memory it is at least 1, as in RocketMQ.
struct IndexHeader
{
    int64_t beginTimestamp = 0;
    int64_t endTimestamp = 0;
    int64_t beginPhyOffset = 0;
    int64_t endPhyOffset = 0;
    int32_t hashSlotCount = 0;
    int32_t indexCount = 1;
};

class IndexFile
{
public:
    static constexpr int64_t kHeaderSize = 40;
    static constexpr int64_t kHashSlotSize = 4;
    static constexpr int64_t kIndexSize = 20;

    static int64_t fileSizeFor(int32_t hashSlotNum, int32_t indexNum)
    {
        return kHeaderSize + int64_t{hashSlotNum} * kHashSlotSize + int64_t{indexNum} * kIndexSize;
    }

    // Creates a new file at `path`. A file following a full one gets that file's end values as
    // its begin and end values (each only when > 0, the §6.2 quirk): its first entry's timeDiff
    // is computed against the inherited beginTimestamp. Requires hashSlotNum ≥ 1, indexNum ≥ 2.
    static std::unique_ptr<IndexFile> create(const std::string &path, int32_t hashSlotNum, int32_t indexNum,
                                             int64_t prevEndPhyOffset, int64_t prevEndTimestamp,
                                             std::string &error);
    // Opens an existing file and reads its header. A size other than fileSizeFor() or an
    // indexCount beyond indexNum is an error naming the file.
    static std::unique_ptr<IndexFile> load(const std::string &path, int32_t hashSlotNum, int32_t indexNum,
                                           std::string &error);
    ~IndexFile();
    IndexFile(const IndexFile &) = delete;
    IndexFile &operator=(const IndexFile &) = delete;

    // RocketMQ 5.5 also indexes every record with a non-empty TAGS under "<topic>#T#<TAGS>"
    // (IndexService#buildIndex, index type "T"); MQDesk writes them too, and readers accept them.
    static constexpr std::string_view kTagKeyInfix = "#T#";

    // abs(Java String.hashCode(key)), and 0 for Integer.MIN_VALUE whose abs stays negative.
    static int32_t keyHash(std::string_view key);

    const std::string &path() const { return file_->path(); }
    std::string fileName() const;
    int64_t fileSize() const { return file_->fileSize(); }
    int32_t hashSlotNum() const { return hashSlotNum_; }
    int32_t indexNum() const { return indexNum_; }

    // Adds `key` (already "topic#key") for the message at `phyOffset`. Returns false, changing
    // nothing, when the file is full (`error` left empty) or the disk cannot hold the entry
    // (`error` naming the file and the cause). Requires: the single writer.
    bool putKey(std::string_view key, int64_t phyOffset, int64_t storeTimestamp, std::string &error);
    // indexCount ≥ indexNum: at most indexNum − 1 entries fit.
    bool isFull() const { return indexCount() >= indexNum_; }

    // Whether [begin, end] overlaps [beginTimestamp, endTimestamp] (RocketMQ's isTimeMatched).
    bool isTimeMatched(int64_t begin, int64_t end) const;
    // Appends to `phyOffsets`, newest first, the offsets of the entries whose key hash equals
    // that of `key` and whose time (beginTimestamp + timeDiff×1000) lies in [begin, end],
    // until phyOffsets holds `maxNum`. The chain walk stops at the first entry older than
    // `begin`. Hash collisions are not resolved: the caller compares the messages' keys.
    void selectPhyOffsets(std::vector<int64_t> &phyOffsets, std::string_view key, int maxNum, int64_t begin,
                          int64_t end) const;

    int64_t beginTimestamp() const { return beginTimestamp_.load(std::memory_order_acquire); }
    int64_t endTimestamp() const { return endTimestamp_.load(std::memory_order_acquire); }
    int64_t beginPhyOffset() const { return beginPhyOffset_.load(std::memory_order_acquire); }
    int64_t endPhyOffset() const { return endPhyOffset_.load(std::memory_order_acquire); }
    int32_t hashSlotCount() const { return hashSlotCount_.load(std::memory_order_acquire); }
    int32_t indexCount() const { return indexCount_.load(std::memory_order_acquire); }
    IndexHeader header() const;

    // Writes the header into the file and forces the whole file to disk (RocketMQ's
    // IndexFile#flush). Requires: the single writer.
    bool flush(std::string &error);
    // Whether entries (or, for a new file, the header) changed since the last flush or load.
    // Requires: the single writer.
    bool hasUnflushedChanges() const { return indexCount() != flushedIndexCount_; }
    // Unmaps and deletes the file, then syncs the directory.
    bool destroy(std::string &error);

private:
    static constexpr MappedFile::Reservation kReservation = MappedFile::Reservation::AsAppended;

    IndexFile(std::unique_ptr<MappedFile> file, int32_t hashSlotNum, int32_t indexNum);

    // The end of the header and slots: the part reserved whole.
    static int64_t slotsEnd(int32_t hashSlotNum) { return kHeaderSize + int64_t{hashSlotNum} * kHashSlotSize; }

    int64_t slotPosition(int32_t keyHash) const
    {
        return kHeaderSize + int64_t{keyHash % hashSlotNum_} * kHashSlotSize;
    }
    int64_t entryPosition(int32_t entry) const
    {
        return slotsEnd(hashSlotNum_) + int64_t{entry} * kIndexSize;
    }
    int32_t loadSlot(int64_t position, std::memory_order order) const;
    void storeSlot(int64_t position, int32_t value);
    void readHeader();
    void writeHeader();

    std::unique_ptr<MappedFile> file_;
    uint8_t *base_; // the writable mapping (index files never get a transient buffer)
    int32_t hashSlotNum_;
    int32_t indexNum_;
    std::atomic<int64_t> beginTimestamp_{0};
    std::atomic<int64_t> endTimestamp_{0};
    std::atomic<int64_t> beginPhyOffset_{0};
    std::atomic<int64_t> endPhyOffset_{0};
    std::atomic<int32_t> hashSlotCount_{0};
    std::atomic<int32_t> indexCount_{1};
    int32_t flushedIndexCount_ = 0; // writer only; 0 (never a count) until the first flush
};

} // namespace mqdesk::store
