// verifyStore(): file names and sizes, the commit-log scan and the recovery simulations. The
// recovery rules are those of commit_log_recovery.cpp: a record is valid when it decodes, its body
// CRC matches (checkCRCOnRecover) and its PHYSICALOFFSET is its position; zeros (or a file's end)
// where a record should start are a clean end; normal recovery starts three files from the end,
// abnormal at the newest file whose first record is valid and stored at or before the checkpoint's
// minTimestamp; the scan stops at the first invalid record anywhere and the log ends there.

#include "broker/store/reader/store_verifier.h"

#include "broker/store/reader/store_timer_reader.h"

#include "broker/common/crc32.h"
#include "broker/store/mapped_file.h"
#include "broker/store/store_checkpoint.h"
#include "broker/store/reader/store_reader_util.h"
#include "broker/store/reader/store_verifier_run.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace mqdesk::store {

using common::DecodeStatus;

namespace {

std::string number(int64_t value) { return std::to_string(value); }

bool isDigits(const std::string &s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

VerifierRun::VerifierRun(const StoreReader &reader, const VerifyOptions &options, VerifyReport &report)
    : reader_(reader), options_(options), report_(report)
{
    for (const auto &file : reader_.listFiles()) {
        if (file.kind == StoreFileKind::CommitLog || file.kind == StoreFileKind::ConsumeQueue
            || file.kind == StoreFileKind::Index)
            totalBytes_ += file.size;
    }
    nextProgress_ = kProgressEvery;
}

bool VerifierRun::advance(int64_t bytes)
{
    doneBytes_ += bytes;
    if (options_.progress && doneBytes_ >= nextProgress_) {
        nextProgress_ = doneBytes_ + kProgressEvery;
        if (!options_.progress(doneBytes_, std::max(totalBytes_, doneBytes_)))
            report_.cancelled = true;
    }
    return !report_.cancelled;
}

void VerifierRun::fault(const std::string &file, int64_t offset, std::string kind, std::string message)
{
    size_t &count = faultsPerFile_[file];
    if (count > options_.maxFaultsPerFile)
        return;
    if (count++ == options_.maxFaultsPerFile) {
        report_.faults.push_back({file, offset, "fault-limit",
                                  "more than " + std::to_string(options_.maxFaultsPerFile)
                                      + " faults in this file; the rest are not listed"});
        return;
    }
    report_.faults.push_back({file, offset, std::move(kind), std::move(message)});
}

void VerifierRun::checkFamily(const std::vector<MappedFileInfo> &files, int64_t fileSize, const std::string &what,
                              bool isCommitLog)
{
    const auto refuse = [&](const std::string &why) {
        if (isCommitLog && loadError_.empty())
            loadError_ = why;
    };
    for (size_t i = 0; i < files.size(); ++i) {
        const MappedFileInfo &file = files[i];
        const std::string path = rel(file.path);
        if (file.size == 0 && i + 1 == files.size())
            continue; // an empty last file: both loaders delete it (a crash right after creation)
        if (file.size != fileSize) {
            const std::string message = what + " file is " + number(file.size) + " bytes but its siblings are "
                                        + number(fileSize) + (file.size < fileSize ? " (cut short?)" : "");
            fault(path, std::min(file.size, fileSize), "file-size", message);
            refuse(path + ": " + message);
        }
        if (fileSize > 0 && file.startOffset % fileSize != 0) {
            const std::string message = "offset " + number(file.startOffset) + " in the name is not a multiple of the "
                                        + number(fileSize) + "-byte file size";
            fault(path, 0, "file-offset", message);
            refuse(path + ": " + message);
        } else if (i > 0 && file.startOffset != files[i - 1].startOffset + fileSize) {
            const std::string message = "expected the next " + what + " file to start at "
                                        + number(files[i - 1].startOffset + fileSize) + " (after " + files[i - 1].name
                                        + "); files are missing or misnamed";
            fault(path, 0, "file-gap", message);
            refuse(path + ": " + message);
        }
    }
}

void VerifierRun::checkFiles()
{
    std::map<int64_t, int> indexSizes;
    const std::string commitLogDir = rel(reader_.options().commitLogDir);
    for (const auto &file : reader_.listFiles()) {
        const auto slash = file.relativePath.rfind('/');
        const std::string name = file.relativePath.substr(slash + 1);
        const std::string directory = slash == std::string::npos ? std::string() : file.relativePath.substr(0, slash);
        const bool creating = name.ends_with(kCreatingSuffix); // MQDesk's loader removes these
        const size_t depth = static_cast<size_t>(std::count(file.relativePath.begin(), file.relativePath.end(), '/'));
        // Loaders skip sub-directories of commitlog/ and of a queue's directory.
        if (file.kind == StoreFileKind::CommitLog && directory == commitLogDir && file.startOffset < 0 && !creating) {
            const std::string message = "not a commit-log file name (a 20-digit offset); loading the store fails on it";
            fault(file.relativePath, 0, "file-name", message);
            if (loadError_.empty())
                loadError_ = file.relativePath + ": " + message;
        } else if (file.kind == StoreFileKind::ConsumeQueue && depth == 3 && file.startOffset < 0 && !creating
                   && isDigits(directory.substr(directory.rfind('/') + 1))) { // others are ignored
            fault(file.relativePath, 0, "file-name", "not a consume-queue file name (a 20-digit offset)");
        } else if (file.kind == StoreFileKind::Index && depth == 1 && !creating) {
            if (!isDigits(name) || name.size() > 19)
                fault(file.relativePath, 0, "file-name", "not an index file name (yyyyMMddHHmmssSSS)");
            else
                ++indexSizes[file.size];
        } else if (file.kind == StoreFileKind::Checkpoint && file.size != StoreCheckpoint::kFileSize) {
            fault(file.relativePath, std::min(file.size, StoreCheckpoint::kFileSize), "file-size",
                  "checkpoint is " + number(file.size) + " bytes, not 4096");
        }
    }
    int64_t indexFileSize = 0; // the most common size (ties: the larger)
    int bestCount = 0;
    for (const auto &[size, count] : indexSizes) {
        if (count >= bestCount) {
            indexFileSize = size;
            bestCount = count;
        }
    }

    const MappedFamily log = reader_.commitLogFiles();
    checkFamily(log.files, log.fileSize, "commit-log", true);
    const int64_t queueFileSize = reader_.consumeQueueFileSize();
    const int64_t batchQueueFileSize = reader_.consumeQueueFileSize(true);
    for (const auto &queue : reader_.consumeQueues())
        checkFamily(queue.files, queue.batch ? batchQueueFileSize : queueFileSize,
                    queue.batch ? "batch-consume-queue" : "consume-queue", false);
    for (const auto &index : reader_.indexFiles()) {
        if (index.file.size != indexFileSize)
            fault("index/" + index.file.name, std::min(index.file.size, indexFileSize), "file-size",
                  "index file is " + number(index.file.size) + " bytes but the others are " + number(indexFileSize));
    }
}

VerifierRun::FileScan VerifierRun::scanFile(const FileView &file)
{
    FileScan scan;
    const auto bytes = file.bytes();
    const size_t size = bytes.size();
    const int64_t start = file.startOffset();
    const std::string path = rel(file.path());
    scan.holdsData = size > 0 && !allZero(bytes.data(), std::min<size_t>(size, 8));
    const auto first = common::decodeRecord(bytes, {true});
    scan.firstRecordOk = first.status == DecodeStatus::Ok && first.record.physicalOffset == start;
    scan.firstTimestamp = scan.firstRecordOk ? first.record.storeTimestamp : 0;

    bool stopped = false;
    size_t pos = 0;
    const auto stop = [&](FileScan::Stop kind, std::string reason) {
        if (stopped)
            return;
        stopped = true;
        scan.stop = kind;
        scan.stopPosition = static_cast<int64_t>(pos);
        scan.stopReason = std::move(reason);
    };
    size_t reported = 0;
    while (pos < size) {
        if (pos - reported >= static_cast<size_t>(kProgressEvery)) {
            if (!advance(static_cast<int64_t>(pos - reported)))
                return scan;
            reported = pos;
        }
        const size_t remaining = size - pos;
        const uint8_t *at = bytes.data() + pos;
        if (allZero(at, std::min<size_t>(remaining, 8))) {
            stop(FileScan::Stop::Zero, "end of data");
            const size_t nonZero = findNonZero(bytes.data(), pos, size);
            if (nonZero >= size)
                break;
            fault(path, static_cast<int64_t>(pos), "commitlog-zero-gap",
                  number(static_cast<int64_t>(nonZero - pos)) + " zero bytes inside the data, more bytes follow at "
                      + "byte " + number(static_cast<int64_t>(nonZero)) + "; recovery ends the log at the zeros");
            pos = resyncFrom(bytes, start, std::max(pos + 1, nonZero >= 3 ? nonZero - 3 : 0));
            continue;
        }
        const auto decoded = common::decodeRecord(bytes.subspan(pos), {false});
        if (decoded.status == DecodeStatus::Blank) {
            if (decoded.size != static_cast<int64_t>(remaining))
                fault(path, static_cast<int64_t>(pos), "record-blank",
                      "end-of-file record declares " + number(decoded.size) + " bytes but "
                          + number(static_cast<int64_t>(remaining)) + " remain");
            stop(FileScan::Stop::Blank, "end-of-file record");
            scan.endsWithBlank = true;
            break;
        }
        if (decoded.status == DecodeStatus::Invalid) {
            const int32_t magic = remaining >= 8 ? common::readInt32(at + 4) : 0;
            const bool badMagic = remaining >= 8 && magic != common::kMagicV1 && magic != common::kMagicV2;
            stop(FileScan::Stop::Invalid, decoded.error);
            fault(path, static_cast<int64_t>(pos), badMagic ? "record-magic" : "record-length",
                  decoded.error + " (commit-log offset " + number(start + static_cast<int64_t>(pos)) + ")");
            pos = resyncFrom(bytes, start, pos + 1);
            continue;
        }
        ++report_.records;
        const auto &r = decoded.record;
        const int64_t offset = start + static_cast<int64_t>(pos);
        const int32_t crc = common::maskedBodyCrc(r.body);
        const bool crcOk = crc == r.bodyCrc;
        const bool positionOk = r.physicalOffset == offset;
        if (!crcOk)
            fault(path, static_cast<int64_t>(pos), "record-crc",
                  "body CRC mismatch: stored " + number(r.bodyCrc) + ", computed " + number(crc)
                      + " (record at commit-log offset " + number(offset) + ", topic " + std::string(r.topic) + ")");
        if (!positionOk)
            fault(path, static_cast<int64_t>(pos), "record-position",
                  "PHYSICALOFFSET field " + number(r.physicalOffset) + " is not the record's offset " + number(offset));
        if (positionOk && (crcOk || !options_.checkCrc)) {
            ++scan.validTotal;
            if (!stopped)
                ++scan.validBeforeStop;
        } else {
            stop(FileScan::Stop::Invalid,
                 positionOk ? "body CRC mismatch" : "PHYSICALOFFSET disagrees with the position");
        }
        pos += static_cast<size_t>(decoded.size);
        scan.lastRecordEnd = static_cast<int64_t>(pos);
    }
    stop(FileScan::Stop::Zero, "end of the file"); // a clean end for recovery, like zeros
    advance(static_cast<int64_t>(size - std::min(reported, size)));
    return scan;
}

void VerifierRun::scanCommitLog()
{
    report_.commitLogDataEnd = log_.minOffset();
    for (const auto &file : log_.files) {
        scans_.push_back(scanFile(*file));
        if (cancelled())
            return;
    }
    for (size_t i = 0; i < scans_.size(); ++i) {
        const FileScan &scan = scans_[i];
        report_.bytesScanned += log_.files[i]->size();
        if (scan.holdsData)
            report_.commitLogDataEnd = log_.files[i]->startOffset() + scan.lastRecordEnd;
        const bool dataFollows = std::any_of(scans_.begin() + static_cast<std::ptrdiff_t>(i) + 1, scans_.end(),
                                             [](const FileScan &later) { return later.holdsData; });
        if (!scan.endsWithBlank && dataFollows)
            fault(rel(log_.files[i]->path()), scan.lastRecordEnd, "commitlog-no-end-record",
                  "the data of this file stops without an end-of-file record, yet later files hold data; "
                  "recovery ends the log here");
    }
}

RecoverySimulation VerifierRun::simulate(bool abnormal) const
{
    RecoverySimulation sim;
    sim.abnormal = abnormal;
    sim.wouldOpen = loadError_.empty();
    sim.openError = loadError_;
    const size_t n = log_.files.size();
    if (n == 0 || scans_.size() != n) {
        sim.stopReason = "no commit-log files";
        return sim;
    }
    sim.previousEnd = log_.files.back()->startOffset() + log_.files.back()->size();
    size_t start = n >= 3 ? n - 3 : 0;
    if (abnormal) {
        const auto checkpoint = reader_.readCheckpoint();
        const int64_t safe = checkpoint ? checkpoint->minTimestamp() : 0; // MQDesk creates a zero one
        start = 0;
        for (size_t i = n; i-- > 0;) {
            if (scans_[i].firstRecordOk && scans_[i].firstTimestamp != 0 && scans_[i].firstTimestamp <= safe) {
                start = i;
                break;
            }
        }
    }
    sim.startOffset = log_.files[start]->startOffset();
    size_t stopIndex = start;
    for (size_t i = start; i < n; ++i) {
        const FileScan &scan = scans_[i];
        sim.recordsScanned += scan.validBeforeStop;
        stopIndex = i;
        if (scan.stop == FileScan::Stop::Blank && i + 1 < n)
            continue;
        sim.stopOffset = log_.files[i]->startOffset() + scan.stopPosition;
        sim.stopFile = rel(log_.files[i]->path());
        sim.stopFilePosition = scan.stopPosition;
        sim.cleanEnd = scan.stop != FileScan::Stop::Invalid;
        sim.stopReason = scan.stop == FileScan::Stop::Blank ? "end of data (end-of-file record of the last file)"
                                                            : scan.stopReason;
        break;
    }
    sim.processOffset = sim.stopOffset;
    sim.truncatedBytes = std::max<int64_t>(0, sim.previousEnd - sim.processOffset);
    for (size_t i = stopIndex; i < n; ++i) {
        if (log_.files[i]->startOffset() > sim.processOffset)
            ++sim.filesDeleted;
        sim.recordsLost += i == stopIndex ? scans_[i].validTotal - scans_[i].validBeforeStop : scans_[i].validTotal;
    }
    return sim;
}

void VerifierRun::simulateRecoveries()
{
    report_.normalRecovery = simulate(false);
    report_.abnormalRecovery = simulate(true);
    for (const RecoverySimulation *sim : {&report_.normalRecovery, &report_.abnormalRecovery}) {
        if (!sim->wouldOpen || (sim->cleanEnd && sim->recordsLost == 0) || sim->stopFile.empty())
            continue;
        fault(sim->stopFile, sim->stopFilePosition, sim->abnormal ? "recovery-abnormal" : "recovery-normal",
              std::string(sim->abnormal ? "abnormal" : "normal") + " recovery would stop here ("
                  + sim->stopReason + ") and cut the log to " + number(sim->processOffset) + ": "
                  + number(sim->truncatedBytes) + " bytes truncated, " + std::to_string(sim->filesDeleted)
                  + " files deleted, " + std::to_string(sim->recordsLost) + " valid records lost");
    }
}

VerifyReport verifyStore(const StoreReader &reader, const VerifyOptions &options)
{
    VerifyReport report;
    report.live = reader.probeLock().live;
    report.abortPresent = reader.readAbort().present;
    // The caller's progress runs on this thread only; the other threads just watch for a cancel.
    std::atomic<bool> stop{false};
    VerifyOptions mainOptions = options;
    if (options.progress) {
        mainOptions.progress = [&](int64_t done, int64_t total) {
            const bool go = options.progress(done, total);
            if (!go)
                stop = true;
            return go;
        };
    }
    VerifyOptions sideOptions = options;
    sideOptions.progress = [&stop](int64_t, int64_t) { return !stop.load(); };
    VerifierRun run(reader, mainOptions, report);
    run.checkFiles();
    run.takeSnapshot();
    // The log scan here, the consume queues and the index on other threads: all three only read
    // the same snapshot, and what needs the data end waits in resolvePending.
    VerifyReport queueReport;
    VerifyReport indexReport;
    VerifierRun queueRun(reader, sideOptions, queueReport);
    VerifierRun indexRun(reader, sideOptions, indexReport);
    queueRun.shareSnapshot(run);
    indexRun.shareSnapshot(run);
    // No exception may leave a thread (std::terminate would end the explorer): one that a check
    // throws becomes a fault of its own and that check stops.
    const auto guarded = [](VerifyReport &into, const char *what, auto check) {
        return [&into, what, check] {
            try {
                check();
            } catch (const std::exception &e) {
                into.faults.push_back({"", 0, "verify-error", std::string(what) + " stopped: " + e.what()});
            }
        };
    };
    std::thread queueThread(guarded(queueReport, "the consume-queue check", [&queueRun] { queueRun.checkConsumeQueues(); }));
    std::thread indexThread(guarded(indexReport, "the index check", [&indexRun] { indexRun.checkIndex(); }));
    run.scanCommitLog();
    if (!run.cancelled())
        run.simulateRecoveries();
    queueThread.join();
    indexThread.join();
    if (run.cancelled() || queueReport.cancelled || indexReport.cancelled) {
        report.cancelled = true;
    } else {
        queueRun.resolvePending(report.commitLogDataEnd);
        indexRun.resolvePending(report.commitLogDataEnd);
        run.advance(queueRun.bytesDone() + indexRun.bytesDone());
    }
    report.consumeQueueEntries = queueReport.consumeQueueEntries;
    report.indexEntries = indexReport.indexEntries;
    for (auto *side : {&queueReport, &indexReport})
        report.faults.insert(report.faults.end(), std::make_move_iterator(side->faults.begin()),
                             std::make_move_iterator(side->faults.end()));
    run.checkConfig();
    if (!report.cancelled) {
        auto timerFaults = verifyTimerFiles(reader, options.maxFaultsPerFile);
        report.faults.insert(report.faults.end(), std::make_move_iterator(timerFaults.begin()),
                             std::make_move_iterator(timerFaults.end()));
    }
    return report;
}

} // namespace mqdesk::store
