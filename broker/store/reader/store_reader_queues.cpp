// StoreReader: consume queues (store-format §5) and index files (§6).

#include "broker/common/bytes.h"
#include "broker/store/store_paths.h"
#include "broker/store/reader/store_reader.h"
#include "broker/store/reader/store_reader_util.h"

#include <algorithm>
#include <charconv>

namespace mqdesk::store {

using common::readInt32;
using common::readInt64;

namespace {

constexpr int64_t kEntrySize = SimpleConsumeQueue::kEntrySize;
// RocketMQ's defaults: 5,000,000 slots and 20,000,000 entries (420,000,040 bytes).
constexpr int32_t kDefaultHashSlotNum = 5000000;
constexpr int32_t kDefaultIndexNum = 20000000;

struct QueueDirectory
{
    std::string topic;
    int32_t queueId = 0;
    std::string path;
    bool batch = false;
};

// consumequeue/<topic>/<numeric queueId>/ and batchconsumequeue/ likewise; RocketMQ ignores other
// directories, and so do we.
std::vector<QueueDirectory> queueDirectories(const ReaderFiles &files, const std::string &root)
{
    const auto isDirectory = [&files](const std::string &path) {
        FileStatus status;
        return files.status(path, status) == 0 && status.directory;
    };
    std::vector<QueueDirectory> out;
    for (const bool batch : {false, true}) {
        const std::string queuesRoot = root + (batch ? "/batchconsumequeue" : "/consumequeue");
        for (const DirectoryEntry &topic : files.list(queuesRoot)) {
            const std::string topicPath = queuesRoot + "/" + topic.name;
            if (!isDirectory(topicPath))
                continue;
            for (const DirectoryEntry &queue : files.list(topicPath)) {
                const std::string &name = queue.name;
                int32_t id = 0;
                const auto [end, parseError] = std::from_chars(name.data(), name.data() + name.size(), id);
                const std::string queuePath = topicPath + "/" + name;
                if (parseError != std::errc() || end != name.data() + name.size() || id < 0 || !isDirectory(queuePath))
                    continue;
                out.push_back({topic.name, id, queuePath, batch});
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const QueueDirectory &a, const QueueDirectory &b) {
        return a.topic != b.topic ? a.topic < b.topic : a.queueId != b.queueId ? a.queueId < b.queueId : a.batch < b.batch;
    });
    return out;
}

ConsumeQueueEntry entryAt(const uint8_t *at) { return {readInt64(at), readInt32(at + 8), readInt64(at + 12)}; }

// The entry at `at` of a queue of either format; a SimpleCQ entry's queue offset is its place.
ConsumeQueueEntry readEntry(const uint8_t *at, bool batch, int64_t logical)
{
    if (batch)
        return BatchConsumeQueue::readUnit(at);
    ConsumeQueueEntry entry = entryAt(at);
    entry.queueOffset = logical / kEntrySize;
    return entry;
}

// Bytes of entries before the first all-zero one: entries are written in order, so a binary
// search finds the end of a queue file's data.
int64_t entriesEnd(const FileView &file, int64_t unitSize = kEntrySize)
{
    const auto bytes = file.bytes();
    int64_t lo = 0;
    int64_t hi = file.size() / unitSize;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (allZero(bytes.data() + mid * unitSize, unitSize))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo * unitSize;
}

// The logical position of the first BatchCQ unit whose batch ends past `queueOffset` (units are
// in queue-offset order), or where the data ends.
int64_t batchUnitPosition(const std::vector<FileViewPtr> &files, int64_t queueOffset)
{
    constexpr int64_t unit = BatchConsumeQueue::kUnitSize;
    for (const FileViewPtr &file : files) {
        const int64_t units = entriesEnd(*file, unit) / unit;
        if (units == 0)
            continue;
        const uint8_t *data = file->bytes().data();
        const ConsumeQueueEntry last = BatchConsumeQueue::readUnit(data + (units - 1) * unit);
        if (last.queueOffset + last.batchSize <= queueOffset)
            continue;
        int64_t low = 0;
        int64_t high = units - 1;
        while (low < high) {
            const int64_t middle = low + (high - low) / 2;
            const ConsumeQueueEntry at = BatchConsumeQueue::readUnit(data + middle * unit);
            if (at.queueOffset + at.batchSize > queueOffset)
                high = middle;
            else
                low = middle + 1;
        }
        return file->startOffset() + low * unit;
    }
    return files.empty() ? 0 : files.back()->startOffset() + entriesEnd(*files.back(), unit);
}

bool isIndexName(const std::string &name)
{
    return !name.empty() && name.size() <= 19
           && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether hashSlotNum/indexNum fit the file: its size and — when it holds an entry — the newest
// entry being the head of its own bucket's chain.
bool layoutFits(const FileView &view, const IndexHeader &header, int32_t slots, int32_t entries)
{
    if (slots < 1 || entries < 2 || IndexFile::fileSizeFor(slots, entries) != view.size())
        return false;
    const int32_t count = std::max(header.indexCount, 1);
    if (count == 1 || count > entries)
        return true; // nothing to check against, or a damaged header (the verifier names it)
    const int32_t newest = count - 1;
    const int32_t hash = readInt32(view.bytes().data() + indexEntryPosition(newest, slots));
    return hash >= 0 && readInt32(view.bytes().data() + indexSlotPosition(hash, slots)) == newest;
}

} // namespace

int64_t StoreReader::consumeQueueFileSize(bool batch) const
{
    if (options_.consumeQueueFileSize > 0 && !batch)
        return options_.consumeQueueFileSize;
    std::vector<MappedFileInfo> all;
    for (const auto &queue : queueDirectories(files(), root_)) {
        if (queue.batch != batch)
            continue; // BatchCQ files are sized by mapperFileSizeBatchConsumeQueue
        auto family = listFamily(queue.path, 0);
        all.insert(all.end(), family.files.begin(), family.files.end());
    }
    return inferFileSize(all);
}

std::vector<ConsumeQueueInfo> StoreReader::consumeQueues() const
{
    std::vector<ConsumeQueueInfo> out;
    std::vector<MappedFileInfo> all;
    for (const auto &queue : queueDirectories(files(), root_)) {
        ConsumeQueueInfo info;
        info.topic = queue.topic;
        info.queueId = queue.queueId;
        info.directory = queue.path;
        info.batch = queue.batch;
        info.files = listFamily(queue.path, 0).files;
        all.insert(all.end(), info.files.begin(), info.files.end());
        if (info.batch) {
            // Queue offsets are in the units: the first one's base, the last one's end.
            const auto views = mapFamily(listFamily(queue.path, 0));
            constexpr int64_t unit = BatchConsumeQueue::kUnitSize;
            for (const FileViewPtr &view : views) {
                if (entriesEnd(*view, unit) > 0) {
                    info.minOffset = BatchConsumeQueue::readUnit(view->bytes().data()).queueOffset;
                    break;
                }
            }
            for (auto it = views.rbegin(); it != views.rend(); ++it) {
                if (const int64_t end = entriesEnd(**it, unit); end > 0) {
                    const ConsumeQueueEntry last = BatchConsumeQueue::readUnit((*it)->bytes().data() + end - unit);
                    info.maxOffset = last.queueOffset + last.batchSize;
                    break;
                }
            }
        } else if (!info.files.empty()) {
            info.minOffset = info.files.front().startOffset / kEntrySize;
            const auto &last = info.files.back();
            const auto mapped = mapFile(last.path, last.name, last.startOffset);
            info.maxOffset = (last.startOffset + (mapped ? entriesEnd(*mapped) : 0)) / kEntrySize;
        }
        out.push_back(std::move(info));
    }
    return out;
}

std::optional<ConsumeQueueInfo> StoreReader::consumeQueue(const std::string &topic, int32_t queueId) const
{
    for (auto &queue : consumeQueues()) {
        if (queue.topic == topic && queue.queueId == queueId)
            return std::move(queue);
    }
    return std::nullopt;
}

ConsumeQueuePage StoreReader::readConsumeQueue(const std::string &topic, int32_t queueId, int64_t fromQueueOffset,
                                               size_t limit) const
{
    ConsumeQueuePage page;
    std::string topicDirectory;
    std::string refused;
    if (!joinInside(root_ + "/consumequeue", topic, "topic", topicDirectory, refused)) {
        page.atEnd = true; // no queue of the store can have that name; never read outside it
        return page;
    }
    std::string directory = topicDirectory + "/" + std::to_string(queueId);
    FileStatus status;
    const bool batch = files().status(directory, status) != 0
                       && files().status(root_ + "/batchconsumequeue/" + topic + "/" + std::to_string(queueId), status) == 0;
    if (batch)
        directory = root_ + "/batchconsumequeue/" + topic + "/" + std::to_string(queueId);
    const int64_t unitSize = batch ? BatchConsumeQueue::kUnitSize : SimpleConsumeQueue::kEntrySize;
    const std::vector<FileViewPtr> files = mapFamily(listFamily(directory, 0));
    int64_t logical = batch ? batchUnitPosition(files, std::max<int64_t>(fromQueueOffset, 0))
                            : std::clamp<int64_t>(fromQueueOffset, 0, kMaxStoreOffset / unitSize) * unitSize;
    while (page.entries.size() < limit) {
        auto it = std::upper_bound(files.begin(), files.end(), logical,
                                   [](int64_t value, const FileViewPtr &f) { return value < f->startOffset(); });
        if (it != files.begin() && logical < (*std::prev(it))->startOffset() + (*std::prev(it))->size())
            --it;
        else if (it == files.end()) {
            page.atEnd = true;
            break;
        } else {
            logical = (*it)->startOffset();
        }
        const FileView &file = **it;
        const int64_t position = logical - file.startOffset();
        if (position + unitSize > file.size()) { // a size that is not whole entries
            logical = file.startOffset() + file.size();
            continue;
        }
        const auto bytes = file.bytes();
        const uint8_t *at = bytes.data() + position;
        // Zeros end the queue's data, unless entries follow: a hole (shown as invalid entries,
        // recovery would stop there) or a later file holding entries (a damaged queue).
        if (allZero(at, unitSize)
            && findNonZero(bytes.data(), static_cast<size_t>(position), bytes.size()) >= bytes.size()) {
            const auto later = std::find_if(std::next(it), files.end(),
                                            [&](const FileViewPtr &f) { return entriesEnd(*f, unitSize) > 0; });
            if (later == files.end()) {
                page.atEnd = true;
                break;
            }
            logical = (*later)->startOffset();
            continue;
        }
        ConsumeQueueRead read;
        read.entry = readEntry(at, batch, logical);
        read.queueOffset = read.entry.queueOffset;
        read.valid = batch ? BatchConsumeQueue::isValidUnit(read.entry)
                           : read.entry.commitLogOffset >= 0 && read.entry.size > 0;
        read.file = file.name();
        read.filePosition = position;
        page.nextQueueOffset = batch ? read.entry.queueOffset + read.entry.batchSize : 0;
        page.entries.push_back(std::move(read));
        logical += unitSize;
    }
    if (!batch)
        page.nextQueueOffset = logical / unitSize;
    else if (page.entries.empty())
        page.nextQueueOffset = std::max<int64_t>(fromQueueOffset, 0);
    return page;
}

int64_t StoreReader::consumeQueueOffsetAt(const ConsumeQueueInfo &queue, int64_t commitLogOffset) const
{
    int64_t low = queue.minOffset;
    int64_t high = queue.maxOffset;
    // Invariant: entries before `low` point before the offset; the entry at `high` (if any) does not.
    while (low < high) {
        const int64_t middle = low + (high - low) / 2;
        const auto page = readConsumeQueue(queue.topic, queue.queueId, middle, 1);
        if (page.entries.empty() || page.entries.front().entry.commitLogOffset >= commitLogOffset)
            high = middle;
        else // a hole moves the read on: everything up to the entry read is older too
            low = std::min(high, std::max(middle + 1, page.entries.front().queueOffset
                                                          + page.entries.front().entry.batchSize));
    }
    return low;
}

int64_t StoreReader::consumeQueueOffsetByTime(const std::string &topic, int32_t queueId, int64_t storeTimestamp) const
{
    const auto queue = consumeQueue(topic, queueId);
    return queue ? consumeQueueOffsetAt(*queue, offsetByTime(storeTimestamp)) : -1;
}

IndexFileSummary StoreReader::summarizeIndexFile(const MappedFileInfo &file, const FileView *view) const
{
    IndexFileSummary summary;
    summary.file = file;
    if (!view || view->size() < IndexFile::kHeaderSize) {
        summary.layoutError = "index/" + file.name + ": shorter than the 40-byte header";
        return summary;
    }
    const uint8_t *p = view->bytes().data();
    summary.header.beginTimestamp = readInt64(p);
    summary.header.endTimestamp = readInt64(p + 8);
    summary.header.beginPhyOffset = readInt64(p + 16);
    summary.header.endPhyOffset = readInt64(p + 24);
    summary.header.hashSlotCount = readInt32(p + 32);
    summary.header.indexCount = readInt32(p + 36);

    std::vector<std::pair<int32_t, int32_t>> candidates;
    if (options_.maxHashSlotNum > 0 && options_.maxIndexNum > 0) {
        candidates.emplace_back(options_.maxHashSlotNum, options_.maxIndexNum);
    } else {
        candidates.emplace_back(kDefaultHashSlotNum, kDefaultIndexNum);
        // RocketMQ's default ratio, maxIndexNum = 4 × maxHashSlotNum: 84 bytes per slot.
        if ((view->size() - IndexFile::kHeaderSize) % 84 == 0) {
            const int64_t slots = (view->size() - IndexFile::kHeaderSize) / 84;
            if (slots > 0 && slots * 4 <= INT32_MAX)
                candidates.emplace_back(static_cast<int32_t>(slots), static_cast<int32_t>(slots * 4));
        }
    }
    for (const auto &[slots, entries] : candidates) {
        if (layoutFits(*view, summary.header, slots, entries)) {
            summary.hashSlotNum = slots;
            summary.indexNum = entries;
            return summary;
        }
    }
    summary.layoutError = "index/" + file.name + ": cannot tell its maxHashSlotNum and maxIndexNum from its "
                          + std::to_string(view->size())
                          + " bytes and header; give them as the store's broker.conf has them";
    return summary;
}

FileViewPtr StoreReader::mapIndexFile(const IndexFileSummary &summary) const
{
    if (summary.hashSlotNum == 0)
        return nullptr;
    auto mapped = mapFile(summary.file.path, summary.file.name, -1);
    if (!mapped || mapped->size() != IndexFile::fileSizeFor(summary.hashSlotNum, summary.indexNum))
        return nullptr; // replaced since it was summarised: its layout is not known
    return mapped;
}

std::vector<IndexFileSummary> StoreReader::indexFiles() const
{
    std::vector<MappedFileInfo> indexFileList = regularFilesIn(root_ + "/index");
    std::erase_if(indexFileList, [](const MappedFileInfo &file) { return !isIndexName(file.name); });
    std::sort(indexFileList.begin(), indexFileList.end(), [](const MappedFileInfo &a, const MappedFileInfo &b) {
        return a.name.size() != b.name.size() ? a.name.size() < b.name.size() : a.name < b.name;
    });
    std::vector<IndexFileSummary> out;
    for (const auto &file : indexFileList) {
        const auto mapped = mapFile(file.path, file.name, -1);
        out.push_back(summarizeIndexFile(file, mapped.get()));
    }
    return out;
}

std::vector<IndexKeyLookup> StoreReader::lookupIndexKey(std::string_view topic, std::string_view key) const
{
    std::vector<IndexKeyLookup> out;
    const CommitLogSnapshot log = commitLogSnapshot();
    std::string indexKey(topic);
    indexKey.append(1, '#').append(key);
    const int32_t hash = IndexFile::keyHash(indexKey);
    const auto files = indexFiles();
    for (auto it = files.rbegin(); it != files.rend(); ++it) {
        IndexKeyLookup lookup;
        lookup.file = it->file.name;
        lookup.indexKey = indexKey;
        lookup.keyHash = hash;
        const auto mapped = mapIndexFile(*it);
        if (!mapped) {
            lookup.stopReason = it->hashSlotNum == 0 ? it->layoutError : "the file changed while read";
            out.push_back(std::move(lookup));
            continue;
        }
        const int32_t slots = it->hashSlotNum;
        const int32_t count = std::max(it->header.indexCount, 1); // a fresh file reads 0
        lookup.slot = hash % slots;
        lookup.slotPosition = indexSlotPosition(hash, slots);
        lookup.slotValue = readInt32(mapped->bytes().data() + lookup.slotPosition);
        // RocketMQ's selectPhyOffset rules (§6.4), without the time window.
        if (lookup.slotValue <= 0 || lookup.slotValue > count || count <= 1) {
            lookup.stopReason = lookup.slotValue == 0 ? "empty slot" : "slot value outside the file's entries";
            out.push_back(std::move(lookup));
            continue;
        }
        for (int32_t current = lookup.slotValue;;) {
            if (current >= it->indexNum) {
                lookup.stopReason = "entry number beyond the file";
                break;
            }
            IndexChainStep step = readIndexEntry(mapped->bytes(), slots, current, it->header.beginTimestamp);
            step.hashMatches = step.keyHash == hash;
            if (auto record = decodeAt(log, step.phyOffset); record && record->kind == RecordKind::Message) {
                const auto &m = record->message;
                const auto keys = m.properties.keys();
                // "T#<TAGS>": the Java broker 5.5's tag entry (topic#T#<TAGS>, IndexFile::kTagKeyInfix).
                const auto tags = m.properties.get(common::property::kTags);
                const bool tagKey = key.size() > 2 && key.substr(0, 2) == "T#" && tags && *tags == key.substr(2);
                step.recordHasKey = m.topic == topic
                                    && (m.properties.get(common::property::kUniqClientMessageId) == key
                                        || std::find(keys.begin(), keys.end(), key) != keys.end() || tagKey);
            }
            lookup.chain.push_back(step);
            if (step.prev <= 0) {
                lookup.stopReason = "end of chain";
                break;
            }
            if (step.prev > count || step.prev >= current) {
                lookup.stopReason =
                    "previous entry " + std::to_string(step.prev) + " is not an older entry (damaged chain)";
                break;
            }
            current = step.prev;
        }
        out.push_back(std::move(lookup));
    }
    return out;
}

std::vector<int64_t> StoreReader::indexSlotOccupancy(const std::string &fileName, int buckets) const
{
    std::vector<int64_t> out(static_cast<size_t>(std::max(buckets, 0)), 0);
    for (const auto &summary : indexFiles()) {
        if (summary.file.name != fileName)
            continue;
        const auto mapped = mapIndexFile(summary);
        if (!mapped || out.empty())
            break;
        const int64_t slots = summary.hashSlotNum;
        for (int64_t slot = 0; slot < slots; ++slot) {
            const uint8_t *at = mapped->bytes().data() + IndexFile::kHeaderSize + slot * IndexFile::kHashSlotSize;
            if (readInt32(at) != 0)
                ++out[static_cast<size_t>(slot * static_cast<int64_t>(out.size()) / slots)];
        }
        break;
    }
    return out;
}

std::vector<IndexChainStep> StoreReader::readIndexEntries(const std::string &fileName, int32_t firstEntry,
                                                          int32_t count) const
{
    std::vector<IndexChainStep> out;
    for (const auto &summary : indexFiles()) {
        if (summary.file.name != fileName)
            continue;
        const auto mapped = mapIndexFile(summary);
        const int32_t end = std::min(std::max(summary.header.indexCount, 1), summary.indexNum);
        for (int32_t entry = std::max(firstEntry, 1); mapped && entry < end && count-- > 0; ++entry)
            out.push_back(readIndexEntry(mapped->bytes(), summary.hashSlotNum, entry, summary.header.beginTimestamp));
        break;
    }
    return out;
}

} // namespace mqdesk::store
