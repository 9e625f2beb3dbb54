// The commit-log record layout (store-format §3.1–§3.5) as a list of fields for the explorer.
// It follows decodeRecord's reading order but keeps going where decodeRecord would reject the
// record, so the user can see which byte is wrong.

#include "broker/store/reader/record_layout.h"

#include "broker/common/bytes.h"
#include "broker/common/host_address.h"
#include "broker/common/message.h"
#include "broker/common/record_codec.h"

#include <cstdio>
#include <ctime>
#include <optional>

namespace mqdesk::store {

namespace {

using common::loadBigEndian;

std::string hex32(uint32_t value)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", value);
    return text;
}

// "1700000000123 (2023-11-14 22:13:20.123 UTC)"; the number alone when it is no plausible time.
std::string timeText(int64_t millis)
{
    std::string text = std::to_string(millis);
    if (millis <= 0 || millis > 32503680000000LL) // after 3000-01-01: not a time
        return text;
    const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
    std::tm utc{};
    if (!gmtime_r(&seconds, &utc))
        return text;
    char when[48];
    std::snprintf(when, sizeof when, " (%04d-%02d-%02d %02d:%02d:%02d.%03d UTC)", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis % 1000));
    return text + when;
}

std::string sysFlagText(int32_t flag)
{
    std::string text = hex32(static_cast<uint32_t>(flag));
    std::string names;
    const auto add = [&names](const char *name) { names += names.empty() ? name : std::string(", ") + name; };
    if (flag & common::sysflag::kCompressed)
        add("compressed");
    if (flag & common::sysflag::kMultiTags)
        add("multi tags");
    switch (flag & common::sysflag::kTransactionMask) {
    case common::sysflag::kTransactionPrepared: add("transaction prepared"); break;
    case common::sysflag::kTransactionCommit: add("transaction commit"); break;
    case common::sysflag::kTransactionRollback: add("transaction rollback"); break;
    default: break;
    }
    if (flag & common::sysflag::kBornHostV6)
        add("born host IPv6");
    if (flag & common::sysflag::kStoreHostV6)
        add("store host IPv6");
    if (flag & common::sysflag::kNeedUnwrap)
        add("need unwrap");
    if (flag & common::sysflag::kInnerBatch)
        add("inner batch");
    return names.empty() ? text : text + " (" + names + ")";
}

// Printable ASCII as is, everything else as '.', at most `limit` bytes then "…".
std::string preview(std::span<const uint8_t> bytes, size_t limit = 64)
{
    std::string text;
    for (size_t i = 0; i < bytes.size() && i < limit; ++i)
        text += bytes[i] >= 0x20 && bytes[i] < 0x7F ? static_cast<char>(bytes[i]) : '.';
    if (bytes.size() > limit)
        text += "…";
    return text;
}

// Reads fields one after the other; once a field does not fit, every later one is skipped and
// `error` names the first that did not.
class FieldReader
{
public:
    FieldReader(std::span<const uint8_t> bytes, RecordLayout &layout) : bytes_(bytes), layout_(layout) {}

    bool ok() const { return layout_.error.empty(); }
    void skip(int64_t length) { position_ += length; }
    int64_t position() const { return position_; }
    const uint8_t *at() const { return bytes_.data() + position_; }

    // Adds the field if `length` bytes remain; returns it (nullptr once the layout stopped).
    RecordField *take(const char *name, int64_t length)
    {
        if (!ok())
            return nullptr;
        if (length < 0 || position_ + length > static_cast<int64_t>(bytes_.size())) {
            layout_.error = std::string(name) + " needs " + std::to_string(length) + " bytes at offset "
                            + std::to_string(position_) + " but the record has "
                            + std::to_string(static_cast<int64_t>(bytes_.size()) - position_) + " left";
            return nullptr;
        }
        layout_.fields.push_back({name, position_, length, {}, {}});
        position_ += length;
        return &layout_.fields.back();
    }

    template <typename T>
    std::optional<T> integer(const char *name, std::string (*format)(T) = nullptr)
    {
        RecordField *field = take(name, sizeof(T));
        if (!field)
            return std::nullopt;
        const T value = loadBigEndian<T>(bytes_.data() + field->offset);
        field->value = format ? format(value) : std::to_string(value);
        return value;
    }

    void host(const char *name, bool ipv6)
    {
        const int64_t length = ipv6 ? 20 : 8;
        RecordField *field = take(name, length);
        if (!field)
            return;
        const auto address = common::HostAddress::decode(bytes_.data() + field->offset, ipv6);
        field->value = address.toString();
        field->children.push_back({"address", field->offset, length - 4, address.addressString(), {}});
        field->children.push_back({"port", field->offset + length - 4, 4, std::to_string(address.port), {}});
    }

private:
    std::span<const uint8_t> bytes_;
    RecordLayout &layout_;
    int64_t position_ = 0;
};

std::string int32Text(int32_t value) { return std::to_string(value); }
std::string timeField(int64_t value) { return timeText(value); }
std::string sysFlagField(int32_t value) { return sysFlagText(value); }
std::string magicField(int32_t value)
{
    if (value == common::kMagicV1)
        return hex32(static_cast<uint32_t>(value)) + " (V1)";
    if (value == common::kMagicV2)
        return hex32(static_cast<uint32_t>(value)) + " (V2)";
    if (value == common::kMagicBlank)
        return hex32(static_cast<uint32_t>(value)) + " (end-of-file blank)";
    return hex32(static_cast<uint32_t>(value)) + " (unknown)";
}
std::string crcField(int32_t value) { return std::to_string(value) + " (" + hex32(static_cast<uint32_t>(value)) + ")"; }

// key 0x01 value 0x02 pairs (§3.5), each a child with the bytes of the whole pair.
void addProperties(RecordField &properties, std::span<const uint8_t> bytes)
{
    int64_t start = 0;
    const auto size = static_cast<int64_t>(bytes.size());
    while (start < size) {
        int64_t end = start;
        while (end < size && bytes[static_cast<size_t>(end)] != 0x02)
            ++end;
        const std::string pair(bytes.begin() + start, bytes.begin() + end);
        const size_t separator = pair.find('\x01');
        const int64_t length = std::min(end + 1, size) - start;
        if (separator == std::string::npos)
            properties.children.push_back({"(no key)", properties.offset + start, length, pair, {}});
        else
            properties.children.push_back({pair.substr(0, separator), properties.offset + start, length,
                                           pair.substr(separator + 1), {}});
        start = end + 1;
    }
}

void layOutMessage(FieldReader &reader, RecordLayout &layout, int32_t magic, int32_t sysFlag, int32_t totalSize)
{
    reader.integer<int32_t>("BODYCRC", crcField);
    reader.integer<int32_t>("QUEUEID");
    reader.integer<int32_t>("FLAG");
    reader.integer<int64_t>("QUEUEOFFSET");
    reader.integer<int64_t>("PHYSICALOFFSET");
    reader.integer<int32_t>("SYSFLAG", sysFlagField);
    reader.integer<int64_t>("BORNTIMESTAMP", timeField);
    reader.host("BORNHOST", sysFlag & common::sysflag::kBornHostV6);
    reader.integer<int64_t>("STORETIMESTAMP", timeField);
    reader.host("STOREHOST", sysFlag & common::sysflag::kStoreHostV6);
    reader.integer<int32_t>("RECONSUMETIMES");
    reader.integer<int64_t>("PREPAREDTRANSACTIONOFFSET");
    const auto bodyLength = reader.integer<int32_t>("BODYLENGTH");
    if (bodyLength && *bodyLength < 0 && reader.ok())
        layout.error = "BODYLENGTH " + std::to_string(*bodyLength) + " is negative";
    if (RecordField *body = reader.take("BODY", bodyLength.value_or(0)))
        body->value = std::to_string(body->length) + " bytes: " + preview({reader.at() - body->length, size_t(body->length)});
    std::optional<int32_t> topicLength;
    if (magic == common::kMagicV2)
        topicLength = reader.integer<int16_t>("TOPICLENGTH");
    else if (auto v1 = reader.integer<uint8_t>("TOPICLENGTH"))
        topicLength = static_cast<int8_t>(*v1); // a Java byte: signed, as decodeRecord reads it
    if (topicLength && *topicLength < 0 && reader.ok())
        layout.error = "TOPICLENGTH " + std::to_string(*topicLength) + " is negative";
    if (RecordField *topic = reader.take("TOPIC", topicLength.value_or(0)))
        topic->value.assign(reinterpret_cast<const char *>(reader.at() - topic->length), size_t(topic->length));
    const auto propertiesLength = reader.integer<int16_t>("PROPERTIESLENGTH");
    if (propertiesLength && *propertiesLength < 0 && reader.ok())
        layout.error = "PROPERTIESLENGTH " + std::to_string(*propertiesLength) + " is negative";
    if (RecordField *properties = reader.take("PROPERTIES", propertiesLength.value_or(0))) {
        const std::span<const uint8_t> bytes(reader.at() - properties->length, size_t(properties->length));
        properties->value = std::to_string(properties->length) + " bytes";
        addProperties(*properties, bytes);
    }
    if (reader.ok() && reader.position() != totalSize)
        layout.error = "the fields end at " + std::to_string(reader.position()) + " but TOTALSIZE is "
                       + std::to_string(totalSize);
}

} // namespace

RecordLayout recordLayout(std::span<const uint8_t> bytes)
{
    RecordLayout layout;
    FieldReader probe(bytes, layout);
    const auto totalSize = probe.integer<int32_t>("TOTALSIZE", int32Text);
    const auto magic = probe.integer<int32_t>("MAGICCODE", magicField);
    if (!totalSize || !magic)
        return layout;
    if (*magic == common::kMagicBlank) {
        layout.blank = true;
        return layout;
    }
    if (*magic != common::kMagicV1 && *magic != common::kMagicV2) {
        layout.error = "MAGICCODE " + hex32(static_cast<uint32_t>(*magic)) + " is neither V1, V2 nor the blank record";
        return layout;
    }
    // Lay out within TOTALSIZE when it is plausible, so fields never run into the next record.
    const bool sizeFits = *totalSize >= 8 && *totalSize <= static_cast<int64_t>(bytes.size());
    const auto record = sizeFits ? bytes.first(static_cast<size_t>(*totalSize)) : bytes;
    RecordLayout body;
    body.fields = std::move(layout.fields);
    FieldReader reader(record, body);
    reader.skip(8); // TOTALSIZE and MAGICCODE, laid out above
    const int32_t sysFlag = record.size() >= 40 ? loadBigEndian<int32_t>(record.data() + 36) : 0;
    layOutMessage(reader, body, *magic, sysFlag, *totalSize);
    if (!sizeFits && body.error.empty())
        body.error = "TOTALSIZE " + std::to_string(*totalSize) + " does not fit the "
                     + std::to_string(bytes.size()) + " bytes available";
    return body;
}

std::vector<int> fieldPathAt(const RecordLayout &layout, int64_t offset)
{
    std::vector<int> path;
    const std::vector<RecordField> *level = &layout.fields;
    for (;;) {
        int found = -1;
        for (size_t i = 0; i < level->size(); ++i) {
            const RecordField &field = (*level)[i];
            if (offset >= field.offset && offset < field.offset + field.length) {
                found = static_cast<int>(i);
                break;
            }
        }
        if (found < 0)
            return path;
        path.push_back(found);
        level = &(*level)[static_cast<size_t>(found)].children;
    }
}

} // namespace mqdesk::store
