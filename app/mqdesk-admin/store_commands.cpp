#include "app/mqdesk-admin/store_commands.h"

#include "app/mqdesk-admin/store_output.h"
#include "broker/store/reader/store_verifier.h"

#include <filesystem>
#include <iostream>
#include <map>

namespace mqdesk::admin {

using common::JsonObject;

namespace {

std::string number(int64_t value) { return std::to_string(value); }
std::string yesNo(bool value) { return value ? "yes" : "no"; }

// A directory is taken for a store when it holds anything a RocketMQ store root holds.
bool looksLikeStore(const std::string &dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const char *name : {"commitlog", "consumequeue", "index", "config", "checkpoint", "abort", "lock"})
        if (fs::exists(fs::path(dir) / name, ec))
            return true;
    return false;
}

std::string_view configFormatName(store::ConfigFormat format)
{
    switch (format) {
    case store::ConfigFormat::Json:
        return "json";
    case store::ConfigFormat::Properties:
        return "properties";
    case store::ConfigFormat::Binary:
        return "binary";
    case store::ConfigFormat::Unknown:
        break;
    }
    return "unknown";
}

JsonObject recoveryToJson(const store::RecoverySimulation &r)
{
    JsonObject json;
    json.set("abnormal", r.abnormal);
    json.set("wouldOpen", r.wouldOpen);
    if (!r.wouldOpen)
        json.set("openError", utf8Text(r.openError));
    json.set("startOffset", r.startOffset);
    json.set("stopOffset", r.stopOffset);
    json.set("stopFile", utf8Text(r.stopFile));
    json.set("stopFilePosition", r.stopFilePosition);
    json.set("stopReason", utf8Text(r.stopReason));
    json.set("cleanEnd", r.cleanEnd);
    json.set("processOffset", r.processOffset);
    json.set("truncatedBytes", r.truncatedBytes);
    json.set("filesDeleted", r.filesDeleted);
    json.set("recordsScanned", r.recordsScanned);
    json.set("recordsLost", r.recordsLost);
    return json;
}

std::string recoveryLine(const store::RecoverySimulation &r)
{
    if (!r.wouldOpen)
        return "would not open: " + r.openError;
    std::string line = "stops at " + number(r.stopOffset) + " (" + r.stopFile + " @" + number(r.stopFilePosition) +
                       "), " + r.stopReason;
    if (r.truncatedBytes > 0 || r.recordsLost > 0)
        line += "; truncates " + number(r.truncatedBytes) + " bytes, loses " + number(static_cast<int64_t>(r.recordsLost)) +
                " records";
    return line;
}

} // namespace

int runStoreCommand(const StoreCommandOptions &options)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(options.dir, ec)) {
        std::cerr << "mqdesk-admin: " << options.dir << ": no such store directory\n";
        return kExitError;
    }
    std::string error;
    auto reader = store::StoreReader::open(options.dir, {}, error);
    if (!reader) {
        std::cerr << "mqdesk-admin: cannot open store " << options.dir << ": " << error << '\n';
        return kExitError;
    }
    if (!looksLikeStore(options.dir)) {
        std::cerr << "mqdesk-admin: " << options.dir
                  << " is not a RocketMQ store (no commitlog/, consumequeue/, index/, config/, checkpoint, abort or lock)\n";
        return kExitError;
    }
    static const std::map<std::string, int (*)(const store::StoreReader &, const StoreCommandOptions &)> commands{
        {"summary", runSummary}, {"records", runRecords}, {"cq", runConsumeQueue}, {"index", runIndex},
        {"checkpoint", runCheckpoint}, {"config", runConfig}, {"verify", runVerify}};
    const auto it = commands.find(options.command);
    if (it == commands.end()) {
        std::cerr << "mqdesk-admin: unknown store command '" << options.command << "'\n";
        return kExitUsage;
    }
    return it->second(*reader, options);
}

int runSummary(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    const auto files = reader.listFiles();
    const auto log = reader.commitLogFiles();
    const int64_t dataEnd = reader.commitLogDataEnd();
    const auto queues = reader.consumeQueues();
    const auto indexes = reader.indexFiles();
    const auto abort = reader.readAbort();
    const auto lock = reader.probeLock();
    std::string checkpointError;
    const auto checkpoint = reader.readCheckpoint(&checkpointError);
    const int64_t minOffset = log.files.empty() ? 0 : log.files.front().startOffset;

    if (options.json) {
        JsonObject json;
        json.set("root", utf8Text(reader.rootDir()));
        json.set("commitLogFileSize", log.fileSize);
        json.set("commitLogFiles", log.files.size());
        json.set("commitLogMinOffset", minOffset);
        json.set("commitLogDataEnd", dataEnd);
        json.set("consumeQueues", queues.size());
        json.set("indexFiles", indexes.size());
        json.set("checkpoint", checkpoint.has_value());
        json.set("abort", abort.present);
        json.set("lock", lock.present);
        json.set("live", lock.live);
        common::JsonArray list;
        for (const auto &file : files) {
            JsonObject entry;
            entry.set("path", utf8Text(file.relativePath));
            entry.set("kind", store::storeFileKindName(file.kind));
            entry.set("size", file.size);
            entry.set("modified", file.modifiedMillis);
            if (file.startOffset >= 0)
                entry.set("startOffset", file.startOffset);
            list.emplace_back(std::move(entry));
        }
        json.set("files", std::move(list));
        printJsonLine(std::cout, json);
        return kExitOk;
    }

    KeyValueList kv;
    kv.add("store", reader.rootDir());
    kv.add("commit log", number(static_cast<int64_t>(log.files.size())) + " files of " + number(log.fileSize) +
                             " bytes, offsets " + number(minOffset) + " .. " + number(dataEnd));
    kv.add("consume queues", number(static_cast<int64_t>(queues.size())));
    kv.add("index files", number(static_cast<int64_t>(indexes.size())));
    kv.add("checkpoint", checkpoint ? "physic " + formatMillis(checkpoint->physicMsgTimestamp) : "none (" + checkpointError + ")");
    kv.add("abort", abort.present ? "present (the broker did not stop cleanly)" : "absent");
    kv.add("lock", !lock.present ? "absent" : lock.live ? "held by a running broker" : "present, not held");
    kv.print(std::cout);
    std::cout << '\n';
    TextTable table({"FILE", "KIND", "SIZE", "MODIFIED"});
    for (const auto &file : files)
        table.addRow({file.relativePath, std::string(store::storeFileKindName(file.kind)), number(file.size),
                      formatMillis(file.modifiedMillis)});
    table.print(std::cout);
    return kExitOk;
}

int runCheckpoint(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    std::string error;
    const auto values = reader.readCheckpoint(&error);
    if (!values) {
        std::cerr << "mqdesk-admin: " << reader.rootDir() << "/checkpoint: " << error << '\n';
        return kExitError;
    }
    if (options.json) {
        JsonObject json;
        json.set("fileSize", values->fileSize);
        json.set("physicMsgTimestamp", values->physicMsgTimestamp);
        json.set("logicsMsgTimestamp", values->logicsMsgTimestamp);
        json.set("indexMsgTimestamp", values->indexMsgTimestamp);
        json.set("masterFlushedOffset", values->masterFlushedOffset);
        json.set("confirmPhyOffset", values->confirmPhyOffset);
        json.set("minTimestamp", values->minTimestamp());
        printJsonLine(std::cout, json);
        return kExitOk;
    }
    const auto time = [](int64_t millis) { return number(millis) + "  " + formatMillis(millis); };
    KeyValueList kv;
    kv.add("physicMsgTimestamp", time(values->physicMsgTimestamp));
    kv.add("logicsMsgTimestamp", time(values->logicsMsgTimestamp));
    kv.add("indexMsgTimestamp", time(values->indexMsgTimestamp));
    kv.add("masterFlushedOffset", number(values->masterFlushedOffset));
    kv.add("confirmPhyOffset", number(values->confirmPhyOffset));
    kv.add("minTimestamp", time(values->minTimestamp()));
    kv.add("fileSize", number(values->fileSize));
    kv.print(std::cout);
    return kExitOk;
}

int runConfig(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    std::vector<store::ConfigFileContent> files;
    if (!options.name.empty()) {
        auto file = reader.configFile(options.name);
        if (!file) {
            std::cerr << "mqdesk-admin: " << reader.rootDir() << "/config/" << options.name << ": no such config file\n";
            return kExitError;
        }
        files.push_back(std::move(*file));
    } else {
        files = reader.configFiles();
    }
    if (options.json) {
        for (const auto &file : files) {
            JsonObject json;
            json.set("name", utf8Text(file.name));
            json.set("size", file.size);
            json.set("format", configFormatName(file.format));
            json.set("parsed", file.parsed);
            if (!file.error.empty()) {
                json.set("error", utf8Text(file.error));
                json.set("errorOffset", file.errorOffset);
            }
            if (file.parsed && file.format == store::ConfigFormat::Json) {
                json.set("content", file.json);
            } else if (file.parsed && file.format == store::ConfigFormat::Properties) {
                JsonObject properties;
                for (const auto &[key, value] : file.properties)
                    properties.set(utf8Text(key), utf8Text(value));
                json.set("content", std::move(properties));
            } else if (file.format != store::ConfigFormat::Binary) {
                json.set("text", utf8Text(file.text));
            }
            printJsonLine(std::cout, json);
        }
        return kExitOk;
    }
    if (!options.name.empty()) {
        const auto &file = files.front();
        if (!file.error.empty())
            std::cerr << "mqdesk-admin: " << file.error << '\n';
        std::cout << file.text;
        if (!file.text.empty() && file.text.back() != '\n')
            std::cout << '\n';
        return kExitOk;
    }
    TextTable table({"NAME", "SIZE", "FORMAT", "PARSED", "ERROR"});
    for (const auto &file : files)
        table.addRow({file.name, number(file.size), std::string(configFormatName(file.format)), yesNo(file.parsed),
                      file.error});
    table.print(std::cout);
    return kExitOk;
}

int runVerify(const store::StoreReader &reader, const StoreCommandOptions &options)
{
    store::VerifyOptions verifyOptions;
    verifyOptions.checkCrc = !options.noCrc;
    const store::VerifyReport report = store::verifyStore(reader, verifyOptions);
    if (options.json) {
        // Fault lines first, then one summary line (it has "healthy" and no "kind").
        for (const auto &fault : report.faults) {
            JsonObject json;
            json.set("file", utf8Text(fault.file));
            json.set("offset", fault.offset);
            json.set("kind", fault.kind);
            json.set("message", utf8Text(fault.message));
            printJsonLine(std::cout, json);
        }
        JsonObject summary;
        summary.set("healthy", report.healthy());
        summary.set("faults", report.faults.size());
        summary.set("records", report.records);
        summary.set("commitLogDataEnd", report.commitLogDataEnd);
        summary.set("bytesScanned", report.bytesScanned);
        summary.set("consumeQueueEntries", report.consumeQueueEntries);
        summary.set("indexEntries", report.indexEntries);
        summary.set("abortPresent", report.abortPresent);
        summary.set("live", report.live);
        summary.set("normalRecovery", recoveryToJson(report.normalRecovery));
        summary.set("abnormalRecovery", recoveryToJson(report.abnormalRecovery));
        printJsonLine(std::cout, summary);
    } else {
        KeyValueList kv;
        kv.add("store", reader.rootDir());
        kv.add("records", number(static_cast<int64_t>(report.records)));
        kv.add("commit log data end", number(report.commitLogDataEnd));
        kv.add("consume queue entries", number(static_cast<int64_t>(report.consumeQueueEntries)));
        kv.add("index entries", number(static_cast<int64_t>(report.indexEntries)));
        kv.add("abort file", report.abortPresent ? "present: the next start runs abnormal recovery" : "absent");
        if (report.live)
            kv.add("live", "a broker holds the lock; the tail may change while scanned");
        kv.add("normal recovery", recoveryLine(report.normalRecovery));
        kv.add("abnormal recovery", recoveryLine(report.abnormalRecovery));
        kv.add("result", report.healthy() ? "healthy" : number(static_cast<int64_t>(report.faults.size())) + " fault(s)");
        kv.print(std::cout);
        if (!report.faults.empty()) {
            std::cout << '\n';
            TextTable table({"FILE", "OFFSET", "KIND", "MESSAGE"});
            for (const auto &fault : report.faults)
                table.addRow({fault.file, number(fault.offset), fault.kind, fault.message});
            table.print(std::cout);
        }
    }
    return report.healthy() ? kExitOk : kExitFaults;
}

} // namespace mqdesk::admin
