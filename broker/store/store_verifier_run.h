#pragma once

// One run of verifyStore(), shared by store_verifier.cpp (files, commit log, recovery) and
// store_verifier_queues.cpp (consume queues, index, config). Not part of the interface.

#include "broker/store/store_verifier.h"

#include <map>
#include <string>
#include <vector>

namespace mqdesk::store {

class VerifierRun
{
public:
    VerifierRun(const StoreReader &reader, const VerifyOptions &options, VerifyReport &report);

    void checkFiles();
    // Requires: checkFiles() ran (it finds why the commit log would not load).
    void scanCommitLog();
    // Requires: scanCommitLog() ran.
    void simulateRecoveries();
    // Require: scanCommitLog() ran (they need the data end).
    void checkConsumeQueues();
    void checkIndex();
    void checkConfig();

    // Takes the log snapshot and data end of a run whose scanCommitLog() ran, so this run can
    // check the queues or the index (on another thread) without scanning again.
    void shareCommitLog(const VerifierRun &scanned);

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
    int64_t totalBytes_ = 0;
    int64_t doneBytes_ = 0;
    int64_t nextProgress_ = 0;
};

} // namespace mqdesk::store
