#pragma once

// Helpers of tst_store_corruption.cpp: the damage kinds applied to one file family of a store
// copy, what verifyStore must then report, and the "every reader call works" exercise.

#include "store_reader_test_util.h"

#include <random>
#include <set>

namespace mqdesk::test {

enum class Family { CommitLog, ConsumeQueue, Index, Checkpoint, Config };
enum class Damage { FlipBits, Truncate, Extend, ZeroPage, Missing, Extra, Garbage };

inline const char *familyName(Family f)
{
    static const char *names[] = {"commitlog", "consumequeue", "index", "checkpoint", "config"};
    return names[static_cast<int>(f)];
}

inline const char *damageName(Damage d)
{
    static const char *names[] = {"flip-bits", "truncate", "extend", "zero-page", "missing", "extra", "garbage"};
    return names[static_cast<int>(d)];
}

// What verifyStore must report after a damage: a fault of `kind` naming `file` at `offset`
// (-1: anywhere in the file). An empty kind: nothing is certain (a missing consume queue is
// what retention leaves behind; a checkpoint's values may be anything) beyond no crash.
struct Expected
{
    std::string file;
    std::string kind;
    int64_t offset = -1;
};

inline void resizeFile(const std::string &path, int64_t size) { std::filesystem::resize_file(path, static_cast<uintmax_t>(size)); }

inline void appendBytes(const std::string &path, size_t count, uint8_t value)
{
    auto bytes = readFile(path);
    bytes.insert(bytes.end(), count, value);
    writeFile(path, bytes);
}

inline void flipByte(const std::string &path, int64_t at, uint8_t mask)
{
    auto bytes = readFile(path);
    bytes.at(static_cast<size_t>(at)) ^= mask;
    writeFile(path, bytes);
}

// Zeros [at, at + 4096) clipped to the file: a lost page.
inline void zeroPage(const std::string &path, int64_t at)
{
    auto bytes = readFile(path);
    const auto from = std::min(bytes.size(), static_cast<size_t>(at));
    std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(from),
              bytes.begin() + static_cast<std::ptrdiff_t>(std::min(bytes.size(), from + 4096)), 0);
    writeFile(path, bytes);
}

inline void writeText(const std::string &path, const std::string &text)
{
    writeFile(path, std::vector<uint8_t>(text.begin(), text.end()));
}

// The damaged file: the commit-log file holding the middle message, the first file of consume
// queue T/0, the first index file, the checkpoint, config/delayOffset.json.
inline std::string targetFile(const store::StoreReader &pristine, Family family)
{
    switch (family) {
    case Family::CommitLog: {
        const auto all = allMessages(pristine);
        return "commitlog/" + all[all.size() / 2].file;
    }
    case Family::ConsumeQueue:
        return "consumequeue/T/0/" + pristine.consumeQueue("T", 0)->files.front().name;
    case Family::Index:
        return "index/" + pristine.indexFiles().front().file.name;
    case Family::Checkpoint:
        return "checkpoint";
    case Family::Config:
        return "config/delayOffset.json";
    }
    return {};
}

// Whether `root` (before damage) has anything of `family` to damage.
inline bool hasFamily(const store::StoreReader &pristine, Family family)
{
    switch (family) {
    case Family::CommitLog:
        return !allMessages(pristine).empty();
    case Family::ConsumeQueue:
        return pristine.consumeQueue("T", 0).has_value();
    case Family::Index:
        return !pristine.indexFiles().empty();
    case Family::Checkpoint:
        return pristine.readCheckpoint().has_value();
    case Family::Config:
        return pristine.configFile("delayOffset.json").has_value();
    }
    return false;
}

Expected damageCommitLog(const std::string &root, const store::StoreReader &pristine, Damage damage);
Expected damageConsumeQueue(const std::string &root, const store::StoreReader &pristine, Damage damage);
Expected damageIndex(const std::string &root, const store::StoreReader &pristine, Damage damage);
Expected damageCheckpoint(const std::string &root, Damage damage);
Expected damageConfig(const std::string &root, Damage damage);

inline Expected applyDamage(const std::string &root, const store::StoreReader &pristine, Family family, Damage damage)
{
    switch (family) {
    case Family::CommitLog:
        return damageCommitLog(root, pristine, damage);
    case Family::ConsumeQueue:
        return damageConsumeQueue(root, pristine, damage);
    case Family::Index:
        return damageIndex(root, pristine, damage);
    case Family::Checkpoint:
        return damageCheckpoint(root, damage);
    case Family::Config:
        return damageConfig(root, damage);
    }
    return {};
}

// Every read the explorer offers, over everything the reader lists; the results are only used
// to prove the calls return (ASan checks every byte they touch).
inline size_t exerciseReader(const store::StoreReader &reader)
{
    size_t seen = reader.listFiles().size();
    const auto messages = allMessages(reader);
    seen += reader.readRecords({.fromOffset = 0, .limit = 100000}).records.size(); // markers too
    const int64_t end = reader.commitLogDataEnd();
    seen += reader.readRecordsBefore(end, 50).records.size();
    for (size_t i = 0; i < messages.size(); i += 7) {
        seen += reader.readRecordAt(messages[i].offset).has_value();
        seen += reader.readCommitLogBytes(messages[i].offset, 64).size();
        seen += static_cast<size_t>(reader.offsetByTime(messages[i].message.storeTimestamp) >= 0);
        seen += reader.lookupIndexKey(messages[i].message.topic, "k" + std::to_string(i)).size();
    }
    for (const auto &queue : reader.consumeQueues()) {
        seen += reader.readConsumeQueue(queue.topic, queue.queueId, 0, 100000).entries.size();
        seen += static_cast<size_t>(reader.consumeQueueOffsetByTime(queue.topic, queue.queueId, 0) >= 0);
    }
    for (const auto &index : reader.indexFiles()) {
        seen += reader.indexSlotOccupancy(index.file.name, 16).size();
        seen += reader.readIndexEntries(index.file.name, 0, 5000).size();
    }
    seen += reader.readCheckpoint().has_value() + reader.readAbort().present + reader.probeLock().present;
    for (const auto &config : reader.configFiles())
        seen += config.text.size();
    return seen;
}

// Every fault names a file of the store and an offset inside it; empty when so, else the first
// that does not.
inline std::string faultOutsideItsFile(const std::string &root, const store::VerifyReport &report)
{
    for (const auto &fault : report.faults) {
        std::error_code ec;
        const auto size = static_cast<int64_t>(std::filesystem::file_size(root + "/" + fault.file, ec));
        if (fault.kind.empty() || fault.message.empty() || ec || fault.offset < 0 || fault.offset > size)
            return fault.kind + " " + fault.file + " @" + std::to_string(fault.offset) + ": " + fault.message;
    }
    return {};
}

} // namespace mqdesk::test
