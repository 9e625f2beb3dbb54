#pragma once

// StoreReader: a strictly read-only view of a RocketMQ store directory — written by MQDesk or by
// the Java broker — for the store explorer, `mqdesk-admin store …` and the health check
// (store_verifier.h). Formats: store-format §1–§7.
//
// Contract: the reader never writes, creates, renames or deletes anything under the root and never
// takes the lock. Files are opened O_RDONLY (O_NOATIME where allowed) and mapped
// PROT_READ/MAP_SHARED. It works on read-only directories and on a store a live broker is writing:
// every call lists the directories again and re-maps a file whose identity or size changed, so the
// view follows appended records, new files and deleted ones.
//
// Mapped-file sizes are inferred from the files (all files of a family should agree; the most
// common size wins and the verifier names the others) unless StoreReaderOptions gives them.
//
// Every file operation goes through StoreReaderOptions::files (reader_files.h): the real file
// system by default, a store held in memory for tests and the fuzz targets.
//
// Threading: every function may be called from any thread, concurrently. A FileView keeps its
// mapping alive for as long as it is held, even after a broker deletes the file.
// Hazard: a mapped file that another program truncates in place faults (SIGBUS) when the cut part
// is read. RocketMQ and MQDesk never shrink store files (they delete whole files and MQDesk zeroes
// tails), so this only concerns foreign tools.

#include "broker/common/json.h"
#include "broker/common/message.h"
#include "broker/store/batch_consume_queue.h"
#include "broker/store/index_file.h"
#include "broker/store/reader/reader_files.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {
class ConfigManager;
}

namespace mqdesk::store {

enum class StoreFileKind { CommitLog, ConsumeQueue, Index, Checkpoint, Abort, Lock, Config, Other };
// "commitlog", "consumequeue", "index", "checkpoint", "abort", "lock", "config", "other".
std::string_view storeFileKindName(StoreFileKind kind);

// Every regular file under the root, as listFiles() reports it.
struct StoreFileInfo
{
    std::string relativePath; // from the root, '/'-separated, e.g. "consumequeue/abc/0/00000000000000000000"
    StoreFileKind kind = StoreFileKind::Other;
    int64_t size = 0;
    int64_t modifiedMillis = 0;
    int64_t startOffset = -1; // commit-log and consume-queue files: the offset their 20-digit name gives
};

// One file of a mapped-file family (the commit log, one consume queue).
struct MappedFileInfo
{
    std::string path;        // absolute
    std::string name;
    int64_t startOffset = -1; // from the name; -1 when it is not 20 digits
    int64_t size = 0;
};

struct MappedFamily
{
    std::string directory;
    int64_t fileSize = 0;               // given or inferred; 0 without files
    std::vector<MappedFileInfo> files;  // 20-digit names, ascending
    std::vector<MappedFileInfo> strays; // any other name (".creating" leftovers included)
};

// A read-only mapping of one file as it was when mapped (a file that grew is re-mapped by the
// next reader call; MAP_SHARED shows bytes written into the mapped range at once).
class FileView
{
public:
    ~FileView() = default;
    FileView(const FileView &) = delete;
    FileView &operator=(const FileView &) = delete;

    const std::string &path() const { return path_; }
    const std::string &name() const { return name_; }
    int64_t startOffset() const { return startOffset_; } // mapped families; -1 otherwise
    int64_t size() const { return size_; }
    std::span<const uint8_t> bytes() const { return {data_, static_cast<size_t>(size_)}; }

private:
    friend class StoreReader;
    FileView() = default;

    std::string path_;
    std::string name_;
    int64_t startOffset_ = -1;
    int64_t size_ = 0;
    const uint8_t *data_ = nullptr;
    std::shared_ptr<const uint8_t> mapping_; // owns data_
    uint64_t device_ = 0;
    uint64_t inode_ = 0;
};
using FileViewPtr = std::shared_ptr<const FileView>;

// The commit log's files mapped at one moment, for callers that read many records.
struct CommitLogSnapshot
{
    int64_t fileSize = 0;
    std::vector<FileViewPtr> files; // ascending start offsets; 20-digit names only

    // The file whose bytes hold `offset` (start ≤ offset < start + its size), or nullptr.
    const FileView *fileFor(int64_t offset) const;
    int64_t minOffset() const { return files.empty() ? 0 : files.front()->startOffset(); }
};

enum class RecordKind {
    Message, // a record with valid magic and lengths (see crcOk / positionOk)
    Blank,   // the end-of-file record: reading continues at the next file
    Invalid, // bytes that are no record; `error` says why and `size` how many were skipped
};

struct CommitLogRecord
{
    int64_t offset = 0; // absolute commit-log offset
    int32_t size = 0;
    RecordKind kind = RecordKind::Invalid;
    std::string file; // name of the file holding it
    common::StoredMessage message; // Message only
    bool crcOk = true;      // Message: BODYCRC matches the body
    bool positionOk = true; // Message: PHYSICALOFFSET equals `offset`
    std::string error;      // Invalid only
};

struct RecordQuery
{
    int64_t fromOffset = 0; // an offset in a gap between files moves on to the next file
    size_t limit = 100;     // entries returned, markers included
    // Filters on messages; empty matches all. `tag` may list alternatives as "A || B"; `key`
    // matches a KEYS token or the UNIQ_KEY. (Braced so designated initializers may omit them.)
    std::string topic{};
    std::string tag{};
    std::string key{};
    bool includeMarkers = true; // invalid entries, and blank ones when no filter is set
    int64_t maxScanBytes = 0;   // >0: stop after scanning this many bytes; nextOffset resumes
};

struct RecordPage
{
    std::vector<CommitLogRecord> records;
    int64_t nextOffset = 0; // where the next page starts
    bool atEnd = false;     // the end of the data was reached (a live store may grow past it)
};

struct ConsumeQueueInfo
{
    std::string topic;
    int32_t queueId = 0;
    std::string directory;
    std::vector<MappedFileInfo> files;
    int64_t minOffset = 0; // queue offset of the first file's first entry
    int64_t maxOffset = 0; // queue offset after the last entry (the next to be written)
    // A BatchCQ queue (batchconsumequeue/, 46-byte units holding batchSize messages each).
    bool batch = false;
    int64_t unitSize() const { return batch ? BatchConsumeQueue::kUnitSize : SimpleConsumeQueue::kEntrySize; }
};

struct ConsumeQueueRead
{
    int64_t queueOffset = 0; // of the entry's (first) message; entry.batchSize messages from it
    ConsumeQueueEntry entry;
    bool valid = true; // recovery's rule (§5.3): offset ≥ 0 and size > 0; fillers are valid
    std::string file;  // name of the file holding it
    int64_t filePosition = 0;
};

struct ConsumeQueuePage
{
    std::vector<ConsumeQueueRead> entries;
    int64_t nextQueueOffset = 0;
    bool atEnd = false;
};

// One index file. `header` is as stored: indexCount reads 0 in a file that never got an entry.
struct IndexFileSummary
{
    MappedFileInfo file;
    IndexHeader header;
    int32_t hashSlotNum = 0; // 0 when the layout is unknown (layoutError says why)
    int32_t indexNum = 0;
    std::string layoutError;
};

struct IndexChainStep
{
    int32_t entry = 0; // 1-based entry number
    int64_t filePosition = 0;
    int32_t keyHash = 0;
    int64_t phyOffset = 0;
    int32_t timeDiff = 0;  // seconds after the header's beginTimestamp
    int64_t timestamp = 0; // beginTimestamp + timeDiff × 1000
    int32_t prev = 0;
    bool hashMatches = false;
    // Whether the record at phyOffset carries the key (topic and a KEYS token or UNIQ_KEY);
    // empty when no record could be read there.
    std::optional<bool> recordHasKey;
};

struct IndexKeyLookup
{
    std::string file; // name of the index file
    std::string indexKey; // "topic#key"
    int32_t keyHash = 0;
    int32_t slot = 0;
    int64_t slotPosition = 0;
    int32_t slotValue = 0;
    std::vector<IndexChainStep> chain; // newest first, as RocketMQ walks it
    std::string stopReason;
};

struct CheckpointValues
{
    int64_t fileSize = 0;
    int64_t physicMsgTimestamp = 0;
    int64_t logicsMsgTimestamp = 0;
    int64_t indexMsgTimestamp = 0;
    int64_t masterFlushedOffset = 0;
    int64_t confirmPhyOffset = 0;
    // As StoreCheckpoint::minTimestamp(): max(0, min(physic, logics) − 3000).
    int64_t minTimestamp() const;
};

enum class ConfigFormat { Json, Properties, Binary, Unknown };

struct ConfigFileContent
{
    std::string name; // e.g. "topics.json", "topics.json.bak"
    std::string path;
    int64_t size = 0;
    std::string text;
    ConfigFormat format = ConfigFormat::Unknown;
    bool parsed = false;         // decoded by its manager, or (without one) parsed as JSON/properties
    std::string error;           // why not; names the file (and line:column for JSON syntax)
    int64_t errorOffset = -1;    // byte offset of a syntax error in `text`
    common::JsonValue json;      // JSON files: the document
    std::map<std::string, std::string> properties; // broker.properties
    // topics.json → TopicConfigManager, consumerOffset.json → ConsumerOffsetManager, … (also for
    // their .bak files); nullptr for files without a manager or that did not decode.
    std::shared_ptr<store::ConfigManager> manager;
};

struct AbortInfo
{
    bool present = false;
    std::string content; // the pid of the broker that did not stop cleanly (may be empty)
    bool backupPresent = false;
    std::string backupContent;
};

struct StoreReaderOptions
{
    std::string commitLogDir;         // storePathCommitLog; default <root>/commitlog
    int64_t commitLogFileSize = 0;    // 0: inferred from the files
    int64_t consumeQueueFileSize = 0; // 0: inferred
    int32_t maxHashSlotNum = 0;       // 0 (both): inferred from each index file's size
    int32_t maxIndexNum = 0;
    std::shared_ptr<const ReaderFiles> files{}; // nullptr: realReaderFiles()
};

// Returns false to cancel a long scan; `done` and `total` are bytes (total 0: unknown).
using ScanProgress = std::function<bool(int64_t done, int64_t total)>;

class StoreReader
{
public:
    // Fails only when `rootDir` is not a readable directory.
    static std::unique_ptr<StoreReader> open(const std::string &rootDir, StoreReaderOptions options,
                                             std::string &error);
    ~StoreReader();
    StoreReader(const StoreReader &) = delete;
    StoreReader &operator=(const StoreReader &) = delete;

    const std::string &rootDir() const { return root_; }
    const StoreReaderOptions &options() const { return options_; }
    const ReaderFiles &files() const { return *options_.files; }

    // Every regular file under the root, by path; nothing is hidden. (A commit-log directory outside
    // the root is listed too, with absolute paths.)
    std::vector<StoreFileInfo> listFiles() const;

    // --- commit log (store_reader_log.cpp) ---
    MappedFamily commitLogFiles() const;
    CommitLogSnapshot commitLogSnapshot() const;
    // End of the readable data: after the last record of the last file holding data.
    int64_t commitLogDataEnd() const;
    RecordPage readRecords(const RecordQuery &query, const ScanProgress &progress = {}) const;
    // The last `limit` messages starting before `endOffset` (commitLogDataEnd() for the store's
    // last page), oldest first; nextOffset = endOffset, atEnd: no message precedes the page. The consume queues name record starts
    // near the end, so only those records are decoded; without usable entries the scan starts
    // at the beginning of a file (store_reader_tail.cpp).
    RecordPage readRecordsBefore(int64_t endOffset, size_t limit) const;
    // What starts at `offset` (a message, an end-of-file record or invalid bytes); nullopt past the
    // data or outside every file.
    std::optional<CommitLogRecord> readRecordAt(int64_t offset) const;
    // Raw bytes for a hex view; shorter at a file end.
    std::vector<uint8_t> readCommitLogBytes(int64_t offset, int64_t length) const;
    // The first record stored at or after `storeTimestamp` (files searched by their first record,
    // then a scan); commitLogDataEnd() when every record is older.
    int64_t offsetByTime(int64_t storeTimestamp) const;

    // --- consume queues (store_reader_queues.cpp) ---
    // The file size of the SimpleCQ queues (or, with `batch`, of the BatchCQ ones): the option,
    // or the size most of them have.
    int64_t consumeQueueFileSize(bool batch = false) const;
    std::vector<ConsumeQueueInfo> consumeQueues() const;
    std::optional<ConsumeQueueInfo> consumeQueue(const std::string &topic, int32_t queueId) const;
    // Entries from `fromQueueOffset` up to the end of the data: zeros with no entry after them in
    // the queue. A zero hole with entries after it is returned as invalid entries.
    ConsumeQueuePage readConsumeQueue(const std::string &topic, int32_t queueId, int64_t fromQueueOffset,
                                      size_t limit) const;
    // The first queue offset whose entry points at or after offsetByTime(storeTimestamp) (entries
    // follow the commit log's order, so a binary search over the queue); maxOffset when none does,
    // -1 without such a queue.
    int64_t consumeQueueOffsetByTime(const std::string &topic, int32_t queueId, int64_t storeTimestamp) const;
    // The first queue offset of `queue` whose entry points at or after `commitLogOffset`.
    int64_t consumeQueueOffsetAt(const ConsumeQueueInfo &queue, int64_t commitLogOffset) const;

    // --- index (store_reader_queues.cpp) ---
    std::vector<IndexFileSummary> indexFiles() const; // oldest first
    // Walks `topic#key`'s chain in every index file, newest file first.
    std::vector<IndexKeyLookup> lookupIndexKey(std::string_view topic, std::string_view key) const;
    // Non-empty slots in each of `buckets` equal ranges of the slot table (occupancy chart).
    std::vector<int64_t> indexSlotOccupancy(const std::string &fileName, int buckets) const;
    // Entries [firstEntry, firstEntry + count) of an index file, below its indexCount.
    std::vector<IndexChainStep> readIndexEntries(const std::string &fileName, int32_t firstEntry,
                                                 int32_t count) const;

    // --- small files ---
    std::optional<CheckpointValues> readCheckpoint(std::string *error = nullptr) const;
    AbortInfo readAbort() const;
    // Probes <root>/lock with F_OFD_GETLK on byte 0 through a read-only descriptor.
    LockState probeLock() const;
    // Top-level files of <root>/config, by name.
    std::vector<ConfigFileContent> configFiles() const;
    std::optional<ConfigFileContent> configFile(const std::string &name) const;

    // The mapping of a file (a path relative to the root, or absolute), or nullptr when it cannot
    // be read.
    FileViewPtr view(const std::string &relativePath) const;
    std::string relativePath(const std::string &absolutePath) const;

private:
    StoreReader(std::string root, StoreReaderOptions options);

    FileViewPtr mapFile(const std::string &path, const std::string &name, int64_t startOffset) const;
    // The regular files (links followed) directly in `directory`, unsorted; startOffset unset.
    std::vector<MappedFileInfo> regularFilesIn(const std::string &directory) const;
    MappedFamily listFamily(const std::string &directory, int64_t configuredSize) const;
    std::vector<FileViewPtr> mapFamily(const MappedFamily &family) const;
    std::optional<int64_t> dataEndOf(const FileView &file) const;
    IndexFileSummary summarizeIndexFile(const MappedFileInfo &file, const FileView *view) const;
    // The mapping of a summarised index file, nullptr unless its layout is known and still fits.
    FileViewPtr mapIndexFile(const IndexFileSummary &summary) const;
    std::optional<CommitLogRecord> decodeAt(const CommitLogSnapshot &log, int64_t offset) const;
    // Where to start scanning for the `limit` messages before `endOffset` (store_reader_tail.cpp).
    int64_t tailScanStart(const CommitLogSnapshot &log, int64_t endOffset, size_t limit) const;

    std::string root_;
    StoreReaderOptions options_;

    mutable std::mutex cacheMutex_;
    mutable std::map<std::string, FileViewPtr> cache_; // by absolute path; guarded by cacheMutex_
    // Where the last commitLogDataEnd() found the end, to continue from there (cacheMutex_).
    mutable std::string endCacheFile_;
    mutable uint64_t endCacheInode_ = 0;
    mutable int64_t endCacheLastRecord_ = -1; // position of the last record seen in that file
};

} // namespace mqdesk::store
