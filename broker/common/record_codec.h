#pragma once

// The commit-log record codec (store-format §3). Encoding happens outside the store's put lock;
// the three values only known under the lock — queue offset, commit-log offset and store
// timestamp — are patched into the encoded bytes afterwards with the patch* functions.

#include "broker/common/message.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::common {

inline constexpr int32_t kMagicV1 = static_cast<int32_t>(0xDAA320A7);
inline constexpr int32_t kMagicV2 = static_cast<int32_t>(0xDAA320AB);
inline constexpr int32_t kMagicBlank = static_cast<int32_t>(0xCBD43194);
inline constexpr int32_t kEndFileMinBlankLength = 8;
inline constexpr int32_t kMaxPropertiesLength = 32767;
inline constexpr size_t kMaxTopicLength = 255;

enum class MessageVersion { V1, V2 };

// Whole record length for the given field lengths (MessageExtEncoder.calMsgLength).
int32_t recordLength(MessageVersion version, int32_t sysFlag, int32_t bodyLength,
                     int32_t topicLength, int32_t propertiesLength);

// V2 (2-byte topic length) is used when the topic does not fit V1's signed length byte.
MessageVersion versionForTopic(std::string_view topic);

enum class EncodeStatus { Ok, BodyTooLarge, PropertiesTooLarge, TopicTooLong };

struct EncodeOptions
{
    HostAddress storeHost;
    int32_t maxBodySize = 4 * 1024 * 1024;
};

// Appends the encoded record of `message` with `propertiesString` (the already-encoded
// properties) to `out`. Queue offset, commit-log offset and store timestamp are written as 0.
EncodeStatus encodeRecord(const BrokerMessage &message, std::string_view propertiesString,
                          const EncodeOptions &options, std::vector<uint8_t> &out);

// Patching an encoded record in place. `record` points at its first byte.
void patchQueueOffset(uint8_t *record, int64_t queueOffset);
void patchPhysicalOffset(uint8_t *record, int64_t physicalOffset);
void patchStoreTimestamp(uint8_t *record, int64_t storeTimestamp);

// The 8-byte end-of-file record: TOTALSIZE = the rest of the file, then the blank magic.
void encodeBlankRecord(uint8_t *out, int32_t remainingFileLength);

// A decoded record whose strings and body point into the decoded buffer (no copies).
struct RecordView : RecordFields
{
    std::span<const uint8_t> body;
    std::string_view topic;
    std::string_view properties;

    StoredMessage materialize() const;
};

enum class DecodeStatus {
    Ok,     // a message record; `record` is filled
    Blank,  // the end-of-file record: continue at the next file
    Invalid // not a valid record; `error` says why
};

struct DecodeResult
{
    DecodeStatus status = DecodeStatus::Invalid;
    int32_t size = 0; // bytes the record occupies (Blank: the rest of the file)
    RecordView record;
    std::string error;
};

struct DecodeOptions
{
    bool checkCrc = true;
};

// What a scan needs to step over a record without decoding it. peekRecordHeader reads them where
// the record at the start of `data` keeps them; nullopt unless the magic is a message's and the
// fixed part (up to STORETIMESTAMP) fits in `data`. Nothing else is checked: callers confirm a
// record start with PHYSICALOFFSET, and decode what they show.
struct RecordHeader
{
    int32_t totalSize = 0;
    int64_t physicalOffset = 0;
    int64_t storeTimestamp = 0;
};
std::optional<RecordHeader> peekRecordHeader(std::span<const uint8_t> data);

// Decodes the record at the start of `data` (which may extend past it) with the checks of
// checkMessageAndReturnSize (store-format §11.2): magic, length against the data and against
// the recomputed field lengths, and the masked body CRC when asked.
DecodeResult decodeRecord(std::span<const uint8_t> data, const DecodeOptions &options = {});

} // namespace mqdesk::common
