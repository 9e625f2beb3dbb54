#include "app/mqdesk-admin/store_output.h"

#include "broker/common/base64.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace mqdesk::admin {

namespace {

// Display width of a UTF-8 string: code points (wide characters count as one).
size_t displayWidth(std::string_view text)
{
    return static_cast<size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

void printRow(std::ostream &out, const std::vector<std::string> &cells, const std::vector<size_t> &widths)
{
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
        line += cells[i];
        if (i + 1 < cells.size())
            line.append(widths[i] - displayWidth(cells[i]) + 2, ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
}

// Length of the valid UTF-8 sequence at `i`, 0 when the bytes there are not one.
size_t utf8SequenceLength(std::string_view s, size_t i)
{
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80)
        return 1;
    size_t length = 0;
    uint32_t min = 0;
    uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
        length = 2, min = 0x80, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        length = 3, min = 0x800, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        length = 4, min = 0x10000, cp = c & 0x07;
    } else {
        return 0;
    }
    if (i + length > s.size())
        return 0;
    for (size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return length;
}

} // namespace

void TextTable::print(std::ostream &out) const
{
    std::vector<size_t> widths(headers_.size(), 0);
    for (size_t i = 0; i < headers_.size(); ++i)
        widths[i] = displayWidth(headers_[i]);
    for (const auto &row : rows_)
        for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], displayWidth(row[i]));
    printRow(out, headers_, widths);
    for (const auto &row : rows_)
        printRow(out, row, widths);
}

void KeyValueList::print(std::ostream &out) const
{
    size_t width = 0;
    for (const auto &[key, value] : items_)
        width = std::max(width, displayWidth(key));
    for (const auto &[key, value] : items_)
        out << key << ':' << std::string(width - displayWidth(key) + 1, ' ') << value << '\n';
}

void printJsonLine(std::ostream &out, const common::JsonObject &object)
{
    out << common::toJsonCompact(common::JsonValue(object)) << '\n';
}

bool isValidUtf8(std::string_view bytes)
{
    for (size_t i = 0; i < bytes.size();) {
        const size_t length = utf8SequenceLength(bytes, i);
        if (length == 0)
            return false;
        i += length;
    }
    return true;
}

std::string utf8Text(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (size_t i = 0; i < bytes.size();) {
        const size_t length = utf8SequenceLength(bytes, i);
        if (length == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(bytes, i, length);
            i += length;
        }
    }
    return out;
}


std::string formatMillis(int64_t epochMillis)
{
    if (epochMillis == 0)
        return "-";
    const std::time_t seconds = static_cast<std::time_t>(epochMillis / 1000);
    std::tm tm{};
    localtime_r(&seconds, &tm);
    char text[64];
    const size_t length = std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
    char millis[8];
    std::snprintf(millis, sizeof millis, ".%03d", static_cast<int>(((epochMillis % 1000) + 1000) % 1000));
    return std::string(text, length) + millis;
}

std::string bodyPreview(const std::vector<uint8_t> &body, size_t maxChars)
{
    const std::string_view text(reinterpret_cast<const char *>(body.data()), body.size());
    std::string out;
    size_t chars = 0;
    for (size_t i = 0; i < text.size() && chars < maxChars; ++chars) {
        const size_t length = utf8SequenceLength(text, i);
        if (length == 0 || (length == 1 && (static_cast<unsigned char>(text[i]) < 0x20 || text[i] == 0x7F))) {
            out += '.';
            ++i;
        } else {
            out.append(text, i, length);
            i += length;
        }
        if (chars + 1 == maxChars && i < text.size())
            out += "...";
    }
    return out;
}

std::string_view recordKindName(store::RecordKind kind)
{
    switch (kind) {
    case store::RecordKind::Message:
        return "message";
    case store::RecordKind::Blank:
        return "blank";
    case store::RecordKind::Invalid:
        return "invalid";
    }
    return "invalid";
}

common::JsonObject recordToJson(const store::CommitLogRecord &record)
{
    common::JsonObject json;
    json.set("offset", record.offset);
    json.set("size", record.size);
    json.set("file", utf8Text(record.file));
    json.set("kind", recordKindName(record.kind));
    if (record.kind == store::RecordKind::Invalid)
        json.set("error", utf8Text(record.error));
    if (record.kind != store::RecordKind::Message)
        return json;
    const common::StoredMessage &m = record.message;
    json.set("topic", utf8Text(m.topic));
    json.set("queueId", m.queueId);
    json.set("queueOffset", m.queueOffset);
    json.set("storeTimestamp", m.storeTimestamp);
    json.set("bornTimestamp", m.bornTimestamp);
    json.set("tags", utf8Text(m.tags()));
    json.set("keys", utf8Text(m.properties.get(common::property::kKeys).value_or("")));
    json.set("uniqKey", utf8Text(m.properties.get(common::property::kUniqClientMessageId).value_or("")));
    json.set("flag", m.flag);
    json.set("sysFlag", m.sysFlag);
    json.set("bodyCrc", m.bodyCrc);
    json.set("crcOk", record.crcOk);
    json.set("positionOk", record.positionOk);
    json.set("bornHost", m.bornHost.toString());
    json.set("storeHost", m.storeHost.toString());
    json.set("reconsumeTimes", m.reconsumeTimes);
    json.set("preparedTransactionOffset", m.preparedTransactionOffset);
    common::JsonObject properties;
    for (const auto &[key, value] : m.properties)
        properties.set(utf8Text(key), utf8Text(value));
    json.set("properties", std::move(properties));
    json.set("bodySize", static_cast<int64_t>(m.body.size()));
    const std::string_view body(reinterpret_cast<const char *>(m.body.data()), m.body.size());
    if (isValidUtf8(body))
        json.set("body", body);
    else
        json.set("bodyBase64", common::encodeBase64(std::string_view(reinterpret_cast<const char *>(m.body.data()), m.body.size())));
    return json;
}

} // namespace mqdesk::admin
