#pragma once

// The message index (store-format §6, RocketMQ's IndexService): the files under <root>/index,
// oldest first, of which only the last one takes new entries. Looks messages up by
// `topic#UNIQ_KEY` and `topic#key` for every key in KEYS.
//
// Threading:
//   - buildIndex() is called only from the dispatch thread.
//   - queryOffset(), files(), fileCount() and totalSize() may be called from any thread, also
//     while buildIndex() runs: they hold filesMutex_ shared for their whole walk, and the entry
//     publication order of IndexFile (entry, then slot, then header count) keeps every chain they
//     follow complete.
//   - load(), buildIndex(), deleteExpiredFiles(), flush() and shutdown() serialise on
//     writeMutex_; they take filesMutex_ exclusively only to add or remove a file.
// Lock order: writeMutex_ → filesMutex_.

#include "broker/store/dispatch_request.h"
#include "broker/store/index_file.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {

class StoreCheckpoint;
struct MessageStoreConfig;

struct QueryOffsetResult
{
    // Newest file first, newest entry first within a file. May hold offsets of messages whose
    // key only shares the hash: the caller reads each message and compares its keys.
    std::vector<int64_t> phyOffsets;
    int64_t indexLastUpdateTimestamp = 0; // the newest file's endTimestamp (0 without files)
    int64_t indexLastUpdatePhyOffset = 0; // the newest file's endPhyOffset
};

// One index file as the store explorer shows it; header values are the live in-memory ones
// (indexCount ≥ 1 even where the disk still reads 0).
struct IndexFileInfo
{
    std::string path;
    int64_t fileSize = 0;
    IndexHeader header;
    bool full = false;
};

// `yyyyMMddHHmmssSSS` of `epochMillis` in the local time zone (RocketMQ's
// UtilAll.timeMillisToHumanString), e.g. 1700000000123 → "20231114221320123" in UTC.
std::string indexFileName(int64_t epochMillis);

class IndexService
{
public:
    static constexpr int kDefaultMaxMsgsNumBatch = 64; // RocketMQ's maxMsgsNumBatch

    // Files live in <storeRootDir>/index. Requires hashSlotNum ≥ 1 and indexNum ≥ 2.
    IndexService(const std::string &storeRootDir, int32_t hashSlotNum, int32_t indexNum);
    // rootDir()/index with maxHashSlotNum and maxIndexNum.
    explicit IndexService(const MessageStoreConfig &config);
    ~IndexService();
    IndexService(const IndexService &) = delete;
    IndexService &operator=(const IndexService &) = delete;

    const std::string &directory() const { return directory_; }
    int32_t hashSlotNum() const { return hashSlotNum_; }
    int32_t indexNum() const { return indexNum_; }

    // Opens the index files in name order (§11.1 step 4, after the checkpoint is loaded).
    // After an abnormal exit (!lastExitOk) every file whose endTimestamp is newer than
    // checkpoint.indexMsgTimestamp() is deleted: it was not flushed completely, and re-dispatch
    // rebuilds it. Leftovers of an interrupted file creation are removed. A name that is not
    // all digits or a file of the wrong size is an error naming the file.
    // `checkpoint` must outlive the service: a filled file advances its indexMsgTimestamp.
    bool load(bool lastExitOk, StoreCheckpoint &checkpoint, std::string &error);

    // Indexes one dispatched record (§6.3): nothing for transaction ROLLBACK records or for a
    // commit-log offset below the current file's endPhyOffset (re-dispatch protection; a record
    // at exactly endPhyOffset is indexed again, as in RocketMQ); else `topic#uniqKey` when
    // uniqKey is not empty, then `topic#k` for every non-empty space-separated token of keys.
    // Rolls to a new file when the last one is full. Returns false with `error` naming the file
    // when a file could not be created or flushed; entries written before stay valid.
    // Requires: load() succeeded; called from the dispatch thread only.
    bool buildIndex(const DispatchRequest &request, std::string &error);

    // Physical offsets of the messages indexed under `topic#key` with store time in
    // [begin, end] (§6.4), at most min(maxNum, maxMsgsNumBatch). Any thread.
    QueryOffsetResult queryOffset(std::string_view topic, std::string_view key, int maxNum, int64_t begin,
                                  int64_t end, int maxMsgsNumBatch = kDefaultMaxMsgsNumBatch) const;

    // Retention (§15): deletes leading files whose endPhyOffset < commitLogMinOffset, never the
    // last one, stopping at the first file that is still needed.
    bool deleteExpiredFiles(int64_t commitLogMinOffset, std::string &error);

    // Recovery: deletes the newest files while they hold entries at or beyond `commitLogEnd` —
    // entries of records the commit log no longer has. Left in place they would also make the
    // re-dispatch protection skip the new records written at those offsets. Returns how many
    // files went; re-dispatch from the new end rebuilds what they held below commitLogEnd.
    bool truncateDirtyFiles(int64_t commitLogEnd, int &deleted, std::string &error);

    // Writes the header of and forces every file changed since its last flush; each full file
    // flushed advances checkpoint.indexMsgTimestamp to its endTimestamp (checkpoint flushed).
    bool flush(std::string &error);
    // flush(), then closes every file. buildIndex() fails afterwards.
    bool shutdown(std::string &error);

    std::vector<IndexFileInfo> files() const;
    size_t fileCount() const;
    int64_t totalSize() const; // bytes of all index files

private:
    IndexFile *writableFile(std::string &error, std::string &flushError);
    bool putKey(IndexFile *&file, const std::string &key, const DispatchRequest &request, std::string &error,
                std::string &flushError);
    bool flushFile(IndexFile &file, std::string &error);
    std::string nextFileName(const std::string &lastName) const;

    std::string directory_;
    int32_t hashSlotNum_;
    int32_t indexNum_;
    StoreCheckpoint *checkpoint_ = nullptr;
    bool shutDown_ = false;

    std::mutex writeMutex_;
    mutable std::shared_mutex filesMutex_;
    std::vector<std::unique_ptr<IndexFile>> files_; // oldest first
};

} // namespace mqdesk::store
