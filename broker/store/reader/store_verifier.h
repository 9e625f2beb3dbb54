#pragma once

// The store health check over a StoreReader (read-only, like the reader): every fault names its
// file, the byte offset in that file, a short stable kind and a message.
//
// Fault kinds (stable identifiers; scripts match on them):
//   file-name                a file whose name does not fit its directory (not 20 digits in
//                            commitlog/ or a consume queue, not digits in index/)
//   file-size                a file whose size differs from its siblings' (or checkpoint ≠ 4096);
//                            offset = where it ends
//   file-offset, file-gap    a mapped file not on a file-size boundary, or not following the
//                            previous file directly
//   record-magic             commit-log bytes that should start a record but have no valid magic
//   record-length            a record whose lengths disagree with each other or with the file
//   record-crc               a record whose body does not match BODYCRC
//   record-position          a record whose PHYSICALOFFSET is not its position
//   record-blank             an end-of-file record whose size is not the rest of the file
//   commitlog-zero-gap       zero bytes inside a file's data, with more data after them
//   commitlog-no-end-record  a file followed by data in later files whose data stops without the
//                            end-of-file record
//   recovery-normal, recovery-abnormal
//                            where that recovery would stop, when it would not stop at the clean
//                            end of the data or would drop valid records (with bytes truncated)
//   cq-invalid-entry         an entry recovery rejects (offset < 0 or size ≤ 0), also a zero entry
//                            with entries after it (in its file, or zeros up to the end of a file
//                            the queue goes on after)
//   cq-past-end              an entry pointing past the end of the commit-log data
//   cq-bad-target            an entry where no record starts
//   cq-wrong-record          an entry whose record has another topic, queue, queue offset or size
//   cq-tags-code             an entry whose tags code is not the hash of the record's TAGS
//   index-layout             an index file whose slot and entry counts cannot be told
//   index-header             an index header whose indexCount exceeds the file
//   index-bad-slot           a slot naming an entry that does not exist
//   index-bad-chain          an entry whose prev link does not point at an older entry
//   index-past-end           an entry pointing past the end of the commit-log data
//   index-bad-target         an entry where no record starts
//   index-hash-mismatch      an entry whose record carries no key with the entry's hash
//   config-parse             a config file that does not parse (offset: the syntax error's byte)
//   fault-limit              more faults in that file than the limit; the rest are not listed
//   verify-error             a check that stopped on an exception (no file; the message says which
//                            check and why); the other checks ran
//   timer-*                  the timer files (timerwheel, timerlog/, config/timercheck,
//                            config/timermetrics): see store_timer_reader.h

#include "broker/store/reader/store_reader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mqdesk::store {

struct StoreFault
{
    std::string file;   // relative to the store root, e.g. "commitlog/00000000000000008192"
    int64_t offset = 0; // byte offset within that file
    std::string kind;
    std::string message;
};

// What MQDesk's CommitLog::recover (commit_log_recovery.cpp) would do to the commit log now.
struct RecoverySimulation
{
    bool abnormal = false;
    bool wouldOpen = true; // false: loading the commit log fails first (openError says why)
    std::string openError;
    int64_t startOffset = 0;   // the file the validating scan would start at
    int64_t stopOffset = 0;    // where the scan would stop
    std::string stopFile;      // relative path of the file holding stopOffset
    int64_t stopFilePosition = 0; // stopOffset within stopFile
    std::string stopReason;
    bool cleanEnd = true;      // stops at zeros or the final end-of-file record
    int64_t processOffset = 0; // the log's end after recovery
    int64_t previousEnd = 0;   // end of the last file now
    int64_t truncatedBytes = 0; // previousEnd − processOffset: zeroed or deleted
    int filesDeleted = 0;
    uint64_t recordsScanned = 0;
    uint64_t recordsLost = 0; // valid records at or after processOffset
};

struct VerifyOptions
{
    bool checkCrc = true; // checkCRCOnRecover: whether recovery stops at a CRC mismatch
    size_t maxFaultsPerFile = 100;
    // Called about every 64 MiB with bytes done and the total; false cancels.
    ScanProgress progress;
};

struct VerifyReport
{
    std::vector<StoreFault> faults;
    RecoverySimulation normalRecovery;
    RecoverySimulation abnormalRecovery;
    bool abortPresent = false; // the next start runs abnormal recovery
    bool live = false;         // a process holds the lock: the tail may change while scanned
    uint64_t records = 0;      // message records found in the commit log
    int64_t commitLogDataEnd = 0;
    int64_t bytesScanned = 0;  // commit-log bytes
    uint64_t consumeQueueEntries = 0;
    uint64_t indexEntries = 0;
    bool cancelled = false;

    bool healthy() const { return faults.empty() && !cancelled; }
};

VerifyReport verifyStore(const StoreReader &reader, const VerifyOptions &options = {});

} // namespace mqdesk::store
