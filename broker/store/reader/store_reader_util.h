#pragma once

// Helpers shared by the StoreReader and StoreVerifier sources; not part of their interface.

#include "broker/common/bytes.h"
#include "broker/common/message_properties.h"
#include "broker/common/record_codec.h"
#include "broker/store/reader/store_reader.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {

// No store reaches 2^62 bytes; bounding offsets there keeps `offset + size` sums from overflowing
// on damaged names and entries.
inline constexpr int64_t kMaxStoreOffset = int64_t{1} << 62;

// The offset a 20-digit mapped-file name stands for (store-format §2.1); nullopt for other names
// and for offsets beyond kMaxStoreOffset.
inline std::optional<int64_t> parseOffsetName(std::string_view name)
{
    if (name.size() != 20 || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    int64_t offset = 0;
    if (std::from_chars(name.data(), name.data() + name.size(), offset).ec != std::errc() || offset > kMaxStoreOffset)
        return std::nullopt;
    return offset;
}

// a + b with two's-complement wrap-around: header fields of a damaged file may hold anything.
inline int64_t wrappingAdd(int64_t a, int64_t b)
{
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// The most common size among the non-empty files (ties: the larger); 0 without any. The loaders
// delete an empty last file, so empty files say nothing about the configured size.
inline int64_t inferFileSize(const std::vector<MappedFileInfo> &files)
{
    std::map<int64_t, int> counts;
    for (const auto &file : files) {
        if (file.size > 0)
            ++counts[file.size];
    }
    int64_t best = 0;
    int bestCount = 0;
    for (const auto &[size, count] : counts) {
        if (count >= bestCount) {
            best = size;
            bestCount = count;
        }
    }
    return best;
}

// A long read (a log scan, a verify) reports its progress every this many bytes.
inline constexpr int64_t kProgressEvery = 64LL * 1024 * 1024;

// Whether [p, p + n) holds only zero bytes.
inline bool allZero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (p[i] != 0)
            return false;
    }
    return true;
}

// The first non-zero byte in [from, size), or size; word at a time, for long zero tails.
inline size_t findNonZero(const uint8_t *data, size_t from, size_t size)
{
    size_t at = from;
    while (at < size && (at & 7) != 0) {
        if (data[at] != 0)
            return at;
        ++at;
    }
    while (at + 8 <= size) {
        uint64_t word;
        std::memcpy(&word, data + at, 8);
        if (word != 0)
            break;
        at += 8;
    }
    while (at < size && data[at] == 0)
        ++at;
    return at;
}

// Whether an encoded property string carries `key` as a KEYS token or as its UNIQ_KEY.
inline bool propertiesCarryKey(std::string_view properties, std::string_view key)
{
    if (common::MessageProperties::find(properties, common::property::kUniqClientMessageId) == key)
        return true;
    const auto keys = common::MessageProperties::find(properties, common::property::kKeys);
    if (!keys)
        return false;
    size_t at = 0;
    while (at <= keys->size()) {
        const size_t space = std::min(keys->find(common::kKeySeparator, at), keys->size());
        if (space > at && keys->substr(at, space - at) == key)
            return true;
        at = space + 1;
    }
    return false;
}

// Whether a record starts at `position` of a commit-log file: a message record that decodes
// (CRC not checked) and whose PHYSICALOFFSET names this very position — stray bytes practically
// never pass that — or an end-of-file record whose size is exactly the rest of the file.
inline bool recordStartsAt(std::span<const uint8_t> bytes, int64_t fileStart, size_t position)
{
    if (position + 8 > bytes.size())
        return false;
    const uint8_t *at = bytes.data() + position;
    const int32_t magic = common::readInt32(at + 4);
    if (magic == common::kMagicBlank)
        return common::readInt32(at) == static_cast<int64_t>(bytes.size() - position);
    if (magic != common::kMagicV1 && magic != common::kMagicV2)
        return false;
    const auto decoded = common::decodeRecord(bytes.subspan(position), {false});
    return decoded.status == common::DecodeStatus::Ok
           && decoded.record.physicalOffset == fileStart + static_cast<int64_t>(position);
}

// The first position at or after `from` where a record starts again after damaged bytes, or the
// file size when none does. Zero runs are skipped a word at a time (a record's first non-zero
// byte is within its 4-byte TOTALSIZE, so the search backs up 3 bytes from one).
inline size_t resyncFrom(std::span<const uint8_t> bytes, int64_t fileStart, size_t from)
{
    const size_t size = bytes.size();
    size_t at = from;
    while (at + 8 <= size) {
        if (bytes[at] == 0 && bytes[at + 4] == 0 && allZero(bytes.data() + at, 8)) {
            const size_t nonZero = findNonZero(bytes.data(), at, size);
            if (nonZero >= size)
                return size;
            at = std::max(at + 1, nonZero >= 3 ? nonZero - 3 : 0);
            continue;
        }
        if (recordStartsAt(bytes, fileStart, at))
            return at;
        ++at;
    }
    return size;
}

// Index file layout (store-format §6.2), from IndexFile's constants. Field offsets in an entry:
// keyHash 0, phyOffset 4, timeDiff 12, prev 16.
inline int64_t indexSlotPosition(int32_t keyHash, int32_t hashSlotNum)
{
    return IndexFile::kHeaderSize + int64_t{keyHash % hashSlotNum} * IndexFile::kHashSlotSize;
}

inline int64_t indexEntryPosition(int32_t entry, int32_t hashSlotNum)
{
    return IndexFile::kHeaderSize + int64_t{hashSlotNum} * IndexFile::kHashSlotSize
           + int64_t{entry} * IndexFile::kIndexSize;
}

// Requires: the entry lies inside `bytes`.
inline IndexChainStep readIndexEntry(std::span<const uint8_t> bytes, int32_t hashSlotNum, int32_t entry,
                                     int64_t beginTimestamp)
{
    IndexChainStep step;
    step.entry = entry;
    step.filePosition = indexEntryPosition(entry, hashSlotNum);
    const uint8_t *at = bytes.data() + step.filePosition;
    step.keyHash = common::readInt32(at);
    step.phyOffset = common::readInt64(at + 4);
    step.timeDiff = common::readInt32(at + 12);
    step.prev = common::readInt32(at + 16);
    step.timestamp = wrappingAdd(beginTimestamp, int64_t{step.timeDiff} * 1000);
    return step;
}

} // namespace mqdesk::store
