#pragma once

// One file of a mapped-file queue (store-format §2): named by the absolute offset of its first
// byte, full size from birth, memory-mapped read-write for its whole size. A write through the
// mapping into a block the file system cannot allocate raises SIGBUS, so every byte is written
// only where its block is reserved (fallocate) and a full disk fails that reservation cleanly:
//   Reservation::Whole      — every block at creation (files written all over from birth);
//   Reservation::AsWritten  — the file is made sparse and blocks are reserved ahead of the
//                             writer in kReserveChunk steps by reserveThrough() (consume queues:
//                             a topic of 1,024 queues has 1,024 files of 6 MB, most never filled;
//                             Java's are sparse too); read at random (no read-around);
//   Reservation::AsAppended — sparse, reserved ahead of the writer in kAppendReserveChunk steps,
//                             read in order (the commit log, the timer log, the index's entries).
//                             A broker that holds a few messages takes a few MiB of disk, not the
//                             2.6 GB of its 1 GiB commit log files (and the next one made ahead),
//                             index and timer log reserved whole: tests that start eight brokers
//                             side by side filled the disk of a CI machine that way.
//
// Positions (never persisted, §2.4):
//   wrote     — bytes appended (into the transient buffer when one is attached, else the mapping)
//   committed — bytes in the file itself; equals wrote when no transient buffer is attached
//   flushed   — bytes known to be on disk
// Invariant: flushed <= committed <= wrote <= fileSize.
//
// Threading: one appender (the commit log's put lock holder) advances `wrote`; commit() and
// flush() are called with the owning queue's commit / flush mutex held; readers may read any
// byte below readPosition() from any thread.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {

inline constexpr int64_t kOsPageSize = 4096;

class MappedFile
{
public:
    enum class Reservation { Whole, AsWritten, AsAppended };
    // Reservation::AsWritten reserves this much ahead of the writer at a time (3,276 consume
    // queue entries): one fallocate per chunk on the put path.
    static constexpr int64_t kReserveChunk = 64 * 1024;
    // Reservation::AsAppended's step: one fallocate per ~1,000 puts of 1 KiB.
    static constexpr int64_t kAppendReserveChunk = 1024 * 1024;

    // Opens (and with `create`, creates) the file at `path` of exactly `fileSize` bytes.
    // On failure returns nullptr and sets `error` to a message naming the file and the cause.
    // An opened sparse file starts with nothing counted as reserved: the writer's first
    // reserveThrough() re-reserves what is already there (cheap: those blocks exist).
    static std::unique_ptr<MappedFile> open(const std::string &path, int64_t fileFromOffset,
                                            int64_t fileSize, bool create, std::string &error,
                                            Reservation reservation = Reservation::Whole);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    const std::string &path() const { return path_; }
    int64_t fileFromOffset() const { return fileFromOffset_; }
    int64_t fileSize() const { return fileSize_; }
    const uint8_t *data() const { return mapped_; } // the mapping: committed bytes are here

    int64_t wrotePosition() const { return wrote_.load(std::memory_order_acquire); }
    int64_t committedPosition() const { return committed_.load(std::memory_order_acquire); }
    int64_t flushedPosition() const { return flushed_.load(std::memory_order_acquire); }
    // What readers may see: committed bytes only (with a transient buffer, uncommitted bytes
    // exist only in the buffer).
    int64_t readPosition() const { return committedPosition(); }
    bool isFull() const { return wrotePosition() == fileSize_; }
    int64_t lastStoreTimestamp() const { return storeTimestamp_.load(std::memory_order_acquire); }

    // Appending. Requires: the caller is the single appender.
    uint8_t *appendTarget()
    {
        uint8_t *buffer = transientBuffer_.load(std::memory_order_relaxed);
        return buffer ? buffer : mapped_;
    }
    void advanceWrote(int64_t bytes, int64_t storeTimestamp);
    // writeWithoutMmap: puts `bytes` at `position` of the file with pwrite instead of through
    // the mapping (readers still read the mapping: Linux has one page cache for both). Returns
    // false with `error` naming the file when the write failed; nothing is advanced then.
    // Requires: the single appender, no transient buffer attached.
    bool writeAt(int64_t position, const uint8_t *bytes, int64_t size, std::string &error);

    // Makes sure the blocks of [0, end) are reserved (sparse files: through `end` rounded up to
    // their chunk, at most the file size), so writes there cannot meet a full disk. False with
    // `error` naming the file and the cause (ENOSPC) when they cannot be. Any thread.
    bool reserveThrough(int64_t end, std::string &error);
    int64_t reservedEnd() const { return reserved_.load(std::memory_order_acquire); }

    // Sets all three positions (load and recovery). Requires: no concurrent appender.
    void setPositions(int64_t position);

    // Copies [committed, wrote) from the transient buffer into the file when at least
    // `leastPages` pages are pending (0: anything; a full file always). Returns the committed
    // position, or -1 with `error` set when the write failed.
    // Requires: the queue's commit mutex.
    int64_t commit(int leastPages, std::string &error);
    // Forces [flushed, readPosition) to disk under the same page rule. Returns the flushed
    // position, or -1 with `error` set when the sync failed. Requires: the queue's flush mutex.
    int64_t flush(int leastPages, std::string &error);

    // Transient store pool. Requires: the put lock and the commit mutex.
    bool hasTransientBuffer() const { return transientBuffer_.load(std::memory_order_acquire) != nullptr; }
    void attachTransientBuffer(uint8_t *buffer);
    uint8_t *detachTransientBuffer(); // requires committed == wrote

    // warmMapedFileEnable: writes zeros over the whole (new, still empty) file and syncs every
    // `syncEveryPages` pages and at the end, so later flushes find the blocks already written
    // instead of converting fallocate's unwritten extents (a journal commit per flush on ext4).
    // Stops early, leaving the rest as it was, once `keepGoing` returns false. Returns the bytes
    // warmed, or -1 with `error` set. Requires: no appender yet.
    int64_t warm(int syncEveryPages, const std::function<bool()> &keepGoing, std::string &error);

    // Zeroes [position, fileSize) so stale bytes past a recovered tail can never be mistaken
    // for records later (sparse files: by punching a hole, so they stay sparse). Returns
    // false with `error` set on failure. Requires: no concurrent appender.
    bool zeroFrom(int64_t position, std::string &error);
    // Deletes the file's name; the mapping and descriptor are released with the object.
    bool destroy(std::string &error);

private:
    MappedFile(std::string path, int64_t fileFromOffset, int64_t fileSize, int fd, uint8_t *mapped,
               Reservation reservation);
    // zeroFrom's part past the first page boundary.
    bool zeroTail(int64_t pageEnd, std::string &error);
    static bool isAbleTo(int64_t target, int64_t done, int64_t fileSize, int leastPages);

    std::string path_;
    int64_t fileFromOffset_;
    int64_t fileSize_;
    int fd_;
    uint8_t *mapped_;
    std::atomic<uint8_t *> transientBuffer_{nullptr};
    std::atomic<int64_t> wrote_{0};
    std::atomic<int64_t> committed_{0};
    std::atomic<int64_t> flushed_{0};
    std::atomic<int64_t> storeTimestamp_{0};
    Reservation reservation_;
    std::atomic<int64_t> reserved_{0}; // blocks of [0, reserved_) are allocated
};

// Fault injection for tests, in the spirit of LevelDB's fault-injecting Env: the next `count`
// data syncs (fdatasync) of any mapped file in the process fail with `error` (errno) instead
// of reaching the disk. Costs one relaxed atomic load per sync when unused.
void failNextDataSyncsForTesting(int count, int error = 5 /* EIO */);
// The same for the next `count` pwrites of writeWithoutMmap appends and warm-ups.
void failNextWritesForTesting(int count, int error = 5 /* EIO */);

// The 20-digit zero-padded decimal name of the file starting at `offset`.
std::string offsetToFileName(int64_t offset);

// A file being created carries this suffix until it has its full size; load() removes leftovers.
inline constexpr const char *kCreatingSuffix = ".creating";

// The names of a store directory's files in name order (RocketMQ's order), creating the
// directory when missing and removing creation leftovers. A file whose name fails
// `isFileName` is an error naming it and `nameRule` ("20-digit offsets"); sub-directories
// are skipped.
bool listStoreFileNames(const std::string &directory, bool (*isFileName)(std::string_view),
                        std::string_view nameRule, std::vector<std::string> &names, std::string &error);

// Whether `path` is the leftover of a file creation a crash interrupted — `<name>.creating`
// where `isFileName(name)` — and if so removes it (it never held data). A leftover that cannot
// be removed is harmless: it is skipped again next time.
bool removeCreationLeftover(const std::string &path, bool (*isFileName)(std::string_view));

// fsyncs the directory holding `path`, making a created, renamed or deleted name durable.
bool syncDirectoryOf(const std::string &path, std::string &error);
bool syncDirectory(const std::string &directory, std::string &error);

} // namespace mqdesk::store
