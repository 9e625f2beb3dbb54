#include "app/mqdesk-admin/admin_output.h"
#include "broker/common/base64.h"

#include "broker/common/clock.h"
#include "broker/common/message_id.h"
#include "broker/common/message_properties.h"

#include <charconv>
#include <cstdio>
#include <ctime>

namespace mqdesk::admin {

namespace {

std::string property(const common::StoredMessage &message, std::string_view name)
{
    return std::string(message.properties.get(name).value_or(""));
}

} // namespace

std::string offsetMsgIdOf(const common::StoredMessage &message)
{
    return common::createOffsetMessageId(message.storeHost, message.physicalOffset);
}

std::string msgIdOf(const common::StoredMessage &message)
{
    std::string uniq = property(message, common::property::kUniqClientMessageId);
    return uniq.empty() ? offsetMsgIdOf(message) : uniq;
}

common::JsonObject messageToJson(const common::StoredMessage &m)
{
    common::JsonObject json;
    json.set("msgId", msgIdOf(m));
    json.set("offsetMsgId", offsetMsgIdOf(m));
    json.set("topic", utf8Text(m.topic));
    json.set("queueId", m.queueId);
    json.set("queueOffset", m.queueOffset);
    json.set("commitLogOffset", m.physicalOffset);
    json.set("tags", utf8Text(m.tags()));
    json.set("keys", utf8Text(property(m, common::property::kKeys)));
    json.set("uniqKey", utf8Text(property(m, common::property::kUniqClientMessageId)));
    json.set("bornTimestamp", m.bornTimestamp);
    json.set("storeTimestamp", m.storeTimestamp);
    json.set("bornHost", m.bornHost.toString());
    json.set("storeHost", m.storeHost.toString());
    json.set("flag", m.flag);
    json.set("sysFlag", m.sysFlag);
    json.set("reconsumeTimes", m.reconsumeTimes);
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

void printMessage(std::ostream &out, const common::StoredMessage &m)
{
    std::string properties;
    for (const auto &[key, value] : m.properties)
        properties += (properties.empty() ? "" : ", ") + std::string(key) + "=" + std::string(value);
    KeyValueList list;
    list.add("OffsetID", offsetMsgIdOf(m));
    list.add("Message ID", msgIdOf(m));
    list.add("Topic", m.topic);
    list.add("Tags", "[" + m.tags() + "]");
    list.add("Keys", "[" + property(m, common::property::kKeys) + "]");
    list.add("Queue ID", std::to_string(m.queueId));
    list.add("Queue Offset", std::to_string(m.queueOffset));
    list.add("CommitLog Offset", std::to_string(m.physicalOffset));
    list.add("Reconsume Times", std::to_string(m.reconsumeTimes));
    list.add("Born Timestamp", formatMillis(m.bornTimestamp));
    list.add("Store Timestamp", formatMillis(m.storeTimestamp));
    list.add("Born Host", m.bornHost.toString());
    list.add("Store Host", m.storeHost.toString());
    list.add("System Flag", std::to_string(m.sysFlag));
    list.add("Properties", "{" + properties + "}");
    list.add("Message Body", bodyPreview(m.body, 4096));
    list.print(out);
}

std::optional<int64_t> parseTimestamp(std::string_view text)
{
    if (text == "now")
        return common::wallMillis();
    int64_t millis = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), millis);
    if (ec == std::errc() && end == text.data() + text.size())
        return millis >= 0 ? std::optional<int64_t>(millis) : std::nullopt;
    // yyyy-MM-dd#HH:mm:ss:SSS (mqadmin) or yyyy-MM-dd HH:mm:ss[.SSS] (as MQDesk prints times)
    std::tm tm{};
    int ms = 0;
    int consumed = 0;
    const std::string copy(text);
    const char *c = copy.c_str();
    const auto whole = [&](int fields, int expected) {
        return fields == expected && static_cast<size_t>(consumed) == copy.size();
    };
    if (!whole(std::sscanf(c, "%4d-%2d-%2d#%2d:%2d:%2d:%3d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                           &tm.tm_min, &tm.tm_sec, &ms, &consumed), 7)
        && !whole(std::sscanf(c, "%4d-%2d-%2d %2d:%2d:%2d.%3d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                              &tm.tm_min, &tm.tm_sec, &ms, &consumed), 7)
        && !whole(std::sscanf(c, "%4d-%2d-%2d %2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                              &tm.tm_min, &tm.tm_sec, &consumed), 6))
        return std::nullopt;
    if (tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59
        || tm.tm_sec > 60 || ms < 0)
        return std::nullopt;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    tm.tm_isdst = -1;
    const std::time_t seconds = std::mktime(&tm);
    if (seconds == static_cast<std::time_t>(-1))
        return std::nullopt;
    return static_cast<int64_t>(seconds) * 1000 + ms;
}

std::string firstNumber(std::string_view text)
{
    const size_t space = text.find(' ');
    return std::string(space == std::string_view::npos ? text : text.substr(0, space));
}

} // namespace mqdesk::admin
