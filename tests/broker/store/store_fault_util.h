#pragma once

// Helpers of tst_store_faults.cpp and tst_disk_faults.cpp: commit-log records written byte by
// byte as the Java broker lays them out (store-format §3), without our encoder, so the tests
// hold whatever bytes Java stores (NUL in properties, no trailing 0x02, any topic).

#include "store_test_util.h"

#include "broker/common/bytes.h"
#include "broker/common/crc32.h"
#include "broker/store/mapped_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace mqdesk::test {

// A V1 record with IPv4 hosts: TOTALSIZE MAGIC BODYCRC QUEUEID FLAG QUEUEOFFSET PHYSICALOFFSET
// SYSFLAG BORNTIMESTAMP BORNHOST STORETIMESTAMP STOREHOST RECONSUMETIMES PREPAREDTXOFFSET
// BODYLENGTH BODY TOPICLENGTH TOPIC PROPERTIESLENGTH PROPERTIES.
inline std::vector<uint8_t> handWrittenRecord(const std::string &topic, int32_t queueId, int64_t queueOffset,
                                              int64_t physicalOffset, const std::string &body,
                                              const std::string &properties, int64_t storeTimestamp)
{
    const auto size = static_cast<int32_t>(84 + 4 + body.size() + 1 + topic.size() + 2 + properties.size());
    std::vector<uint8_t> r(static_cast<size_t>(size));
    uint8_t *p = r.data();
    const auto bodyBytes = std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(body.data()), body.size());
    common::writeInt32(p + 0, size);
    common::writeInt32(p + 4, static_cast<int32_t>(0xDAA320A7));
    common::writeInt32(p + 8, common::maskedBodyCrc(bodyBytes));
    common::writeInt32(p + 12, queueId);
    common::writeInt32(p + 16, 0);
    common::writeInt64(p + 20, queueOffset);
    common::writeInt64(p + 28, physicalOffset);
    common::writeInt32(p + 36, 0);                              // SYSFLAG: a plain message
    common::writeInt64(p + 40, storeTimestamp - 5);              // BORNTIMESTAMP
    common::writeInt32(p + 48, 0x7F000001);                     // BORNHOST 127.0.0.1
    common::writeInt32(p + 52, 40000);
    common::writeInt64(p + 56, storeTimestamp);
    common::writeInt32(p + 64, 0x7F000001);                     // STOREHOST
    common::writeInt32(p + 68, 10911);
    common::writeInt32(p + 72, 0);                              // RECONSUMETIMES
    common::writeInt64(p + 76, 0);                              // PREPAREDTRANSACTIONOFFSET
    common::writeInt32(p + 84, static_cast<int32_t>(body.size()));
    size_t at = 88;
    std::memcpy(p + at, body.data(), body.size());
    at += body.size();
    p[at++] = static_cast<uint8_t>(topic.size());
    std::memcpy(p + at, topic.data(), topic.size());
    at += topic.size();
    common::writeInt16(p + at, static_cast<int16_t>(properties.size()));
    at += 2;
    std::memcpy(p + at, properties.data(), properties.size());
    return r;
}

// Writes `bytes` at `offset` of the file (pwrite + fsync), as an outside writer would.
inline bool patchFile(const std::string &path, int64_t offset, std::span<const uint8_t> bytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::pwrite(fd, bytes.data(), bytes.size(), offset) == static_cast<ssize_t>(bytes.size())
                    && ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}

inline std::string commitLogFile(const store::MessageStoreConfig &config, int64_t offset)
{
    return config.commitLogDir() + "/" + store::offsetToFileName(offset / config.mappedFileSizeCommitLog
                                                                  * config.mappedFileSizeCommitLog);
}

// Every name in `directory` (not recursive).
inline std::vector<std::string> namesIn(const std::string &directory)
{
    std::vector<std::string> names;
    for (const auto &entry : std::filesystem::directory_iterator(directory))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace mqdesk::test
