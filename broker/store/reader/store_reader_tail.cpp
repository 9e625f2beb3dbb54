// StoreReader: the page before an offset (the store explorer's "last page"). The commit log can
// only be read forwards — a record start is known from the file's start or from an index into
// it — so the consume queues, whose entries are record starts in commit-log order, say where to
// begin: the `limit`-th newest entry before the offset over all queues. Records no queue names
// (not yet dispatched, or in a store without queues) are still found, because the scan runs
// forward from that start to the offset. Without enough entries the scan starts at the
// beginning of the file holding the offset, and earlier files are added until `limit` messages
// were seen or the log's start is reached.

#include "broker/store/reader/store_reader.h"

#include <algorithm>
#include <deque>
#include <functional>

namespace mqdesk::store {

int64_t StoreReader::tailScanStart(const CommitLogSnapshot &log, int64_t endOffset, size_t limit) const
{
    std::vector<int64_t> starts; // record starts before endOffset, from every queue's last entries
    for (const auto &queue : consumeQueues()) {
        if (queue.maxOffset <= queue.minOffset)
            continue;
        const int64_t to = consumeQueueOffsetAt(queue, endOffset);
        const int64_t from = std::max(queue.minOffset, to - static_cast<int64_t>(limit));
        for (const auto &read : readConsumeQueue(queue.topic, queue.queueId, from, static_cast<size_t>(to - from)).entries) {
            if (read.valid && !read.entry.isFiller() && read.entry.commitLogOffset < endOffset)
                starts.push_back(read.entry.commitLogOffset);
        }
    }
    if (starts.size() >= limit && limit > 0) {
        std::nth_element(starts.begin(), starts.begin() + static_cast<std::ptrdiff_t>(limit - 1), starts.end(),
                         std::greater<>());
        const int64_t start = starts[limit - 1];
        // Trust the entry only where a message really starts (a damaged queue may point anywhere).
        if (const auto record = decodeAt(log, start);
            record && record->kind == RecordKind::Message && record->positionOk)
            return start;
    }
    const FileView *file = log.fileFor(std::max<int64_t>(endOffset - 1, log.minOffset()));
    return file ? file->startOffset() : log.minOffset();
}

RecordPage StoreReader::readRecordsBefore(int64_t endOffset, size_t limit) const
{
    RecordPage page;
    page.nextOffset = endOffset;
    const CommitLogSnapshot log = commitLogSnapshot();
    if (limit == 0 || log.files.empty())
        return page;
    int64_t start = tailScanStart(log, endOffset, limit);
    for (;;) {
        std::deque<CommitLogRecord> kept;
        bool dropped = false;
        RecordQuery query{.fromOffset = start, .limit = 4096, .includeMarkers = false};
        bool done = false;
        while (!done) {
            RecordPage part = readRecords(query);
            for (auto &record : part.records) {
                if (record.offset >= endOffset) {
                    done = true;
                    break;
                }
                kept.push_back(std::move(record));
                if (kept.size() > limit) {
                    kept.pop_front();
                    dropped = true;
                }
            }
            done = done || part.atEnd || part.records.empty() || part.nextOffset >= endOffset;
            query.fromOffset = part.nextOffset;
        }
        // Too few: begin one file earlier, unless the scan already began at the log's start.
        const auto first = std::lower_bound(log.files.begin(), log.files.end(), start,
                                            [](const FileViewPtr &f, int64_t value) { return f->startOffset() < value; });
        if (kept.size() >= limit || first == log.files.begin()) {
            page.records.assign(std::make_move_iterator(kept.begin()), std::make_move_iterator(kept.end()));
            page.atEnd = !dropped && first == log.files.begin();
            return page;
        }
        start = (*std::prev(first))->startOffset();
    }
}

} // namespace mqdesk::store
