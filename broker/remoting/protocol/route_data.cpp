#include "broker/remoting/protocol/route_data.h"

#include "broker/remoting/protocol/json_fields.h"
#include "broker/remoting/protocol/header_fields.h"

#include <limits>

// The route and cluster bodies: QueueData, BrokerData, TopicRouteData, ClusterInfo, TopicList,
// KVTable. Broker registration's bodies are in broker_registration.cpp.

namespace mqdesk::remoting {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;
using namespace bodyjson;

namespace topicPerm {
std::string permName(int32_t perm)
{
    std::string out = "---";
    if (isReadable(perm))
        out[0] = 'R';
    if (isWriteable(perm))
        out[1] = 'W';
    if (isInherited(perm))
        out[2] = 'X';
    return out;
}
} // namespace topicPerm

// QueueData ----------------------------------------------------------------------------------

JsonValue QueueData::toJsonValue() const
{
    JsonObject object;
    object.set("brokerName", brokerName);
    object.set("perm", perm);
    object.set("readQueueNums", readQueueNums);
    object.set("topicSysFlag", topicSysFlag);
    object.set("writeQueueNums", writeQueueNums);
    return object;
}

bool QueueData::fromJsonValue(const JsonValue &value, std::string_view path, QueueData &out, std::string &error)
{
    out = QueueData{};
    error.clear();
    JsonFieldReader reader(value, std::string(path), error);
    reader.readString("brokerName", out.brokerName);
    reader.readInt("readQueueNums", out.readQueueNums);
    reader.readInt("writeQueueNums", out.writeQueueNums);
    reader.readInt("perm", out.perm);
    reader.readInt("topicSysFlag", out.topicSysFlag);
    return reader.ok();
}

// BrokerData ---------------------------------------------------------------------------------

std::string BrokerData::masterAddress() const
{
    const auto it = brokerAddrs.find(kMasterId);
    return it == brokerAddrs.end() ? std::string() : it->second;
}

JsonValue BrokerData::toJsonValue() const
{
    JsonObject addrs;
    for (const auto &[id, address] : brokerAddrs)
        addrs.setIntegerKey(id, address); // the strict writer quotes it
    JsonObject object;
    object.set("brokerAddrs", std::move(addrs));
    object.set("brokerName", brokerName);
    object.set("cluster", cluster);
    return object;
}

bool BrokerData::fromJsonValue(const JsonValue &value, std::string_view path, BrokerData &out, std::string &error)
{
    out = BrokerData{};
    error.clear();
    JsonFieldReader reader(value, std::string(path), error);
    reader.readString("cluster", out.cluster);
    reader.readString("brokerName", out.brokerName);
    if (!reader.ok())
        return false;
    const JsonValue *addrs = member(value, "brokerAddrs");
    if (!addrs)
        return true;
    const std::string addrsPath = memberPath(path, "brokerAddrs");
    if (!requireObject(*addrs, addrsPath, error))
        return false;
    for (const common::JsonMember &entry : addrs->asObject()) {
        // Bare (`{0:…}`, fastjson's default) and quoted (`{"0":…}`) keys alike.
        const std::optional<int64_t> id = parseJavaLong(entry.key);
        if (!id)
            return fail(error, addrsPath, "key \"" + entry.key + "\" is not a broker id");
        if (!entry.value.isString())
            return fail(error, memberPath(addrsPath, entry.key),
                        std::string("expected a string, found ") + entry.value.typeName());
        out.brokerAddrs[*id] = entry.value.asString();
    }
    return true;
}

// TopicRouteData -----------------------------------------------------------------------------

std::string TopicRouteData::toJson() const
{
    JsonArray brokers;
    for (const BrokerData &broker : brokerDatas)
        brokers.push_back(broker.toJsonValue());
    JsonArray queues;
    for (const QueueData &queue : queueDatas)
        queues.push_back(queue.toJsonValue());
    JsonObject object;
    object.set("brokerDatas", std::move(brokers));
    object.set("filterServerTable", stringListTable(filterServerTable));
    if (orderTopicConf)
        object.set("orderTopicConf", *orderTopicConf);
    object.set("queueDatas", std::move(queues));
    if (!topicQueueMappingByBroker.empty())
        object.set("topicQueueMappingByBroker", beanTable(topicQueueMappingByBroker));
    return common::toJsonCompact(object);
}

bool TopicRouteData::fromJson(std::string_view body, TopicRouteData &out, std::string &error)
{
    out = TopicRouteData{};
    error.clear();
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    if (member(root, "orderTopicConf")) {
        out.orderTopicConf.emplace();
        JsonFieldReader(root, {}, error).readString("orderTopicConf", *out.orderTopicConf);
        if (!error.empty())
            return false;
    }
    if (const JsonValue *queues = member(root, "queueDatas")) {
        if (!queues->isArray())
            return fail(error, "queueDatas", std::string("expected an array, found ") + queues->typeName());
        for (size_t i = 0; i < queues->asArray().size(); ++i) {
            QueueData queue;
            if (!QueueData::fromJsonValue(queues->asArray()[i], indexPath("queueDatas", i), queue, error))
                return false;
            out.queueDatas.push_back(std::move(queue));
        }
    }
    if (const JsonValue *brokers = member(root, "brokerDatas")) {
        if (!brokers->isArray())
            return fail(error, "brokerDatas", std::string("expected an array, found ") + brokers->typeName());
        for (size_t i = 0; i < brokers->asArray().size(); ++i) {
            BrokerData broker;
            if (!BrokerData::fromJsonValue(brokers->asArray()[i], indexPath("brokerDatas", i), broker, error))
                return false;
            out.brokerDatas.push_back(std::move(broker));
        }
    }
    return readStringListTable(root, "filterServerTable", {}, out.filterServerTable, error)
           && readBeanTable(root, "topicQueueMappingByBroker", {}, out.topicQueueMappingByBroker, error);
}

// ClusterInfo --------------------------------------------------------------------------------

std::string ClusterInfo::toJson() const
{
    JsonObject brokers;
    for (const auto &[name, broker] : brokerAddrTable)
        brokers.set(name, broker.toJsonValue());
    JsonObject object;
    object.set("brokerAddrTable", std::move(brokers));
    object.set("clusterAddrTable", stringListTable(clusterAddrTable));
    return common::toJsonCompact(object);
}

bool ClusterInfo::fromJson(std::string_view body, ClusterInfo &out, std::string &error)
{
    out = ClusterInfo{};
    error.clear();
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    if (const JsonValue *brokers = member(root, "brokerAddrTable")) {
        if (!requireObject(*brokers, "brokerAddrTable", error))
            return false;
        for (const common::JsonMember &entry : brokers->asObject()) {
            BrokerData broker;
            if (!BrokerData::fromJsonValue(entry.value, memberPath("brokerAddrTable", entry.key), broker, error))
                return false;
            out.brokerAddrTable[entry.key] = std::move(broker);
        }
    }
    return readStringListTable(root, "clusterAddrTable", {}, out.clusterAddrTable, error);
}

// TopicList ----------------------------------------------------------------------------------

std::string TopicList::toJson() const
{
    JsonObject object;
    if (!brokerAddr.empty())
        object.set("brokerAddr", brokerAddr);
    object.set("topicList", stringArray(topicList));
    return common::toJsonCompact(object);
}

bool TopicList::fromJson(std::string_view body, TopicList &out, std::string &error)
{
    out = TopicList{};
    error.clear();
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    JsonFieldReader(root, {}, error).readString("brokerAddr", out.brokerAddr);
    if (!error.empty())
        return false;
    const JsonValue *topics = member(root, "topicList");
    return !topics || readStringArray(*topics, "topicList", out.topicList, error);
}

// KVTable ------------------------------------------------------------------------------------

std::string KVTable::toJson() const
{
    JsonObject entries;
    for (const auto &[key, value] : table)
        entries.set(key, value);
    JsonObject object;
    object.set("table", std::move(entries));
    return common::toJsonCompact(object);
}

bool KVTable::fromJson(std::string_view body, KVTable &out, std::string &error)
{
    out = KVTable{};
    error.clear();
    JsonValue root;
    if (!parseJsonObject(body, root, error))
        return false;
    const JsonValue *entries = member(root, "table");
    if (!entries)
        return true;
    if (!requireObject(*entries, "table", error))
        return false;
    for (const common::JsonMember &entry : entries->asObject()) {
        if (!entry.value.isString())
            return fail(error, memberPath("table", entry.key),
                        std::string("expected a string, found ") + entry.value.typeName());
        out.table[entry.key] = entry.value.asString();
    }
    return true;
}

} // namespace mqdesk::remoting
