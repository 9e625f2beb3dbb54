#include "broker/common/record_codec.h"

#include "broker/common/bytes.h"
#include "broker/common/crc32.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace mqdesk::common {

namespace {

// Offsets of the fixed fields (store-format §3.1); fields after BORNHOST depend on host widths.
constexpr size_t kOffsetTotalSize = 0;
constexpr size_t kOffsetMagic = 4;
constexpr size_t kOffsetBodyCrc = 8;
constexpr size_t kOffsetQueueId = 12;
constexpr size_t kOffsetFlag = 16;
constexpr size_t kOffsetQueueOffset = 20;
constexpr size_t kOffsetPhysicalOffset = 28;
constexpr size_t kOffsetSysFlag = 36;
constexpr size_t kOffsetBornTimestamp = 40;
constexpr size_t kOffsetBornHost = 48;

int32_t hostLength(bool ipv6) { return ipv6 ? 20 : 8; }

size_t storeTimestampOffset(int32_t sysFlag)
{
    return kOffsetBornHost + hostLength(sysFlag & sysflag::kBornHostV6);
}

std::string describeBytes(std::string_view what, int64_t need, int64_t have)
{
    return std::string(what) + " needs " + std::to_string(need) + " bytes but only "
           + std::to_string(have) + " remain";
}

} // namespace

int32_t recordLength(MessageVersion version, int32_t sysFlag, int32_t bodyLength,
                     int32_t topicLength, int32_t propertiesLength)
{
    const int32_t bornHost = hostLength(sysFlag & sysflag::kBornHostV6);
    const int32_t storeHost = hostLength(sysFlag & sysflag::kStoreHostV6);
    const int32_t topicLengthSize = version == MessageVersion::V1 ? 1 : 2;
    const auto clamp = [](int32_t v) { return v > 0 ? v : 0; };
    return 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + bornHost + 8 + storeHost + 4 + 8 //
           + 4 + clamp(bodyLength)                                                //
           + topicLengthSize + clamp(topicLength)                                 //
           + 2 + clamp(propertiesLength);
}

MessageVersion versionForTopic(std::string_view topic)
{
    // RocketMQ compares the topic's Java char count with 127; we compare the UTF-8 byte count
    // so a non-ASCII topic never overflows V1's length byte (valid topic names are ASCII, where
    // the two agree).
    return topic.size() > 127 ? MessageVersion::V2 : MessageVersion::V1;
}

EncodeStatus encodeRecord(const BrokerMessage &message, std::string_view propertiesString,
                          const EncodeOptions &options, std::vector<uint8_t> &out)
{
    if (message.body.size() > static_cast<size_t>(options.maxBodySize))
        return EncodeStatus::BodyTooLarge;
    if (propertiesString.size() > static_cast<size_t>(kMaxPropertiesLength))
        return EncodeStatus::PropertiesTooLarge;
    if (message.topic.size() > kMaxTopicLength || message.topic.empty())
        return EncodeStatus::TopicTooLong;

    int32_t sysFlag = message.sysFlag & ~(sysflag::kBornHostV6 | sysflag::kStoreHostV6);
    if (message.bornHost.ipv6)
        sysFlag |= sysflag::kBornHostV6;
    if (options.storeHost.ipv6)
        sysFlag |= sysflag::kStoreHostV6;

    const MessageVersion version = versionForTopic(message.topic);
    const auto bodyLength = static_cast<int32_t>(message.body.size());
    const auto topicLength = static_cast<int32_t>(message.topic.size());
    const auto propertiesLength = static_cast<int32_t>(propertiesString.size());
    const int32_t total = recordLength(version, sysFlag, bodyLength, topicLength, propertiesLength);

    const size_t start = out.size();
    out.resize(start + static_cast<size_t>(total));
    uint8_t *p = out.data() + start;

    writeInt32(p + kOffsetTotalSize, total);
    writeInt32(p + kOffsetMagic, version == MessageVersion::V1 ? kMagicV1 : kMagicV2);
    writeInt32(p + kOffsetBodyCrc, maskedBodyCrc(message.body));
    writeInt32(p + kOffsetQueueId, message.queueId);
    writeInt32(p + kOffsetFlag, message.flag);
    writeInt64(p + kOffsetQueueOffset, 0);
    writeInt64(p + kOffsetPhysicalOffset, 0);
    writeInt32(p + kOffsetSysFlag, sysFlag);
    writeInt64(p + kOffsetBornTimestamp, message.bornTimestamp);
    size_t pos = kOffsetBornHost;
    message.bornHost.encode(p + pos);
    pos += message.bornHost.encodedLength();
    writeInt64(p + pos, 0); // store timestamp, patched under the put lock
    pos += 8;
    options.storeHost.encode(p + pos);
    pos += options.storeHost.encodedLength();
    writeInt32(p + pos, message.reconsumeTimes);
    pos += 4;
    writeInt64(p + pos, message.preparedTransactionOffset);
    pos += 8;
    writeInt32(p + pos, bodyLength);
    pos += 4;
    if (bodyLength > 0)
        std::memcpy(p + pos, message.body.data(), message.body.size());
    pos += message.body.size();
    if (version == MessageVersion::V1) {
        p[pos] = static_cast<uint8_t>(topicLength);
        pos += 1;
    } else {
        writeInt16(p + pos, static_cast<int16_t>(topicLength));
        pos += 2;
    }
    std::memcpy(p + pos, message.topic.data(), message.topic.size());
    pos += message.topic.size();
    writeInt16(p + pos, static_cast<int16_t>(propertiesLength));
    pos += 2;
    if (propertiesLength > 0)
        std::memcpy(p + pos, propertiesString.data(), propertiesString.size());
    return EncodeStatus::Ok;
}

void patchQueueOffset(uint8_t *record, int64_t queueOffset)
{
    writeInt64(record + kOffsetQueueOffset, queueOffset);
}

void patchPhysicalOffset(uint8_t *record, int64_t physicalOffset)
{
    writeInt64(record + kOffsetPhysicalOffset, physicalOffset);
}

void patchStoreTimestamp(uint8_t *record, int64_t storeTimestamp)
{
    writeInt64(record + storeTimestampOffset(readInt32(record + kOffsetSysFlag)), storeTimestamp);
}

void encodeBlankRecord(uint8_t *out, int32_t remainingFileLength)
{
    writeInt32(out, remainingFileLength);
    writeInt32(out + 4, kMagicBlank);
}

StoredMessage RecordView::materialize() const
{
    StoredMessage m;
    static_cast<RecordFields &>(m) = *this;
    m.body.assign(body.begin(), body.end());
    m.topic = topic;
    m.properties = MessageProperties::decode(properties);
    return m;
}

std::optional<RecordHeader> peekRecordHeader(std::span<const uint8_t> data)
{
    if (data.size() < kOffsetBornHost + 20 + 8)
        return std::nullopt; // the largest fixed part up to STORETIMESTAMP (IPv6 born host)
    const uint8_t *p = data.data();
    const int32_t magic = readInt32(p + kOffsetMagic);
    if (magic != kMagicV1 && magic != kMagicV2)
        return std::nullopt;
    RecordHeader header;
    header.totalSize = readInt32(p + kOffsetTotalSize);
    header.physicalOffset = readInt64(p + kOffsetPhysicalOffset);
    header.storeTimestamp = readInt64(p + storeTimestampOffset(readInt32(p + kOffsetSysFlag)));
    return header;
}

DecodeResult decodeRecord(std::span<const uint8_t> data, const DecodeOptions &options)
{
    DecodeResult result;
    const auto invalid = [&result](std::string error) {
        result.status = DecodeStatus::Invalid;
        result.error = std::move(error);
        return result;
    };

    if (data.size() < 8)
        return invalid(describeBytes("a record header", 8, static_cast<int64_t>(data.size())));
    const uint8_t *p = data.data();
    RecordView &r = result.record;
    r.totalSize = readInt32(p + kOffsetTotalSize);
    r.magic = readInt32(p + kOffsetMagic);
    if (r.magic == kMagicBlank) {
        result.status = DecodeStatus::Blank;
        result.size = r.totalSize;
        return result;
    }
    if (r.magic != kMagicV1 && r.magic != kMagicV2) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08X", static_cast<uint32_t>(r.magic));
        return invalid(std::string("bad magic code ") + hex);
    }
    constexpr int32_t kMinimumRecord = 84 + 4 + 1 + 2;
    if (r.totalSize < kMinimumRecord)
        return invalid("record size " + std::to_string(r.totalSize) + " is below the minimum "
                       + std::to_string(kMinimumRecord));
    if (static_cast<size_t>(r.totalSize) > data.size())
        return invalid("record size " + std::to_string(r.totalSize) + " runs past the data ("
                       + std::to_string(data.size()) + " bytes remain)");

    const size_t end = static_cast<size_t>(r.totalSize);
    r.bodyCrc = readInt32(p + kOffsetBodyCrc);
    r.queueId = readInt32(p + kOffsetQueueId);
    r.flag = readInt32(p + kOffsetFlag);
    r.queueOffset = readInt64(p + kOffsetQueueOffset);
    r.physicalOffset = readInt64(p + kOffsetPhysicalOffset);
    r.sysFlag = readInt32(p + kOffsetSysFlag);
    r.bornTimestamp = readInt64(p + kOffsetBornTimestamp);
    const bool bornV6 = r.sysFlag & sysflag::kBornHostV6;
    const bool storeV6 = r.sysFlag & sysflag::kStoreHostV6;
    size_t pos = kOffsetBornHost;
    // The fixed part is at most 108 bytes; check it fits before reading hosts and trailer.
    const size_t fixedEnd = pos + hostLength(bornV6) + 8 + hostLength(storeV6) + 4 + 8 + 4;
    if (fixedEnd > end)
        return invalid("record size " + std::to_string(r.totalSize)
                       + " is smaller than its fixed fields");
    r.bornHost = HostAddress::decode(p + pos, bornV6);
    pos += hostLength(bornV6);
    r.storeTimestamp = readInt64(p + pos);
    pos += 8;
    r.storeHost = HostAddress::decode(p + pos, storeV6);
    pos += hostLength(storeV6);
    r.reconsumeTimes = readInt32(p + pos);
    pos += 4;
    r.preparedTransactionOffset = readInt64(p + pos);
    pos += 8;
    const int32_t bodyLength = readInt32(p + pos);
    pos += 4;
    if (bodyLength < 0 || static_cast<size_t>(bodyLength) > end - pos)
        return invalid("body length " + std::to_string(bodyLength) + " runs past the record");
    r.body = std::span<const uint8_t>(p + pos, static_cast<size_t>(bodyLength));
    pos += static_cast<size_t>(bodyLength);

    const MessageVersion version = r.magic == kMagicV1 ? MessageVersion::V1 : MessageVersion::V2;
    int32_t topicLength = 0;
    const size_t topicLengthSize = version == MessageVersion::V1 ? 1 : 2;
    if (pos + topicLengthSize > end)
        return invalid("topic length runs past the record");
    if (version == MessageVersion::V1)
        topicLength = static_cast<int8_t>(p[pos]); // signed, as Java reads it
    else
        topicLength = readInt16(p + pos);
    pos += topicLengthSize;
    if (topicLength < 0 || static_cast<size_t>(topicLength) > end - pos)
        return invalid("topic length " + std::to_string(topicLength) + " runs past the record");
    r.topic = std::string_view(reinterpret_cast<const char *>(p + pos),
                               static_cast<size_t>(topicLength));
    pos += static_cast<size_t>(topicLength);

    if (pos + 2 > end)
        return invalid("properties length runs past the record");
    const int16_t propertiesLength = readInt16(p + pos);
    pos += 2;
    if (propertiesLength < 0 || static_cast<size_t>(propertiesLength) > end - pos)
        return invalid("properties length " + std::to_string(propertiesLength)
                       + " runs past the record");
    r.properties = std::string_view(reinterpret_cast<const char *>(p + pos),
                                    static_cast<size_t>(propertiesLength));

    // Topic and properties are not judged: a record is valid when its magic, lengths and body
    // CRC are (and, for callers, its position), exactly what Java's checkMessageAndReturnSize
    // checks. Property values may hold any byte a client sent, NUL included, and a batch's inner
    // properties need not end with 0x02; rejecting either would cut acknowledged messages at
    // recovery and stop the dispatcher on them.
    const int32_t expected = recordLength(version, r.sysFlag, bodyLength, topicLength,
                                          propertiesLength);
    if (expected != r.totalSize)
        return invalid("record size " + std::to_string(r.totalSize)
                       + " disagrees with its fields, which add up to "
                       + std::to_string(expected));
    if (options.checkCrc && maskedBodyCrc(r.body) != r.bodyCrc)
        return invalid("body CRC mismatch: stored " + std::to_string(r.bodyCrc) + ", computed "
                       + std::to_string(maskedBodyCrc(r.body)));

    result.status = DecodeStatus::Ok;
    result.size = r.totalSize;
    return result;
}

} // namespace mqdesk::common
