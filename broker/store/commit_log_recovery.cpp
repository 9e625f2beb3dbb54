// CommitLog::recover — normal and abnormal recovery (store-format §11).
//
// Both modes pick a file to start from, validate records one by one (magic, lengths, body CRC,
// and that the PHYSICALOFFSET field matches the record's position), stop at the first invalid
// record anywhere and make the end of the last valid record the end of the log: later files
// are deleted and the rest of the last file is zeroed, so stale bytes can never line up into a
// record that a later recovery would accept.

#include "broker/store/commit_log.h"

#include "broker/store/store_checkpoint.h"

#include <spdlog/spdlog.h>

#include <cstdio>

namespace mqdesk::store {

using common::DecodeStatus;

namespace {

bool isZero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (p[i] != 0)
            return false;
    }
    return true;
}

// Validates the record at `position` of `file`.
common::DecodeResult checkRecord(const MappedFile &file, int64_t position, bool checkCrc,
                                 std::string &error, bool &cleanEnd)
{
    const auto remaining = static_cast<size_t>(file.fileSize() - position);
    const uint8_t *at = file.data() + position;
    auto decoded = common::decodeRecord(std::span<const uint8_t>(at, remaining), {checkCrc});
    cleanEnd = false;
    if (decoded.status == DecodeStatus::Invalid) {
        cleanEnd = isZero(at, std::min<size_t>(remaining, 8));
        error = cleanEnd ? "end of data" : decoded.error;
    } else if (decoded.status == DecodeStatus::Ok
               && decoded.record.physicalOffset != file.fileFromOffset() + position) {
        decoded.status = DecodeStatus::Invalid;
        error = "PHYSICALOFFSET field " + std::to_string(decoded.record.physicalOffset)
                + " disagrees with the record's position";
    }
    return decoded;
}

} // namespace

bool CommitLog::recover(bool lastExitOk, RecoveryReport &report, std::string &error,
                        const RecoveryProgressCallback &progress)
{
    report = RecoveryReport{};
    report.abnormal = !lastExitOk;
    const auto files = queue_.files();
    if (files.empty()) {
        PhaseProgress(progress, "commit log", 0).finish();
        queue_.setFlushedWhere(0);
        queue_.setCommittedWhere(0);
        report.stopReason = "no commit-log files";
        return true;
    }
    report.previousEnd = files.back()->fileFromOffset() + files.back()->fileSize();
    const bool checkCrc = config_.checkCRCOnRecover;

    // Choose the start file. Normal: the third file from the end, as RocketMQ 5.3.3 does. Abnormal:
    // the newest file whose first record is valid and was stored at least 3 s before both the
    // last checkpointed commit-log flush and consume-queue flush (everything dispatched from
    // there on is re-dispatched).
    size_t startIndex = files.size() >= 3 ? files.size() - 3 : 0;
    if (!lastExitOk) {
        const int64_t safeTimestamp = checkpoint_.minTimestamp();
        startIndex = 0;
        for (size_t i = files.size(); i-- > 0;) {
            std::string ignored;
            bool cleanEnd = false;
            const auto first = checkRecord(*files[i], 0, true, ignored, cleanEnd);
            if (first.status == DecodeStatus::Ok && first.record.storeTimestamp != 0
                && first.record.storeTimestamp <= safeTimestamp) {
                startIndex = i;
                break;
            }
        }
    }

    // The validating scan.
    size_t index = startIndex;
    int64_t position = 0;
    int64_t lastGoodEnd = files[index]->fileFromOffset();
    int64_t lastGoodStart = checkpoint_.confirmPhyOffset();
    report.startOffset = lastGoodEnd;
    PhaseProgress scanned(progress, "commit log", report.previousEnd - report.startOffset);
    for (;;) {
        const MappedFile &file = *files[index];
        scanned.report(file.fileFromOffset() + position - report.startOffset);
        std::string fault;
        bool cleanEnd = false;
        const auto decoded = checkRecord(file, position, checkCrc, fault, cleanEnd);
        if (decoded.status == DecodeStatus::Ok) {
            ++report.recordsScanned;
            lastGoodStart = file.fileFromOffset() + position;
            position += decoded.size;
            lastGoodEnd = file.fileFromOffset() + position;
            continue;
        }
        if (decoded.status == DecodeStatus::Blank) {
            if (index + 1 == files.size()) {
                report.stopReason = "end of data (end-of-file record of the last file)";
                report.stopOffset = file.fileFromOffset() + position;
                break;
            }
            ++index;
            position = 0;
            lastGoodEnd = files[index]->fileFromOffset();
            continue;
        }
        report.stopOffset = file.fileFromOffset() + position;
        report.stopFile = file.path();
        report.stopReason = fault;
        report.cleanEnd = cleanEnd;
        break;
    }
    report.processOffset = lastGoodEnd;
    scanned.finish();

    if (!report.cleanEnd) {
        spdlog::warn("commit log recovery: invalid record at offset {} ({} at byte {}): {}; truncating the log to {}",
                     report.stopOffset, report.stopFile, report.stopOffset % queue_.fileSize(),
                     report.stopReason, report.processOffset);
    }
    for (const auto &file : files) {
        if (file->fileFromOffset() > report.processOffset)
            ++report.filesDeleted;
    }
    if (!queue_.truncateDirtyFiles(report.processOffset, error))
        return false;
    checkpoint_.setConfirmPhyOffset(lastGoodStart);
    return true;
}

} // namespace mqdesk::store
