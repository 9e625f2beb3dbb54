#pragma once

// One run of verifyStore(), shared by store_verifier.cpp (files, commit log, recovery) and
// store_verifier_queues.cpp (consume queues, index, config). Not part of the interface.

#include "broker/store/reader/store_verifier.h"

#include <map>
#include <string>
#include <vector>

namespace mqdesk::store {

class VerifierRun
{
public:
    VerifierRun(const StoreReader &reader, const VerifyOptions &options, VerifyReport &report);

    void checkFiles();
    // Requires: checkFiles() and takeSnapshot() ran (checkFiles finds why the log would not load).
    void scanCommitLog();
    // Requires: scanCommitLog() ran.
    void simulateRecoveries();
    // Require: a snapshot (takeSnapshot or shareSnapshot); then resolvePending with the data end.
    void checkConsumeQueues();
    void checkIndex();
    void checkConfig();

    // The commit log's files as mapped now; scanCommitLog() and the checks read this snapshot.
    void takeSnapshot() { log_ = reader_.commitLogSnapshot(); }
    // Takes another run's snapshot, so this run checks the queues or the index (on another
    // thread) while that one scans the log.
    void shareSnapshot(const VerifierRun &other) { log_ = other.log_; }
    // Judges the entries whose record did not check out, now that the data end is known (from
    // the run that scanned the log): past the end, or the fault found.
    void resolvePending(int64_t dataEnd);

    // Adds `bytes` to the progress; false once the caller cancelled.
    bool advance(int64_t bytes);
    int64_t bytesDone() const { return doneBytes_; }
    bool cancelled() const { return report_.cancelled; }

private:
    // What the scan of one commit-log file found. The "stop" is where a validating walk from the
    // file's start (recovery's walk) ends: at the end-of-file record, at zeros or the file's end
    // (a clean end), or at the first record recovery rejects.
    struct FileScan
    {
        enum class Stop { Blank, Zero, Invalid } stop = Stop::Zero;
        int64_t stopPosition = 0;
        std::string stopReason;
        uint64_t validBeforeStop = 0;
        uint64_t validTotal = 0; // also those found again after damaged bytes
        bool firstRecordOk = false; // recovery's abnormal start test (CRC checked)
        int64_t firstTimestamp = 0;
        bool holdsData = false;
        bool endsWithBlank = false;
        int64_t lastRecordEnd = 0; // position after the last decodable record
    };

    // An entry whose target did not check out: `pastEndKind` if its record would end after the
    // data (targetEnd > data end), else `otherKind` with `otherMessage`.
    struct PendingFault
    {
        std::string file;
        int64_t offset = 0;
        int64_t targetEnd = 0;
        std::string pastEndKind;
        std::string what;
        std::string otherKind;
        std::string otherMessage;
    };

    void fault(const std::string &file, int64_t offset, std::string kind, std::string message);
    void checkFamily(const std::vector<MappedFileInfo> &files, int64_t fileSize, const std::string &what,
                     bool isCommitLog);
    FileScan scanFile(const FileView &file);
    RecoverySimulation simulate(bool abnormal) const;
    std::string rel(const std::string &path) const { return reader_.relativePath(path); }

    const StoreReader &reader_;
    const VerifyOptions &options_;
    VerifyReport &report_;
    CommitLogSnapshot log_;
    std::vector<FileScan> scans_; // parallel to log_.files
    std::string loadError_;       // why MQDesk would not load the commit log; empty if it would
    std::map<std::string, size_t> faultsPerFile_;
    std::vector<PendingFault> pending_;
    int64_t totalBytes_ = 0;
    int64_t doneBytes_ = 0;
    int64_t nextProgress_ = 0;
};

} // namespace mqdesk::store
