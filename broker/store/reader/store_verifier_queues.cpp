// verifyStore(): consume-queue entries and index entries against the commit log they point into,
// and the config files.

#include "broker/common/java_hash.h"
#include "broker/store/reader/store_reader_util.h"
#include "broker/store/reader/store_verifier_run.h"

#include <algorithm>
#include <climits>

namespace mqdesk::store {

using common::DecodeStatus;

namespace {

constexpr int64_t kEntrySize = SimpleConsumeQueue::kEntrySize;
constexpr std::string_view kScheduleTopic = "SCHEDULE_TOPIC_XXXX";
constexpr std::string_view kLmqPrefix = "%LMQ%";
constexpr std::string_view kInnerMultiDispatch = "INNER_MULTI_DISPATCH";

std::string number(int64_t value) { return std::to_string(value); }

// The record starting at commit-log `offset` (CRC not checked: the log scan reports CRC faults),
// or an explanation why there is none.
common::DecodeResult recordAt(const CommitLogSnapshot &log, int64_t offset, std::string &why)
{
    common::DecodeResult result;
    const FileView *file = log.fileFor(offset);
    if (!file) {
        why = "no commit-log file holds offset " + number(offset);
        return result;
    }
    result = common::decodeRecord(file->bytes().subspan(static_cast<size_t>(offset - file->startOffset())), {false});
    if (result.status == DecodeStatus::Blank) {
        why = "commit-log offset " + number(offset) + " is an end-of-file record";
        result.status = DecodeStatus::Invalid;
    } else if (result.status == DecodeStatus::Invalid) {
        why = "no record starts at commit-log offset " + number(offset) + ": " + result.error;
    } else if (result.record.physicalOffset != offset) {
        why = "the bytes at commit-log offset " + number(offset) + " belong to the record of offset "
              + number(result.record.physicalOffset);
        result.status = DecodeStatus::Invalid;
    }
    return result;
}

std::string describe(const common::RecordView &r)
{
    return "a record of topic " + std::string(r.topic) + " queue " + std::to_string(r.queueId) + " queue offset "
           + number(r.queueOffset) + " (" + std::to_string(r.totalSize) + " bytes)";
}

} // namespace

void VerifierRun::checkConsumeQueues()
{
    const int64_t logMin = log_.minOffset();
    for (const auto &queue : reader_.consumeQueues()) {
        const bool lmq = std::string_view(queue.topic).starts_with(kLmqPrefix);
        for (size_t fileIndex = 0; fileIndex < queue.files.size(); ++fileIndex) {
            const auto &info = queue.files[fileIndex];
            const bool lastFile = fileIndex + 1 == queue.files.size();
            const auto view = reader_.view(info.path);
            if (!view)
                continue;
            const std::string file = rel(info.path);
            const auto bytes = view->bytes();
            const auto size = static_cast<int64_t>(bytes.size());
            const int64_t unitSize = queue.unitSize();
            for (int64_t position = 0; position + unitSize <= size; position += unitSize) {
                const uint8_t *at = bytes.data() + position;
                const ConsumeQueueEntry e = queue.batch ? BatchConsumeQueue::readUnit(at)
                                                        : ConsumeQueueEntry{common::readInt64(at), common::readInt32(at + 8),
                                                                            common::readInt64(at + 12)};
                const int64_t queueOffset = queue.batch ? e.queueOffset : (info.startOffset + position) / kEntrySize;
                const auto fail = [&](const char *kind, std::string message) {
                    fault(file, position, kind, std::move(message));
                };
                const auto what = [&] { // built only for a fault: most entries have none
                    return "entry of queue offset " + number(queueOffset) + " (commit-log offset "
                           + number(e.commitLogOffset) + ", size " + std::to_string(e.size) + ")";
                };
                if (allZero(at, unitSize)) {
                    // The end of this file's entries, unless more follow: recovery stops at the
                    // first invalid entry and drops everything after it.
                    const auto more =
                        static_cast<int64_t>(findNonZero(bytes.data(), static_cast<size_t>(position), bytes.size()));
                    // A queue file is only followed by another once it is full: zeros up to
                    // its end are lost entries when the queue goes on.
                    if (more >= size && !lastFile)
                        fail("cq-invalid-entry", "zero entries from queue offset " + number(queueOffset)
                                                     + " to the end of this file, yet the queue goes on in "
                                                     + queue.files[fileIndex + 1].name);
                    if (more >= size)
                        break;
                    fail("cq-invalid-entry", "a zero entry (queue offset " + number(queueOffset) + ") inside the "
                                                 + "queue's data; recovery ends the queue here");
                    position = more / unitSize * unitSize - unitSize;
                    continue;
                }
                ++report_.consumeQueueEntries;
                if (e.commitLogOffset < 0 || e.size <= 0 || (queue.batch && !BatchConsumeQueue::isValidUnit(e))) {
                    fail("cq-invalid-entry", what() + " is invalid; recovery drops it and every entry after it");
                    continue;
                }
                if (e.isFiller() || e.commitLogOffset < logMin)
                    continue; // a filler, or a record retention already deleted
                // Where the data ends is known once the log scan (running meanwhile) is done:
                // an entry whose record does not fit is judged then (resolvePending).
                std::string why;
                const auto decoded = recordAt(log_, e.commitLogOffset, why);
                if (decoded.status != DecodeStatus::Ok) {
                    pending_.push_back({file, position, e.commitLogOffset + e.size, "cq-past-end", what(),
                                        "cq-bad-target", what() + ": " + why});
                    continue;
                }
                const auto &r = decoded.record;
                const bool multiDispatched =
                    lmq && common::MessageProperties::find(r.properties, kInnerMultiDispatch).has_value();
                if (!multiDispatched
                    && (r.topic != queue.topic || r.queueId != queue.queueId || r.queueOffset != queueOffset
                        || r.totalSize != e.size)) {
                    pending_.push_back({file, position, e.commitLogOffset + e.size, "cq-past-end", what(),
                                        "cq-wrong-record",
                                        what() + " points at " + describe(r) + ", not at this queue's record"});
                    continue;
                }
                // Delay-queue entries carry the delivery time, ext addresses are ≤ INT32_MIN − 1.
                if (queue.topic != kScheduleTopic && e.tagsCode >= INT32_MIN) {
                    const auto tags = common::MessageProperties::find(r.properties, common::property::kTags);
                    const int64_t expected = common::tagsCodeOf(tags.value_or(""));
                    if (expected != e.tagsCode)
                        fail("cq-tags-code", what() + " has tags code " + number(e.tagsCode) + " but the record's "
                                                 + "TAGS \"" + std::string(tags.value_or("")) + "\" hash to "
                                                 + number(expected));
                }
            }
            if (!advance(size))
                return;
        }
    }
}

void VerifierRun::checkIndex()
{
    const int64_t logMin = log_.minOffset();
    std::string indexKey;
    for (const auto &summary : reader_.indexFiles()) {
        const std::string file = "index/" + summary.file.name;
        if (summary.hashSlotNum == 0) {
            fault(file, 0, "index-layout", summary.layoutError);
            continue;
        }
        const auto view = reader_.view(file);
        if (!view || view->size() != IndexFile::fileSizeFor(summary.hashSlotNum, summary.indexNum))
            continue; // replaced since it was summarised (a live store)
        const auto bytes = view->bytes();
        const int32_t slots = summary.hashSlotNum;
        const int32_t count = std::max(summary.header.indexCount, 1); // a fresh file reads 0
        if (count > summary.indexNum)
            fault(file, 36, "index-header",
                  "indexCount " + std::to_string(count) + " exceeds the file's " + std::to_string(summary.indexNum)
                      + " entries");
        const int32_t entries = std::min(count, summary.indexNum);
        for (int32_t slot = 0; slot < slots; ++slot) {
            const int64_t position = indexSlotPosition(slot, slots);
            const int32_t value = common::readInt32(bytes.data() + position);
            if (value != 0 && (value < 0 || value >= entries))
                fault(file, position, "index-bad-slot",
                      "slot " + std::to_string(slot) + " names entry " + std::to_string(value)
                          + " but the file holds entries 1 to " + std::to_string(entries - 1));
        }
        for (int32_t n = 1; n < entries && !cancelled(); ++n) {
            ++report_.indexEntries;
            const IndexChainStep e = readIndexEntry(bytes, slots, n, summary.header.beginTimestamp);
            const auto what = [&] {
                return "entry " + std::to_string(n) + " (hash " + std::to_string(e.keyHash) + ", commit-log offset "
                       + number(e.phyOffset) + ")";
            };
            if (e.prev < 0 || e.prev >= n)
                fault(file, e.filePosition, "index-bad-chain",
                      what() + " links to entry " + std::to_string(e.prev) + ", which is not an older entry");
            if (e.phyOffset < logMin)
                continue; // its record was deleted by retention
            std::string why;
            const auto decoded = recordAt(log_, e.phyOffset, why);
            if (decoded.status != DecodeStatus::Ok) { // past the end or not a record: see resolvePending
                pending_.push_back({file, e.filePosition, e.phyOffset + 1, "index-past-end", what(), "index-bad-target",
                                    what() + ": " + why});
                continue;
            }
            // The keys dispatch indexes this record under (§6.3): topic#UNIQ_KEY and topic#k; the
            // Java broker 5.5 also indexes topic#T#<TAGS> (the whole TAGS value, when not empty).
            const auto &r = decoded.record;
            const auto uniq = common::MessageProperties::find(r.properties, common::property::kUniqClientMessageId);
            const auto keys = common::MessageProperties::find(r.properties, common::property::kKeys);
            const auto tags = common::MessageProperties::find(r.properties, common::property::kTags);
            const auto hashOf = [&](std::string_view key) {
                indexKey.assign(r.topic).append(1, '#').append(key); // no allocation once grown
                return IndexFile::keyHash(indexKey);
            };
            bool carried = uniq && hashOf(*uniq) == e.keyHash;
            for (size_t at = 0; keys && !carried && at <= keys->size();) {
                const size_t space = std::min(keys->find(common::kKeySeparator, at), keys->size());
                carried = space > at && hashOf(keys->substr(at, space - at)) == e.keyHash;
                at = space + 1;
            }
            if (!carried && tags && !tags->empty()) {
                indexKey.assign(r.topic).append(IndexFile::kTagKeyInfix).append(*tags);
                carried = IndexFile::keyHash(indexKey) == e.keyHash;
            }
            if (!carried) {
                const std::string list = std::string(uniq.value_or("")) + (uniq && keys ? " " : "")
                                         + std::string(keys.value_or(""))
                                         + (tags && !tags->empty() ? " T#" + std::string(*tags) : "");
                fault(file, e.filePosition, "index-hash-mismatch",
                      what() + " points at " + describe(r) + ", whose keys [" + list + "] have other hashes");
            }
        }
        advance(view->size());
        if (cancelled())
            return;
    }
}

void VerifierRun::resolvePending(int64_t dataEnd)
{
    for (auto &p : pending_) {
        if (p.targetEnd > dataEnd) // the entry's record would end past the data
            fault(p.file, p.offset, p.pastEndKind, p.what + " points past the end of the commit-log data at " + number(dataEnd));
        else
            fault(p.file, p.offset, std::move(p.otherKind), std::move(p.otherMessage));
    }
    pending_.clear();
}

void VerifierRun::checkConfig()
{
    for (const auto &config : reader_.configFiles()) {
        if (!config.error.empty())
            fault("config/" + config.name, std::max<int64_t>(config.errorOffset, 0), "config-parse", config.error);
    }
}

} // namespace mqdesk::store
