#include "broker/remoting/remoting_header.h"

#include "broker/common/bytes.h"
#include "broker/common/json.h"

#include <charconv>
#include <limits>

namespace mqdesk::remoting {

using common::JsonMember;
using common::JsonObject;
using common::JsonValue;

namespace {

constexpr size_t kBinaryFixedPart = 21; // code 2, language 1, version 2, opaque 4, flag 4,
                                        // remark length 4, extFields length 4

// ---- JSON ---------------------------------------------------------------------------------

// The text Java would hold after fastjson put a non-string value into a Map<String, String>.
std::string textOf(const JsonValue &value)
{
    switch (value.type()) {
    case JsonValue::Type::String:
        return value.asString();
    case JsonValue::Type::Integer:
        return std::to_string(value.asInteger());
    case JsonValue::Type::Double:
        return common::formatJavaDouble(value.asDouble());
    case JsonValue::Type::Bool:
        return value.asBool() ? "true" : "false";
    case JsonValue::Type::Null:
        return {};
    case JsonValue::Type::Array:
    case JsonValue::Type::Object:
        break;
    }
    return common::toJsonCompact(value);
}

// A value as an error message shows it: scalars as their JSON text (cut short), containers by
// kind.
std::string describeJson(const JsonValue &value)
{
    if (value.isArray())
        return "an array";
    if (value.isObject())
        return "an object";
    std::string text = common::toJsonCompact(value);
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    return text;
}

// Reads an int32 member. Absent or null leaves `out` untouched.
std::string readJsonInt32(const JsonObject &header, std::string_view key, int32_t &out)
{
    const JsonValue *value = header.find(key);
    if (!value || value->isNull())
        return {};
    int64_t number = 0;
    if (value->isInteger()) {
        number = value->asInteger();
    } else if (value->isString()) {
        // fastjson reads "12" into an int field; so do we.
        const std::string &text = value->asString();
        const char *end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, number);
        if (ec != std::errc() || ptr != end || text.empty())
            return "JSON header: \"" + std::string(key) + "\" is " + describeJson(*value)
                   + ", not an integer";
    } else {
        return "JSON header: \"" + std::string(key) + "\" is " + describeJson(*value)
               + ", not an integer";
    }
    if (number < std::numeric_limits<int32_t>::min() || number > std::numeric_limits<int32_t>::max())
        return "JSON header: \"" + std::string(key) + "\" = " + std::to_string(number)
               + " is out of the int32 range";
    out = static_cast<int32_t>(number);
    return {};
}

LanguageCode readJsonLanguage(const JsonValue *value)
{
    if (!value || value->isNull())
        return LanguageCode::Java; // Java's field default
    if (value->isInteger() && value->asInteger() >= 0 && value->asInteger() <= 255)
        return static_cast<LanguageCode>(value->asInteger()); // fastjson accepts an ordinal
    if (value->isString()) {
        if (const auto known = languageCodeFromName(value->asString()))
            return *known;
    }
    // An unknown language must not fail the request (§1.3): "NODE_JS" from newer clients is
    // known, anything else is some other client.
    return LanguageCode::Other;
}

// ---- ROCKETMQ binary ----------------------------------------------------------------------

// A field's name for an error message, spelled out only when a failure is reported: a request
// carries a dozen extFields entries, and naming each one up front cost a handful of
// allocations per entry on every request.
struct FieldName
{
    FieldName(const char *fieldName) : name(fieldName) {} // implicit: call sites pass "code", "remark"
    FieldName(const char *entryName, size_t entryNumber, const char *entryPart)
        : name(entryName), entry(entryNumber), part(entryPart)
    {}

    std::string text() const
    {
        std::string out = name;
        if (entry > 0)
            out += " " + std::to_string(entry);
        return out + part + suffix;
    }
    FieldName lengthOf() const
    {
        FieldName length = *this;
        length.suffix = " length";
        return length;
    }

    const char *name;
    size_t entry = 0;       // 1-based entry number; 0: not an entry
    const char *part = "";  // " key", " value"
    const char *suffix = "";
};

// Bounds-checked big-endian reads over a header or a part of it; `base` is the part's offset
// in the header, so that every failure names the field and its header offset.
class BinaryReader
{
public:
    BinaryReader(std::span<const uint8_t> bytes, size_t base, const char *area)
        : bytes_(bytes), base_(base), area_(area)
    {}

    size_t offset() const { return base_ + pos_; } // in the header
    size_t remaining() const { return bytes_.size() - pos_; }
    bool atEnd() const { return pos_ == bytes_.size(); }

    template<typename T>
    bool read(T &out, const FieldName &field, std::string &error)
    {
        if (remaining() < sizeof(T)) {
            error = "ROCKETMQ header: truncated " + field.text() + " at header offset "
                    + std::to_string(offset()) + " (needs " + std::to_string(sizeof(T))
                    + " bytes, " + std::to_string(remaining()) + " left in " + area_ + ")";
            return false;
        }
        out = common::loadBigEndian<T>(bytes_.data() + pos_);
        pos_ += sizeof(T);
        return true;
    }

    // Reads a length field, then that many bytes, which must lie inside this reader's part.
    template<typename Length>
    bool readString(std::string &out, const FieldName &field, std::string &error)
    {
        const size_t at = offset();
        Length length = 0;
        if (!read(length, field.lengthOf(), error))
            return false;
        if (length < 0) {
            error = "ROCKETMQ header: negative " + field.text() + " length "
                    + std::to_string(length) + " at header offset " + std::to_string(at);
            return false;
        }
        if (static_cast<size_t>(length) > remaining()) {
            error = "ROCKETMQ header: truncated " + field.text() + ": length "
                    + std::to_string(length) + " at header offset " + std::to_string(at)
                    + " exceeds the " + std::to_string(remaining()) + " bytes left in " + area_;
            return false;
        }
        out.assign(reinterpret_cast<const char *>(bytes_.data() + pos_), static_cast<size_t>(length));
        pos_ += static_cast<size_t>(length);
        return true;
    }

    // Requires: n <= remaining().
    std::span<const uint8_t> take(size_t n)
    {
        const auto part = bytes_.subspan(pos_, n);
        pos_ += n;
        return part;
    }

private:
    std::span<const uint8_t> bytes_;
    size_t base_;
    const char *area_;
    size_t pos_ = 0;
};

void appendBytes(std::vector<uint8_t> &out, std::string_view text)
{
    out.insert(out.end(), text.begin(), text.end());
}

template<typename T>
void appendBigEndian(std::vector<uint8_t> &out, T value)
{
    uint8_t bytes[sizeof(T)];
    common::storeBigEndian(bytes, value);
    out.insert(out.end(), bytes, bytes + sizeof(T));
}

bool fitsInt16(int32_t value)
{
    return value >= std::numeric_limits<int16_t>::min() && value <= std::numeric_limits<int16_t>::max();
}

} // namespace

std::string encodeJsonHeader(const RemotingCommand &command)
{
    // Members appended in name order, which is fastjson's order for bean properties.
    JsonObject header;
    header.append(JsonMember{"code", command.code});
    if (!command.extFields.empty()) {
        JsonObject ext;
        for (const auto &[key, value] : command.extFields)
            ext.append(JsonMember{key, value}); // keys are unique in ExtFields
        header.append(JsonMember{"extFields", std::move(ext)});
    }
    header.append(JsonMember{"flag", command.flag});
    const std::string_view language = languageCodeName(command.language);
    header.append(JsonMember{"language", language.empty() ? "OTHER" : language});
    header.append(JsonMember{"opaque", command.opaque});
    if (command.remark)
        header.append(JsonMember{"remark", *command.remark});
    header.append(JsonMember{"serializeTypeCurrentRPC", "JSON"});
    header.append(JsonMember{"version", command.version});
    return common::toFastjsonCompact(JsonValue(std::move(header)));
}

std::string decodeJsonHeader(std::span<const uint8_t> header, RemotingCommand &command)
{
    const std::string_view text(reinterpret_cast<const char *>(header.data()), header.size());
    const common::JsonParseResult parsed = common::parseJson(text);
    if (!parsed.ok())
        return "unparsable JSON header: " + parsed.error;
    if (!parsed.value.isObject())
        return "JSON header is " + describeJson(parsed.value) + ", not an object";
    const JsonObject &object = parsed.value.asObject();

    const JsonValue *code = object.find("code");
    if (!code || code->isNull())
        return "JSON header has no \"code\"";
    // Java's field defaults for whatever is missing.
    command.version = 0;
    command.opaque = 0;
    command.flag = 0;
    for (const auto &[key, field] : {std::pair<const char *, int32_t *>{"code", &command.code},
                                     {"version", &command.version},
                                     {"opaque", &command.opaque},
                                     {"flag", &command.flag}}) {
        if (std::string error = readJsonInt32(object, key, *field); !error.empty())
            return error;
    }
    command.language = readJsonLanguage(object.find("language"));

    const JsonValue *remark = object.find("remark");
    if (remark && !remark->isNull())
        command.remark = textOf(*remark);
    else
        command.remark.reset();

    command.extFields.clear();
    if (const JsonValue *ext = object.find("extFields"); ext && !ext->isNull()) {
        if (!ext->isObject())
            return "JSON header: \"extFields\" is " + describeJson(*ext) + ", not an object";
        if (ext->asObject().size() > kMaxExtFieldsEntries)
            return "JSON header: \"extFields\" has " + std::to_string(ext->asObject().size())
                   + " entries, more than the " + std::to_string(kMaxExtFieldsEntries) + " allowed";
        std::vector<ExtFields::Entry> entries;
        entries.reserve(ext->asObject().size());
        for (const JsonMember &member : ext->asObject()) {
            if (!member.value.isNull()) // a Java map holding null: the field is absent
                entries.emplace_back(member.key, textOf(member.value));
        }
        command.extFields.assign(std::move(entries));
    }
    return {};
}

std::string encodeRocketMqHeader(const RemotingCommand &command, std::vector<uint8_t> &out)
{
    if (!fitsInt16(command.code))
        return "code " + std::to_string(command.code)
               + " does not fit the ROCKETMQ header's int16 code field";
    if (!fitsInt16(command.version))
        return "version " + std::to_string(command.version)
               + " does not fit the ROCKETMQ header's int16 version field";
    size_t extLength = 0;
    for (const auto &[key, value] : command.extFields) {
        if (key.size() > static_cast<size_t>(std::numeric_limits<int16_t>::max()))
            return "extFields key of " + std::to_string(key.size())
                   + " bytes does not fit the ROCKETMQ header's int16 key length";
        extLength += 2 + key.size() + 4 + value.size();
    }
    const size_t remarkLength = command.remark ? command.remark->size() : 0;
    // Anything near int32 is far beyond the 24-bit header length the frame can carry.
    if (remarkLength > static_cast<size_t>(std::numeric_limits<int32_t>::max())
        || extLength > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
        return "ROCKETMQ header fields exceed the int32 length fields";

    out.reserve(out.size() + kBinaryFixedPart + remarkLength + extLength);
    appendBigEndian(out, static_cast<int16_t>(command.code));
    out.push_back(static_cast<uint8_t>(command.language));
    appendBigEndian(out, static_cast<int16_t>(command.version));
    appendBigEndian(out, command.opaque);
    appendBigEndian(out, command.flag);
    appendBigEndian(out, static_cast<int32_t>(remarkLength));
    if (command.remark)
        appendBytes(out, *command.remark);
    appendBigEndian(out, static_cast<int32_t>(extLength));
    for (const auto &[key, value] : command.extFields) {
        appendBigEndian(out, static_cast<int16_t>(key.size()));
        appendBytes(out, key);
        appendBigEndian(out, static_cast<int32_t>(value.size()));
        appendBytes(out, value);
    }
    return {};
}

std::string decodeRocketMqHeader(std::span<const uint8_t> header, RemotingCommand &command)
{
    BinaryReader reader(header, 0, "the header");
    std::string error;
    int16_t code = 0;
    uint8_t language = 0;
    int16_t version = 0;
    if (!reader.read(code, "code", error) || !reader.read(language, "language", error)
        || !reader.read(version, "version", error)
        || !reader.read(command.opaque, "opaque", error)
        || !reader.read(command.flag, "flag", error))
        return error;
    command.code = code;
    command.language = static_cast<LanguageCode>(language);
    command.version = version;

    std::string remark;
    if (!reader.readString<int32_t>(remark, "remark", error))
        return error;
    command.remark.reset();
    if (!remark.empty())
        command.remark = std::move(remark);

    const size_t extOffset = reader.offset();
    int32_t extLength = 0;
    if (!reader.read(extLength, "extFields length", error))
        return error;
    if (extLength < 0)
        return "ROCKETMQ header: negative extFields length " + std::to_string(extLength)
               + " at header offset " + std::to_string(extOffset);
    const auto areaLength = static_cast<size_t>(extLength);
    if (areaLength > reader.remaining())
        return "ROCKETMQ header: truncated extFields: length " + std::to_string(extLength)
               + " at header offset " + std::to_string(extOffset) + " exceeds the "
               + std::to_string(reader.remaining()) + " bytes left in the header";
    if (reader.remaining() != areaLength)
        return "ROCKETMQ header: " + std::to_string(reader.remaining() - areaLength)
               + " unexpected bytes after the extFields area, which ends at header offset "
               + std::to_string(reader.offset() + areaLength);

    command.extFields.clear();
    const size_t areaOffset = reader.offset();
    BinaryReader area(reader.take(areaLength), areaOffset, "the extFields area");
    std::vector<ExtFields::Entry> entries;
    for (size_t entry = 1; !area.atEnd(); ++entry) {
        if (entry > kMaxExtFieldsEntries)
            return "ROCKETMQ header: more than " + std::to_string(kMaxExtFieldsEntries)
                   + " extFields entries (entry " + std::to_string(entry) + " at header offset "
                   + std::to_string(area.offset()) + ")";
        std::string key;
        std::string value;
        if (!area.readString<int16_t>(key, FieldName("extFields entry", entry, " key"), error)
            || !area.readString<int32_t>(value, FieldName("extFields entry", entry, " value"), error))
            return error;
        if (!key.empty() && !value.empty()) // Java reads both as null: the entry is absent
            entries.emplace_back(std::move(key), std::move(value));
    }
    command.extFields.assign(std::move(entries));
    return {};
}

} // namespace mqdesk::remoting
