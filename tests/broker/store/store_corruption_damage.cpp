// The deterministic damages of tst_store_corruption.cpp, one function per file family: each
// damages a copy and says which fault verifyStore must report, with its file and offset.

#include "store_corruption_util.h"

namespace mqdesk::test {

namespace fs = std::filesystem;

namespace {

// Where index entry `n` starts (store-format §6.2) in smallStoreConfig's layout.
int64_t indexEntryPosition(int32_t n)
{
    return store::IndexFile::kHeaderSize + int64_t{kIndexSlots} * store::IndexFile::kHashSlotSize
           + int64_t{n} * store::IndexFile::kIndexSize;
}

} // namespace

Expected damageCommitLog(const std::string &root, const store::StoreReader &pristine, Damage damage)
{
    const auto all = allMessages(pristine);
    const auto &middle = all[all.size() / 2];
    const auto family = pristine.commitLogFiles();
    const std::string rel = "commitlog/" + middle.file;
    const std::string path = root + "/" + rel;
    const int64_t position = middle.offset % kLogFileSize; // every source has 8192-byte files
    const int64_t size = static_cast<int64_t>(fs::file_size(path));
    switch (damage) {
    case Damage::FlipBits: // a body byte of the middle message
        flipByte(path, position + kBodyAt, 0x10);
        return {rel, "record-crc", position};
    case Damage::Truncate: // inside the middle message
        resizeFile(path, position + 10);
        return {rel, "record-length", position};
    case Damage::Extend: {
        appendBytes(path, 100, 0xAB);
        if (family.files.size() > 1) // its siblings keep the configured size
            return {rel, "file-size", size};
        // A single file sets the size itself; its end-of-file record no longer reaches the end.
        const auto page = pristine.readRecords({.fromOffset = middle.offset, .limit = 100000});
        return {rel, "record-blank", page.records.back().offset - (middle.offset - position)};
    }
    case Damage::ZeroPage: { // the first page of the first file: data follows the zeros
        const auto &first = family.files.front();
        zeroPage(first.path, 0);
        return {"commitlog/" + first.name, "commitlog-zero-gap", 0};
    }
    case Damage::Missing: {
        if (family.files.size() < 3) { // the only file: an empty log, nothing to name
            fs::remove(family.files.front().path);
            return {};
        }
        fs::remove(family.files[1].path);
        return {"commitlog/" + family.files[2].name, "file-gap", 0};
    }
    case Damage::Extra:
        writeText(root + "/commitlog/copy-of-log.bin", "stray");
        return {"commitlog/copy-of-log.bin", "file-name", 0};
    case Damage::Garbage:
        break;
    }
    return {};
}

Expected damageConsumeQueue(const std::string &root, const store::StoreReader &pristine, Damage damage)
{
    const std::string rel = targetFile(pristine, Family::ConsumeQueue);
    const std::string path = root + "/" + rel;
    const int64_t size = static_cast<int64_t>(fs::file_size(path));
    switch (damage) {
    case Damage::FlipBits: // the low bit of entry 3's size: it no longer matches its record
        flipByte(path, 3 * 20 + 8 + 3, 0x01);
        return {rel, "cq-wrong-record", 60};
    case Damage::Truncate:
        resizeFile(path, size - 10);
        return {rel, "file-size", size - 10};
    case Damage::Extend:
        appendBytes(path, 20, 0xAB);
        return {rel, "file-size", size};
    case Damage::ZeroPage: // the whole first file; the queue's next file still holds entries
        zeroPage(path, 0);
        return {rel, "cq-invalid-entry", 0};
    case Damage::Missing: // what retention leaves: the queue starts later
        fs::remove(path);
        return {};
    case Damage::Extra:
        writeText(root + "/consumequeue/T/0/notes", "stray");
        return {"consumequeue/T/0/notes", "file-name", 0};
    case Damage::Garbage:
        break;
    }
    return {};
}

Expected damageIndex(const std::string &root, const store::StoreReader &pristine, Damage damage)
{
    const std::string rel = targetFile(pristine, Family::Index);
    const std::string path = root + "/" + rel;
    const int64_t size = static_cast<int64_t>(fs::file_size(path));
    const int64_t entry1 = indexEntryPosition(1);
    switch (damage) {
    case Damage::FlipBits: // a high bit of entry 5's commit-log offset
        flipByte(path, indexEntryPosition(5) + 4 + 1, 0x40);
        return {rel, "index-past-end", indexEntryPosition(5)};
    case Damage::Truncate:
        resizeFile(path, size - 100);
        return {rel, "index-layout", 0};
    case Damage::Extend:
        appendBytes(path, 100, 0xAB);
        return {rel, "index-layout", 0};
    case Damage::ZeroPage: // the page of the first entries: they point at offset 0 with hash 0
        zeroPage(path, entry1);
        return {rel, "index-hash-mismatch", entry1};
    case Damage::Missing: // the index is optional: RocketMQ rebuilds nothing, lookups find less
        fs::remove(path);
        return {};
    case Damage::Extra:
        writeText(root + "/index/notes", "stray");
        return {"index/notes", "file-name", 0};
    case Damage::Garbage:
        break;
    }
    return {};
}

Expected damageCheckpoint(const std::string &root, Damage damage)
{
    const std::string path = root + "/checkpoint";
    switch (damage) {
    case Damage::FlipBits: // any value is a valid time or offset
        flipByte(path, 3, 0x04);
        return {};
    case Damage::Truncate:
        resizeFile(path, 100);
        return {"checkpoint", "file-size", 100};
    case Damage::Extend:
        appendBytes(path, 10, 0xAB);
        return {"checkpoint", "file-size", 4096};
    case Damage::ZeroPage: // zero times: valid, recovery just starts earlier
        zeroPage(path, 0);
        return {};
    case Damage::Missing:
        fs::remove(path);
        return {};
    case Damage::Extra:
        writeText(root + "/checkpoint.old", "stray");
        return {};
    case Damage::Garbage:
        break;
    }
    return {};
}

Expected damageConfig(const std::string &root, Damage damage)
{
    const std::string rel = "config/delayOffset.json";
    const std::string path = root + "/" + rel;
    const int64_t size = static_cast<int64_t>(fs::file_size(path));
    switch (damage) {
    case Damage::FlipBits: // '{' becomes 'z'
        flipByte(path, 0, 0x01);
        return {rel, "config-parse", 0};
    case Damage::Truncate:
        resizeFile(path, size / 2);
        return {rel, "config-parse", -1};
    case Damage::Extend:
        appendBytes(path, 5, '@');
        return {rel, "config-parse", -1};
    case Damage::ZeroPage:
        zeroPage(path, 0);
        return {rel, "config-parse", 0};
    case Damage::Missing:
        fs::remove(path);
        return {};
    case Damage::Extra:
        writeText(root + "/config/extra.json", "{not json");
        return {"config/extra.json", "config-parse", -1};
    case Damage::Garbage: {
        std::mt19937 random(7);
        std::vector<uint8_t> bytes(300);
        for (auto &b : bytes)
            b = static_cast<uint8_t>(random());
        bytes[0] = '{'; // starts like JSON, then is not
        writeFile(path, bytes);
        return {rel, "config-parse", -1};
    }
    }
    return {};
}

} // namespace mqdesk::test
