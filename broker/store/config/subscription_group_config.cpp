#include "broker/store/config/subscription_group_config.h"

namespace mqdesk::store {

using common::JsonArray;
using common::JsonValue;

namespace {

// Reads the bean at `value` with `read(reader, bean)`, keeping its extras.
template<typename Bean, typename Read>
bool readBean(const JsonValue &value, const std::string &path, Bean &out, std::string &error, Read &&read)
{
    Bean bean;
    BeanReader reader(value, path);
    read(reader, bean);
    if (!reader.finish(bean.extras, error))
        return false;
    out = std::move(bean);
    return true;
}

bool readInt64Array(const JsonValue &value, const std::string &path, std::vector<int64_t> &out, std::string &error)
{
    if (!value.isArray()) {
        error = path + ": expected an array, found a value of type " + value.typeName();
        return false;
    }
    std::vector<int64_t> numbers;
    for (size_t i = 0; i < value.asArray().size(); ++i) {
        int64_t number = 0;
        if (!jsonToInt64(value.asArray()[i], path + "[" + std::to_string(i) + "]", number, error))
            return false;
        numbers.push_back(number);
    }
    out = std::move(numbers);
    return true;
}

} // namespace

JsonValue ExponentialRetryPolicy::toJson() const
{
    BeanWriter writer(extras);
    writer.put("initial", initial, initial == 5000);
    writer.put("max", max, max == 7200000);
    writer.put("multiplier", multiplier, multiplier == 2);
    return writer.finish();
}

bool ExponentialRetryPolicy::fromJson(const JsonValue &value, const std::string &path, ExponentialRetryPolicy &out,
                                      std::string &error)
{
    return readBean(value, path, out, error, [](BeanReader &reader, ExponentialRetryPolicy &bean) {
        reader.readInt64("initial", bean.initial);
        reader.readInt64("max", bean.max);
        reader.readInt64("multiplier", bean.multiplier);
    });
}

JsonValue CustomizedRetryPolicy::toJson() const
{
    BeanWriter writer(extras);
    writer.put("next", JsonArray(next.begin(), next.end()), next == CustomizedRetryPolicy().next);
    return writer.finish();
}

bool CustomizedRetryPolicy::fromJson(const JsonValue &value, const std::string &path, CustomizedRetryPolicy &out,
                                     std::string &error)
{
    return readBean(value, path, out, error, [](BeanReader &reader, CustomizedRetryPolicy &bean) {
        reader.readWith("next", [&](const JsonValue &v, const std::string &at, std::string &e) {
            return readInt64Array(v, at, bean.next, e);
        });
    });
}

JsonValue GroupRetryPolicy::toJson() const
{
    BeanWriter writer(extras);
    if (customizedRetryPolicy)
        writer.put("customizedRetryPolicy", customizedRetryPolicy->toJson());
    if (exponentialRetryPolicy)
        writer.put("exponentialRetryPolicy", exponentialRetryPolicy->toJson());
    writer.put("type", type, type == "CUSTOMIZED");
    return writer.finish();
}

bool GroupRetryPolicy::fromJson(const JsonValue &value, const std::string &path, GroupRetryPolicy &out,
                                std::string &error)
{
    return readBean(value, path, out, error, [](BeanReader &reader, GroupRetryPolicy &bean) {
        reader.readWith("customizedRetryPolicy", [&](const JsonValue &v, const std::string &at, std::string &e) {
            return CustomizedRetryPolicy::fromJson(v, at, bean.customizedRetryPolicy.emplace(), e);
        });
        reader.readWith("exponentialRetryPolicy", [&](const JsonValue &v, const std::string &at, std::string &e) {
            return ExponentialRetryPolicy::fromJson(v, at, bean.exponentialRetryPolicy.emplace(), e);
        });
        reader.readString("type", bean.type);
    });
}

JsonValue SimpleSubscriptionData::toJson() const
{
    BeanWriter writer(extras);
    writer.put("expression", expression, expression.empty());
    writer.put("expressionType", expressionType, expressionType.empty());
    writer.put("topic", topic, topic.empty());
    writer.put("version", version, version == 0);
    return writer.finish();
}

bool SimpleSubscriptionData::fromJson(const JsonValue &value, const std::string &path, SimpleSubscriptionData &out,
                                      std::string &error)
{
    return readBean(value, path, out, error, [](BeanReader &reader, SimpleSubscriptionData &bean) {
        reader.readString("expression", bean.expression);
        reader.readString("expressionType", bean.expressionType);
        reader.readString("topic", bean.topic);
        reader.readInt64("version", bean.version);
    });
}

JsonValue SubscriptionGroupConfig::toJson() const
{
    BeanWriter writer(extras);
    writer.put("attributes", stringMapToJson(attributes), attributes.empty());
    writer.put("brokerId", brokerId, brokerId == 0);
    writer.put("consumeBroadcastEnable", consumeBroadcastEnable, consumeBroadcastEnable);
    writer.put("consumeEnable", consumeEnable, consumeEnable);
    writer.put("consumeFromMinEnable", consumeFromMinEnable, consumeFromMinEnable);
    writer.put("consumeMessageOrderly", consumeMessageOrderly, !consumeMessageOrderly);
    writer.put("consumeTimeoutMinute", consumeTimeoutMinute, consumeTimeoutMinute == 15);
    writer.put("groupName", groupName, groupName.empty());
    writer.put("groupRetryPolicy", groupRetryPolicy.toJson(), groupRetryPolicy.isDefault());
    writer.put("groupSysFlag", groupSysFlag, groupSysFlag == 0);
    writer.put("notifyConsumerIdsChangedEnable", notifyConsumerIdsChangedEnable, notifyConsumerIdsChangedEnable);
    writer.put("retryMaxTimes", retryMaxTimes, retryMaxTimes == 16);
    writer.put("retryQueueNums", retryQueueNums, retryQueueNums == 1);
    if (subscriptionDataSet) {
        JsonArray set; // a HashSet: fastjson's CollectionCodec writes it inline
        for (const SimpleSubscriptionData &data : *subscriptionDataSet)
            set.push_back(data.toJson());
        writer.put("subscriptionDataSet", JsonValue(std::move(set)));
    }
    writer.put("whichBrokerWhenConsumeSlowly", whichBrokerWhenConsumeSlowly, whichBrokerWhenConsumeSlowly == 1);
    return writer.finish();
}

bool SubscriptionGroupConfig::fromJson(const JsonValue &value, const std::string &path, SubscriptionGroupConfig &out,
                                       std::string &error)
{
    return readBean(value, path, out, error, [](BeanReader &reader, SubscriptionGroupConfig &bean) {
        reader.readWith("attributes", [&](const JsonValue &v, const std::string &at, std::string &e) {
            return readStringMap(v, at, bean.attributes, e);
        });
        reader.readInt64("brokerId", bean.brokerId);
        reader.readBool("consumeBroadcastEnable", bean.consumeBroadcastEnable);
        reader.readBool("consumeEnable", bean.consumeEnable);
        reader.readBool("consumeFromMinEnable", bean.consumeFromMinEnable);
        reader.readBool("consumeMessageOrderly", bean.consumeMessageOrderly);
        reader.readInt32("consumeTimeoutMinute", bean.consumeTimeoutMinute);
        reader.readString("groupName", bean.groupName);
        reader.readWith("groupRetryPolicy", [&](const JsonValue &v, const std::string &at, std::string &e) {
            return GroupRetryPolicy::fromJson(v, at, bean.groupRetryPolicy, e);
        });
        reader.readInt32("groupSysFlag", bean.groupSysFlag);
        reader.readBool("notifyConsumerIdsChangedEnable", bean.notifyConsumerIdsChangedEnable);
        reader.readInt32("retryMaxTimes", bean.retryMaxTimes);
        reader.readInt32("retryQueueNums", bean.retryQueueNums);
        reader.readWith("subscriptionDataSet", [&](const JsonValue &v, const std::string &at, std::string &e) {
            if (!v.isArray()) {
                e = at + ": expected an array, found a value of type " + v.typeName();
                return false;
            }
            auto &set = bean.subscriptionDataSet.emplace();
            for (size_t i = 0; i < v.asArray().size(); ++i) {
                SimpleSubscriptionData data;
                if (!SimpleSubscriptionData::fromJson(v.asArray()[i], at + "[" + std::to_string(i) + "]", data, e))
                    return false;
                set.push_back(std::move(data));
            }
            return true;
        });
        reader.readInt64("whichBrokerWhenConsumeSlowly", bean.whichBrokerWhenConsumeSlowly);
    });
}

} // namespace mqdesk::store
