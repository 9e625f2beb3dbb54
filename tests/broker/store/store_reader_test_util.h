#pragma once

// Helpers of tst_store_reader.cpp: a fingerprint of a directory tree, readers, the numbered
// messages of the test store, fault lookups and byte patches.

#include "store_test_util.h"

#include "broker/common/bytes.h"
#include "broker/common/crc32.h"
#include "broker/store/reader/store_reader.h"
#include "broker/store/reader/store_verifier.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace mqdesk::test {

inline constexpr int kMessages = 300;
inline constexpr int64_t kLogFileSize = 8192;
inline constexpr int32_t kIndexSlots = 1000; // smallStoreConfig's index layout
inline constexpr int64_t kBodyAt = 88;      // a V1 record with IPv4 hosts: its body starts here

// Everything that could change under a reader: names, sizes, contents, modification times.
inline std::map<std::string, std::string> fingerprint(const std::string &root)
{
    std::map<std::string, std::string> out;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(root)) {
        struct stat st{};
        ::lstat(entry.path().c_str(), &st);
        std::string value = std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "."
                            + std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_mode);
        if (S_ISREG(st.st_mode))
            value += ":" + std::to_string(common::crc32(readFile(entry.path().string())));
        out[entry.path().string()] = value;
    }
    return out;
}

inline std::unique_ptr<store::StoreReader> openReader(const std::string &root)
{
    std::string error;
    auto reader = store::StoreReader::open(root, {}, error);
    if (!reader)
        qWarning("cannot open reader: %s", error.c_str());
    return reader;
}

inline std::vector<store::CommitLogRecord> allMessages(const store::StoreReader &reader,
                                                     const store::RecordQuery &base = {})
{
    store::RecordQuery query = base;
    query.limit = 100000;
    query.includeMarkers = false;
    return reader.readRecords(query).records;
}

inline store::MessageStoreConfig storeConfig(const QString &root)
{
    auto config = smallStoreConfig(root, kLogFileSize);
    config.mappedFileSizeConsumeQueue = 20 * 50; // queues of several files
    return config;
}

// Message i: topic U queue 0 for every third, else topic T queue i % 2; key "k<i>"; tag TagB
// for every fifth, else TagA.
inline common::BrokerMessage numbered(int i)
{
    const std::string topic = i % 3 == 0 ? "U" : "T";
    auto m = makeMessage(topic, topic == "U" ? 0 : i % 2, "message-" + std::to_string(i) + "-payload",
                               "k" + std::to_string(i));
    if (i % 5 == 0)
        m.properties.set(common::property::kTags, "TagB");
    return m;
}

inline bool hasFault(const store::VerifyReport &report, const std::string &kind, const std::string &file,
                     int64_t offset)
{
    return std::any_of(report.faults.begin(), report.faults.end(), [&](const store::StoreFault &f) {
        return f.kind == kind && f.file == file && f.offset == offset;
    });
}

inline std::string listFaults(const store::VerifyReport &report)
{
    std::string out;
    for (const auto &f : report.faults)
        out += "\n  " + f.kind + " " + f.file + " @" + std::to_string(f.offset) + ": " + f.message;
    return out.empty() ? "(none)" : out;
}

inline void patch(const std::string &path, int64_t at, const std::vector<uint8_t> &bytes)
{
    auto content = readFile(path);
    std::copy(bytes.begin(), bytes.end(), content.begin() + at);
    writeFile(path, content);
}

inline std::vector<uint8_t> int64Bytes(int64_t v)
{
    std::vector<uint8_t> b(8);
    common::writeInt64(b.data(), v);
    return b;
}

} // namespace mqdesk::test
