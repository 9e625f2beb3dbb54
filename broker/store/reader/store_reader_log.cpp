// StoreReader: the commit log (store-format §2, §3). Records are decoded with decodeRecord's
// checks except the CRC, which is computed separately so a record with a bad body still shows
// (flagged); bytes that are no record become one Invalid entry up to where records start again.

#include "broker/common/crc32.h"
#include "broker/store/reader/store_reader.h"
#include "broker/store/reader/store_reader_util.h"

#include <algorithm>

namespace mqdesk::store {

using common::DecodeStatus;

namespace {

struct Step
{
    enum Kind { Record, Blank, End, Invalid } kind = End;
    int64_t size = 0; // bytes the entry covers
    common::DecodeResult decoded;
};

// What is at `position` of `file`. End: zeros or the end of the file — no more data here.
Step examine(const FileView &file, int64_t position)
{
    Step step;
    const auto bytes = file.bytes();
    const auto at = static_cast<size_t>(position);
    const size_t remaining = bytes.size() - at;
    if (remaining == 0 || allZero(bytes.data() + at, std::min<size_t>(remaining, 8)))
        return step;
    step.decoded = common::decodeRecord(bytes.subspan(at), {false});
    switch (step.decoded.status) {
    case DecodeStatus::Blank:
        step.kind = Step::Blank;
        step.size = step.decoded.size;
        break;
    case DecodeStatus::Ok:
        step.kind = Step::Record;
        step.size = step.decoded.size;
        break;
    case DecodeStatus::Invalid:
        step.kind = Step::Invalid;
        step.size = static_cast<int64_t>(resyncFrom(bytes, file.startOffset(), at + 1) - at);
        break;
    }
    return step;
}

// The record at `position` as peekRecordHeader reads it, when it names this very position and
// fits the file: a record start a scan may step over without decoding it.
std::optional<common::RecordHeader> peekAt(const FileView &file, int64_t position)
{
    const auto bytes = file.bytes();
    auto header = common::peekRecordHeader(bytes.subspan(static_cast<size_t>(position)));
    if (!header || header->physicalOffset != file.startOffset() + position || header->totalSize <= 0
        || header->totalSize > static_cast<int64_t>(bytes.size()) - position)
        return std::nullopt;
    return header;
}

bool holdsData(const FileView &file)
{
    const auto bytes = file.bytes();
    return !bytes.empty() && !allZero(bytes.data(), std::min<size_t>(bytes.size(), 8));
}

std::vector<std::string> tagAlternatives(const std::string &tag)
{
    std::vector<std::string> out;
    size_t at = 0;
    while (at <= tag.size()) {
        const size_t bar = std::min(tag.find("||", at), tag.size());
        std::string part = tag.substr(at, bar - at);
        part.erase(0, part.find_first_not_of(' '));
        part.erase(part.find_last_not_of(' ') + 1);
        if (part == "*")
            return {};
        if (!part.empty())
            out.push_back(std::move(part));
        at = bar + 2;
    }
    return out;
}

CommitLogRecord messageEntry(const FileView &file, int64_t position, const common::DecodeResult &decoded)
{
    CommitLogRecord record;
    record.offset = file.startOffset() + position;
    record.size = decoded.size;
    record.kind = RecordKind::Message;
    record.file = file.name();
    record.message = decoded.record.materialize();
    record.crcOk = common::maskedBodyCrc(decoded.record.body) == decoded.record.bodyCrc;
    record.positionOk = decoded.record.physicalOffset == record.offset;
    return record;
}

CommitLogRecord markerEntry(const FileView &file, int64_t position, const Step &step, std::string error = {})
{
    CommitLogRecord record;
    record.offset = file.startOffset() + position;
    record.size = static_cast<int32_t>(std::min<int64_t>(step.size, INT32_MAX));
    record.kind = step.kind == Step::Blank ? RecordKind::Blank : RecordKind::Invalid;
    record.file = file.name();
    record.error = error.empty() ? step.decoded.error : std::move(error);
    return record;
}

} // namespace

const FileView *CommitLogSnapshot::fileFor(int64_t offset) const
{
    auto it = std::upper_bound(files.begin(), files.end(), offset,
                               [](int64_t value, const FileViewPtr &file) { return value < file->startOffset(); });
    if (it == files.begin())
        return nullptr;
    const FileView &file = **std::prev(it);
    return offset < file.startOffset() + file.size() ? &file : nullptr;
}

MappedFamily StoreReader::commitLogFiles() const
{
    return listFamily(options_.commitLogDir, options_.commitLogFileSize);
}

CommitLogSnapshot StoreReader::commitLogSnapshot() const
{
    const MappedFamily family = commitLogFiles();
    CommitLogSnapshot snapshot;
    snapshot.fileSize = family.fileSize;
    snapshot.files = mapFamily(family);
    return snapshot;
}

std::optional<int64_t> StoreReader::dataEndOf(const FileView &file) const
{
    if (!holdsData(file))
        return std::nullopt;
    int64_t position = 0;
    {
        // Continue from the last record the previous call saw in this same file, if it is still
        // there (a broker's recovery may have cut the tail since).
        std::lock_guard lock(cacheMutex_);
        if (endCacheFile_ == file.path() && endCacheInode_ == file.inode_ && endCacheLastRecord_ >= 0
            && endCacheLastRecord_ < file.size())
            position = endCacheLastRecord_;
    }
    // No shortcut to the newest record the consume queues name: the data ends at the first
    // record that does not decode, and only a walk from the file's start (or from a record an
    // earlier walk reached) finds it; queues go on naming the valid records after a broken one.
    if (position > 0 && (examine(file, position).kind != Step::Record || !peekAt(file, position)))
        position = 0;
    int64_t lastRecord = -1;
    for (;;) {
        const Step step = examine(file, position);
        if (step.kind != Step::Record)
            break;
        lastRecord = position;
        position += step.size;
    }
    std::lock_guard lock(cacheMutex_);
    endCacheFile_ = file.path();
    endCacheInode_ = file.inode_;
    endCacheLastRecord_ = lastRecord;
    return file.startOffset() + position;
}

int64_t StoreReader::commitLogDataEnd() const
{
    const CommitLogSnapshot log = commitLogSnapshot();
    for (auto it = log.files.rbegin(); it != log.files.rend(); ++it) {
        if (auto end = dataEndOf(**it))
            return *end;
    }
    return log.minOffset();
}

RecordPage StoreReader::readRecords(const RecordQuery &query, const ScanProgress &progress) const
{
    RecordPage page;
    const CommitLogSnapshot log = commitLogSnapshot();
    const std::vector<std::string> tags = tagAlternatives(query.tag);
    const bool filtered = !query.topic.empty() || !tags.empty() || !query.key.empty();
    const auto matches = [&](const common::RecordView &r) {
        if (!query.topic.empty() && r.topic != query.topic)
            return false;
        if (!tags.empty()) {
            const auto tag = common::MessageProperties::find(r.properties, common::property::kTags);
            if (!tag || std::find(tags.begin(), tags.end(), *tag) == tags.end())
                return false;
        }
        return query.key.empty() || propertiesCarryKey(r.properties, query.key);
    };

    int64_t offset = query.fromOffset;
    int64_t scanned = 0;
    int64_t nextProgress = kProgressEvery;
    while (page.records.size() < query.limit) {
        // The file holding `offset`, else the next file after it (a gap, or before the first).
        auto it = std::upper_bound(log.files.begin(), log.files.end(), offset,
                                   [](int64_t value, const FileViewPtr &f) { return value < f->startOffset(); });
        if (it != log.files.begin() && offset < (*std::prev(it))->startOffset() + (*std::prev(it))->size())
            --it;
        else if (it == log.files.end()) {
            page.atEnd = true;
            break;
        } else {
            offset = (*it)->startOffset();
        }
        const FileView &file = **it;
        const bool lastFile = std::next(it) == log.files.end();
        const int64_t nextFileStart = lastFile ? file.startOffset() + file.size() : (*std::next(it))->startOffset();
        const int64_t position = offset - file.startOffset();
        const Step step = examine(file, position);
        int64_t advance = step.size;
        switch (step.kind) {
        case Step::Record:
            if (matches(step.decoded.record))
                page.records.push_back(messageEntry(file, position, step.decoded));
            break;
        case Step::Blank:
            if (query.includeMarkers && !filtered)
                page.records.push_back(markerEntry(file, position, step));
            advance = nextFileStart - offset;
            break;
        case Step::Invalid:
            if (query.includeMarkers)
                page.records.push_back(markerEntry(file, position, step));
            break;
        case Step::End: {
            // The data ends here unless a later file holds some (then this file lacks its
            // end-of-file record: a damaged store). A live store's pre-allocated next file is
            // all zeros.
            const bool moreData = std::any_of(std::next(it), log.files.end(),
                                              [](const FileViewPtr &f) { return holdsData(*f); });
            if (!moreData) {
                page.atEnd = true;
                page.nextOffset = offset;
                return page;
            }
            Step gap = step;
            gap.kind = Step::Invalid;
            gap.size = nextFileStart - offset;
            if (query.includeMarkers)
                page.records.push_back(markerEntry(file, position, gap,
                                                   "the data of this file ends without an end-of-file record"));
            advance = gap.size;
            break;
        }
        }
        offset += std::max<int64_t>(advance, 1);
        scanned += std::max<int64_t>(advance, 1);
        if (query.maxScanBytes > 0 && scanned >= query.maxScanBytes)
            break;
        if (progress && scanned >= nextProgress) {
            nextProgress += kProgressEvery;
            if (!progress(scanned, query.maxScanBytes))
                break;
        }
    }
    page.nextOffset = offset;
    return page;
}

std::optional<CommitLogRecord> StoreReader::decodeAt(const CommitLogSnapshot &log, int64_t offset) const
{
    const FileView *file = log.fileFor(offset);
    if (!file)
        return std::nullopt;
    const int64_t position = offset - file->startOffset();
    const Step step = examine(*file, position);
    switch (step.kind) {
    case Step::Record: return messageEntry(*file, position, step.decoded);
    case Step::Blank:
    case Step::Invalid: return markerEntry(*file, position, step);
    case Step::End: return std::nullopt;
    }
    return std::nullopt;
}

std::optional<CommitLogRecord> StoreReader::readRecordAt(int64_t offset) const
{
    return decodeAt(commitLogSnapshot(), offset);
}

std::vector<uint8_t> StoreReader::readCommitLogBytes(int64_t offset, int64_t length) const
{
    const CommitLogSnapshot log = commitLogSnapshot();
    const FileView *file = log.fileFor(offset);
    if (!file || length <= 0)
        return {};
    const auto bytes = file->bytes();
    const auto from = static_cast<size_t>(offset - file->startOffset());
    const size_t n = std::min(static_cast<size_t>(length), bytes.size() - from);
    return std::vector<uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(from),
                                bytes.begin() + static_cast<std::ptrdiff_t>(from + n));
}

int64_t StoreReader::offsetByTime(int64_t storeTimestamp) const
{
    const CommitLogSnapshot log = commitLogSnapshot();
    // The newest file whose first record is older than the time (store times only grow; a file
    // starting at exactly that time may follow earlier records of the same millisecond).
    size_t start = 0;
    for (size_t i = log.files.size(); i-- > 0;) {
        const Step first = examine(*log.files[i], 0);
        if (first.kind == Step::Record && first.decoded.record.storeTimestamp < storeTimestamp) {
            start = i;
            break;
        }
    }
    for (size_t i = start; i < log.files.size(); ++i) {
        const FileView &file = *log.files[i];
        int64_t position = 0;
        for (;;) {
            // Older records are stepped over by their headers; only the answer is decoded.
            if (const auto header = peekAt(file, position); header && header->storeTimestamp < storeTimestamp) {
                position += header->totalSize;
                continue;
            }
            const Step step = examine(file, position);
            if (step.kind == Step::Record && step.decoded.record.storeTimestamp >= storeTimestamp)
                return file.startOffset() + position;
            if (step.kind != Step::Record && step.kind != Step::Invalid)
                break;
            position += std::max<int64_t>(step.size, 1);
        }
    }
    return commitLogDataEnd();
}

} // namespace mqdesk::store
