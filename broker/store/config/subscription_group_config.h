#pragma once

// RocketMQ's SubscriptionGroupConfig (R/protocol/subscription/SubscriptionGroupConfig.java) and
// the beans it holds, with Java's defaults (§8.4).

#include "broker/store/config/bean_codec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::store {

struct ExponentialRetryPolicy
{
    int64_t initial = 5000;    // ms
    int64_t max = 7200000;     // ms
    int64_t multiplier = 2;
    BeanExtras extras;

    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, ExponentialRetryPolicy &out,
                         std::string &error);
    bool operator==(const ExponentialRetryPolicy &other) const = default;
};

struct CustomizedRetryPolicy
{
    // 1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h, in ms.
    std::vector<int64_t> next = {1000,   5000,   10000,  30000,  60000,   120000,  180000,  240000,  300000,
                                 360000, 420000, 480000, 540000, 600000, 1200000, 1800000, 3600000, 7200000};
    BeanExtras extras;

    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, CustomizedRetryPolicy &out,
                         std::string &error);
    bool operator==(const CustomizedRetryPolicy &other) const = default;
};

struct GroupRetryPolicy
{
    std::string type = "CUSTOMIZED"; // GroupRetryPolicyType: EXPONENTIAL | CUSTOMIZED
    std::optional<ExponentialRetryPolicy> exponentialRetryPolicy;
    std::optional<CustomizedRetryPolicy> customizedRetryPolicy;
    BeanExtras extras;

    // What `new GroupRetryPolicy()` holds.
    bool isDefault() const { return type == "CUSTOMIZED" && !exponentialRetryPolicy && !customizedRetryPolicy; }
    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, GroupRetryPolicy &out,
                         std::string &error);
    bool operator==(const GroupRetryPolicy &other) const = default;
};

struct SimpleSubscriptionData
{
    std::string topic;
    std::string expressionType;
    std::string expression;
    int64_t version = 0;
    BeanExtras extras;

    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, SimpleSubscriptionData &out,
                         std::string &error);
    bool operator==(const SimpleSubscriptionData &other) const = default;
};

struct SubscriptionGroupConfig
{
    std::string groupName;
    bool consumeEnable = true;
    bool consumeFromMinEnable = true;
    bool consumeBroadcastEnable = true;
    bool consumeMessageOrderly = false;
    int32_t retryQueueNums = 1;
    int32_t retryMaxTimes = 16;
    GroupRetryPolicy groupRetryPolicy;
    int64_t brokerId = 0; // MixAll.MASTER_ID
    int64_t whichBrokerWhenConsumeSlowly = 1;
    bool notifyConsumerIdsChangedEnable = true;
    int32_t groupSysFlag = 0;
    int32_t consumeTimeoutMinute = 15;
    std::optional<std::vector<SimpleSubscriptionData>> subscriptionDataSet; // a Set in Java; null by default
    StringMap attributes{JavaMapShape::hashMap()};
    BeanExtras extras;

    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, SubscriptionGroupConfig &out,
                         std::string &error);
    bool operator==(const SubscriptionGroupConfig &other) const = default;
};

} // namespace mqdesk::store
