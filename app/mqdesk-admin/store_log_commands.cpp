// `store records`, `store cq` and `store index`: the commit log, consume queues and index files.

#include "app/mqdesk-admin/admin_output.h"
#include "app/mqdesk-admin/store_commands.h"
#include "app/mqdesk-admin/store_output.h"

#include <iostream>
#include <limits>

namespace mqdesk::admin {

using common::JsonObject;

namespace {

std::string number(int64_t value) { return std::to_string(value); }

size_t limitOf(const StoreCommandOptions &options)
{
    return options.limit <= 0 ? std::numeric_limits<size_t>::max() : static_cast<size_t>(options.limit);
}

int listQueues(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    TextTable table({"TOPIC", "QUEUE", "MIN", "MAX", "FILES"});
    for (const auto &queue : reader.consumeQueues()) {
        if (!options.topic.empty() && queue.topic != options.topic)
            continue;
        if (options.json) {
            JsonObject json;
            json.set("topic", utf8Text(queue.topic));
            json.set("queueId", queue.queueId);
            json.set("minOffset", queue.minOffset);
            json.set("maxOffset", queue.maxOffset);
            json.set("files", queue.files.size());
            json.set("queueType", queue.batch ? "BatchCQ" : "SimpleCQ");
            printJsonLine(std::cout, json);
        } else {
            table.addRow({queue.topic + (queue.batch ? " (BatchCQ)" : ""), number(queue.queueId),
                          number(queue.minOffset), number(queue.maxOffset),
                          number(static_cast<int64_t>(queue.files.size()))});
        }
    }
    if (!options.json)
        table.print(std::cout);
    return kExitOk;
}

int listIndexFiles(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    TextTable table({"FILE", "SIZE", "SLOTS", "ENTRIES", "USED SLOTS", "COUNT", "BEGIN", "END", "PHY OFFSETS"});
    for (const auto &summary : reader.indexFiles()) {
        const auto &h = summary.header;
        if (options.json) {
            JsonObject json;
            json.set("file", utf8Text(summary.file.name));
            json.set("size", summary.file.size);
            json.set("hashSlotNum", summary.hashSlotNum);
            json.set("indexNum", summary.indexNum);
            json.set("beginTimestamp", h.beginTimestamp);
            json.set("endTimestamp", h.endTimestamp);
            json.set("beginPhyOffset", h.beginPhyOffset);
            json.set("endPhyOffset", h.endPhyOffset);
            json.set("hashSlotCount", h.hashSlotCount);
            json.set("indexCount", h.indexCount);
            if (!summary.layoutError.empty())
                json.set("layoutError", utf8Text(summary.layoutError));
            printJsonLine(std::cout, json);
        } else {
            table.addRow({summary.file.name, number(summary.file.size), number(summary.hashSlotNum),
                          number(summary.indexNum), number(h.hashSlotCount), number(h.indexCount),
                          formatMillis(h.beginTimestamp), formatMillis(h.endTimestamp),
                          number(h.beginPhyOffset) + " .. " + number(h.endPhyOffset) +
                              (summary.layoutError.empty() ? "" : "  (" + summary.layoutError + ")")});
        }
    }
    if (!options.json)
        table.print(std::cout);
    return kExitOk;
}

std::string hasKeyText(const std::optional<bool> &hasKey)
{
    return !hasKey ? "unreadable" : *hasKey ? "yes" : "no";
}

// --from-time as milliseconds; nullopt (after saying why) when it is not a time.
std::optional<int64_t> fromTimeOf(const StoreCommandOptions &options)
{
    const auto millis = parseTimestamp(options.fromTime);
    if (!millis)
        std::cerr << "mqdesk-admin: store " << options.command << ": --from-time " << options.fromTime
                  << ": expected milliseconds, yyyy-MM-dd HH:mm:ss[.SSS] or yyyy-MM-dd#HH:mm:ss:SSS\n";
    return millis;
}

} // namespace

int runRecords(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    int64_t from = options.from;
    if (!options.fromTime.empty()) {
        const auto millis = fromTimeOf(options);
        if (!millis)
            return kExitUsage;
        from = reader.offsetByTime(*millis);
    }
    store::RecordQuery query{.fromOffset = from,
                             .limit = limitOf(options),
                             .topic = options.topic,
                             .tag = options.tag,
                             .key = options.key,
                             .includeMarkers = options.markers};
    const store::RecordPage page = reader.readRecords(query);
    if (options.json) {
        for (const auto &record : page.records)
            printJsonLine(std::cout, recordToJson(record));
        return kExitOk;
    }
    TextTable table({"OFFSET", "SIZE", "TOPIC", "QUEUE", "QOFFSET", "STORED", "TAGS", "KEYS", "BODY"});
    for (const auto &record : page.records) {
        if (record.kind != store::RecordKind::Message) {
            table.addRow({number(record.offset), number(record.size), "", "", "", "", "", "",
                          record.kind == store::RecordKind::Blank ? "<end of file " + record.file + ">"
                                                                  : "<invalid: " + record.error + ">"});
            continue;
        }
        const auto &m = record.message;
        std::string body = bodyPreview(m.body, 60);
        if (!record.crcOk)
            body = "<CRC mismatch> " + body;
        table.addRow({number(record.offset), number(record.size), m.topic, number(m.queueId), number(m.queueOffset),
                      formatMillis(m.storeTimestamp), m.tags(),
                      std::string(m.properties.get(common::property::kKeys).value_or("")), body});
    }
    table.print(std::cout);
    std::cout << "-- " << page.records.size() << " entries; next offset " << page.nextOffset
              << (page.atEnd ? " (end of data)" : "") << '\n';
    return kExitOk;
}

int runConsumeQueue(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    if (options.queue < 0 && !options.fromTime.empty()) {
        std::cerr << "mqdesk-admin: store cq: --from-time needs --topic and --queue\n";
        return kExitUsage;
    }
    if (options.queue < 0)
        return listQueues(reader, options);
    if (options.topic.empty()) {
        std::cerr << "mqdesk-admin: store cq: --queue needs --topic\n";
        return kExitUsage;
    }
    const auto queue = reader.consumeQueue(options.topic, options.queue);
    if (!queue) {
        std::cerr << "mqdesk-admin: " << reader.rootDir() << ": no consume queue " << options.topic << '/'
                  << options.queue << '\n';
        return kExitError;
    }
    int64_t from = options.from;
    if (!options.fromTime.empty()) {
        const auto millis = fromTimeOf(options);
        if (!millis)
            return kExitUsage;
        from = reader.consumeQueueOffsetByTime(options.topic, options.queue, *millis);
    }
    const auto page = reader.readConsumeQueue(options.topic, options.queue, from, limitOf(options));
    // A BatchCQ queue's units each hold MESSAGES messages from their queue offset.
    std::vector<std::string> columns{"QOFFSET", "COMMITLOG OFFSET", "SIZE", "TAGS CODE", "VALID", "FILE", "POSITION"};
    if (queue->batch)
        columns.push_back("MESSAGES");
    TextTable table(columns);
    for (const auto &read : page.entries) {
        if (options.json) {
            JsonObject json;
            json.set("topic", utf8Text(options.topic));
            json.set("queueId", options.queue);
            json.set("queueOffset", read.queueOffset);
            json.set("commitLogOffset", read.entry.commitLogOffset);
            json.set("size", read.entry.size);
            json.set("tagsCode", read.entry.tagsCode);
            json.set("valid", read.valid);
            json.set("filler", read.entry.isFiller());
            json.set("file", utf8Text(read.file));
            json.set("filePosition", read.filePosition);
            json.set("batchSize", read.entry.batchSize);
            printJsonLine(std::cout, json);
        } else {
            std::vector<std::string> row{number(read.queueOffset), number(read.entry.commitLogOffset),
                                         number(read.entry.size), number(read.entry.tagsCode),
                                         read.entry.isFiller() ? "filler" : read.valid ? "yes" : "NO", read.file,
                                         number(read.filePosition)};
            if (queue->batch)
                row.push_back(number(read.entry.batchSize));
            table.addRow(std::move(row));
        }
    }
    if (!options.json) {
        table.print(std::cout);
        std::cout << "-- " << page.entries.size() << " entries; next queue offset " << page.nextQueueOffset
                  << (page.atEnd ? " (end of queue)" : "") << '\n';
    }
    return kExitOk;
}

int runIndex(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    if (options.key.empty())
        return listIndexFiles(reader, options);
    if (options.topic.empty()) {
        std::cerr << "mqdesk-admin: store index: --key needs --topic (index keys are topic#key)\n";
        return kExitUsage;
    }
    for (const auto &lookup : reader.lookupIndexKey(options.topic, options.key)) {
        if (options.json) {
            JsonObject json;
            json.set("file", utf8Text(lookup.file));
            json.set("indexKey", utf8Text(lookup.indexKey));
            json.set("keyHash", lookup.keyHash);
            json.set("slot", lookup.slot);
            json.set("slotPosition", lookup.slotPosition);
            json.set("slotValue", lookup.slotValue);
            common::JsonArray chain;
            common::JsonArray hits;
            for (const auto &step : lookup.chain) {
                JsonObject s;
                s.set("entry", step.entry);
                s.set("filePosition", step.filePosition);
                s.set("keyHash", step.keyHash);
                s.set("phyOffset", step.phyOffset);
                s.set("timestamp", step.timestamp);
                s.set("prev", step.prev);
                s.set("hashMatches", step.hashMatches);
                s.set("recordHasKey", step.recordHasKey ? common::JsonValue(*step.recordHasKey) : common::JsonValue());
                if (step.recordHasKey.value_or(false))
                    hits.emplace_back(step.phyOffset);
                chain.emplace_back(std::move(s));
            }
            json.set("chain", std::move(chain));
            json.set("hits", std::move(hits));
            json.set("stopReason", utf8Text(lookup.stopReason));
            printJsonLine(std::cout, json);
            continue;
        }
        std::cout << "index file " << lookup.file << ": key " << lookup.indexKey << ", hash " << lookup.keyHash
                  << ", slot " << lookup.slot << " @" << lookup.slotPosition << " -> entry " << lookup.slotValue << '\n';
        TextTable table({"ENTRY", "POSITION", "HASH", "PHY OFFSET", "TIME", "PREV", "HASH MATCH", "RECORD HAS KEY"});
        for (const auto &step : lookup.chain)
            table.addRow({number(step.entry), number(step.filePosition), number(step.keyHash), number(step.phyOffset),
                          formatMillis(step.timestamp), number(step.prev), step.hashMatches ? "yes" : "no",
                          hasKeyText(step.recordHasKey)});
        table.print(std::cout);
        std::cout << "-- stopped: " << lookup.stopReason << "\n\n";
    }
    return kExitOk;
}

} // namespace mqdesk::admin
