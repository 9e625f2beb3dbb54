#include "broker/server/broker_config.h"

#include "broker/common/config_fields.h"
#include "broker/common/properties_file.h"
#include "broker/server/java_only_keys.h"

#include <algorithm>
#include <thread>

namespace mqdesk::server {

namespace {

using Field = common::ConfigField<BrokerConfig>;
using common::boolField;
using common::intField;
using common::stringField;

const std::map<std::string, Field, std::less<>> &fields()
{
    using C = BrokerConfig;
    static const std::map<std::string, Field, std::less<>> table = {
        {"brokerClusterName", stringField(&C::brokerClusterName)},
        {"brokerName", stringField(&C::brokerName)},
        {"brokerId", intField(&C::brokerId, int64_t{0})},
        {"regionId", stringField(&C::regionId)},
        {"bindAddress", stringField(&C::bindAddress)},
        {"namesrvAddr", stringField(&C::namesrvAddr)},
        {"brokerPermission", intField(&C::brokerPermission, 0)},
        {"autoCreateTopicEnable", boolField(&C::autoCreateTopicEnable)},
        {"defaultTopicQueueNums", intField(&C::defaultTopicQueueNums, 1)},
        {"autoCreateSubscriptionGroup", boolField(&C::autoCreateSubscriptionGroup)},
        {"enableCreateSysGroup", boolField(&C::enableCreateSysGroup)},
        {"realTimeNotifyConsumerChange", boolField(&C::realTimeNotifyConsumerChange)},
        {"useServerSideResetOffset", boolField(&C::useServerSideResetOffset)},
        {"reviveQueueNum", intField(&C::reviveQueueNum, 1)},
        {"popFromRetryProbability", intField(&C::popFromRetryProbability, 0)},
        {"initPopOffsetByCheckMsgInMem", boolField(&C::initPopOffsetByCheckMsgInMem)},
        {"popFromRetryProbabilityForPriority", intField(&C::popFromRetryProbabilityForPriority, 0)},
        {"priorityOrderAsc", boolField(&C::priorityOrderAsc)},
        {"maxLiteSubscriptionCount", intField(&C::maxLiteSubscriptionCount, int64_t{1})},
        {"liteSubscriptionCheckTimeoutMills", intField(&C::liteSubscriptionCheckTimeoutMills, int64_t{1000})},
        {"liteTtlCheckInterval", intField(&C::liteTtlCheckInterval, int64_t{1000})},
        {"minLiteTTl", intField(&C::minLiteTTl, int64_t{0})},
        {"enableNotifyAfterPopOrderLockRelease", boolField(&C::enableNotifyAfterPopOrderLockRelease)},
        {"enablePopBufferMerge", boolField(&C::enablePopBufferMerge)},
        {"enableSingleTopicRegister", boolField(&C::enableSingleTopicRegister)},
        {"enableSplitRegistration", boolField(&C::enableSplitRegistration)},
        {"splitRegistrationSize", intField(&C::splitRegistrationSize, 1)},
        {"estimateAccumulation", boolField(&C::estimateAccumulation)},
        {"clusterTopicEnable", boolField(&C::clusterTopicEnable)},
        {"brokerTopicEnable", boolField(&C::brokerTopicEnable)},
        {"traceTopicEnable", boolField(&C::traceTopicEnable)},
        {"msgTraceTopicName", stringField(&C::msgTraceTopicName)},
        {"enableMixedMessageType", boolField(&C::enableMixedMessageType)},
        {"longPollingEnable", boolField(&C::longPollingEnable)},
        {"enablePropertyFilter", boolField(&C::enablePropertyFilter)},
        {"shortPollingTimeMills", intField(&C::shortPollingTimeMills, int64_t{1})},
        {"transferMsgByHeap", boolField(&C::transferMsgByHeap)},
        {"traceOn", boolField(&C::traceOn)},
        {"rejectTransactionMessage", boolField(&C::rejectTransactionMessage)},
        {"recallMessageEnable", boolField(&C::recallMessageEnable)},
        {"defaultInvisibleTimeMills", intField(&C::defaultInvisibleTimeMills, 1000)},
        {"renewSchedulePeriodMillis", intField(&C::renewSchedulePeriodMillis, 100)},
        {"renewAheadTimeMillis", intField(&C::renewAheadTimeMillis, 0)},
        {"renewMaxTimeMillis", intField(&C::renewMaxTimeMillis, 0)},
        {"storeReplyMessageEnable", boolField(&C::storeReplyMessageEnable)},
        {"transactionTimeOut", intField(&C::transactionTimeOut, 0)},
        {"transactionCheckMax", intField(&C::transactionCheckMax, 1)},
        {"transactionCheckInterval", intField(&C::transactionCheckInterval, 100)},
        {"registerNameServerPeriod", intField(&C::registerNameServerPeriod, 1)},
        {"registerBrokerTimeoutMills", intField(&C::registerBrokerTimeoutMills, 1)},
        {"forwardTimeout", intField(&C::forwardTimeout, 1)},
        {"sendMessageThreadPoolNums", intField(&C::sendMessageThreadPoolNums, 1)},
        {"pullMessageThreadPoolNums", intField(&C::pullMessageThreadPoolNums, 1)},
        {"adminBrokerThreadPoolNums", intField(&C::adminBrokerThreadPoolNums, 1)},
        {"sendThreadPoolQueueCapacity", intField(&C::sendThreadPoolQueueCapacity, 1)},
        {"pullThreadPoolQueueCapacity", intField(&C::pullThreadPoolQueueCapacity, 1)},
        {"channelExpiredTimeout", intField(&C::channelExpiredTimeout, int64_t{1000})},
        {"flushConsumerOffsetInterval", intField(&C::flushConsumerOffsetInterval, 1)},
        {"startAcceptSendRequestTimeStamp", intField(&C::startAcceptSendRequestTimeStamp, int64_t{0})},
        {"serverMaxConnections", intField(&C::serverMaxConnections, 0)},
        {"writeBufferHighWaterMark", intField(&C::writeBufferHighWaterMark, int64_t{0})},
        {"serverMaxQueuedWriteBytes", intField(&C::serverMaxQueuedWriteBytes, int64_t{0})},
        {"serverTotalQueuedWriteBytes", intField(&C::serverTotalQueuedWriteBytes, int64_t{0})},
        {"serverTotalPartialFrameBytes", intField(&C::serverTotalPartialFrameBytes, int64_t{0})},
        {"serverChannelMaxIdleTimeSeconds", intField(&C::serverChannelMaxIdleTimeSeconds, 0)},
        {"serverFrameTimeoutMillis", intField(&C::serverFrameTimeoutMillis, 0)},
        {"serverMaxConnectionsPerAddress", intField(&C::serverMaxConnectionsPerAddress, 0)},
        {"fastListenPort", intField(&C::fastListenPort, -1)},
        {"grpcMaxConnections", intField(&C::grpcMaxConnections, 0)},
        {"grpcMaxConnectionsPerAddress", intField(&C::grpcMaxConnectionsPerAddress, 0)},
        {"grpcMaxHeaderBlockBytes", intField(&C::grpcMaxHeaderBlockBytes, 1024)},
        {"grpcMaxConcurrentStreams", intField(&C::grpcMaxConcurrentStreams, 1)},
        {"grpcMaxTotalStreams", intField(&C::grpcMaxTotalStreams, 1)},
        {"grpcStreamResetsPerSecond", intField(&C::grpcStreamResetsPerSecond, 1)},
        {"grpcStreamResetBurst", intField(&C::grpcStreamResetBurst, 1)},
        {"grpcIdleFramesPerSecond", intField(&C::grpcIdleFramesPerSecond, 1)},
        {"grpcIdleFrameBurst", intField(&C::grpcIdleFrameBurst, 1)},
        {"grpcClientConsumerMinLongPollingTimeoutMillis", intField(&C::grpcClientConsumerMinLongPollingTimeoutMillis, int64_t{1000})},
        {"grpcClientConsumerMaxLongPollingTimeoutMillis", intField(&C::grpcClientConsumerMaxLongPollingTimeoutMillis, int64_t{1000})},
        {"serverSocketSndBufSize", intField(&C::serverSocketSndBufSize, 0)},
        {"serverSocketRcvBufSize", intField(&C::serverSocketRcvBufSize, 0)},
        {"rebalanceLockMaxLiveTime", intField(&C::rebalanceLockMaxLiveTime, int64_t{1})},
        {"mqdeskExtensionsEnable", boolField(&C::mqdeskExtensionsEnable)},
        {"aclEnable", boolField(&C::aclEnable)},
        {"plainAclFile", stringField(&C::plainAclFile)},
        {"authenticationEnabled", boolField(&C::authenticationEnabled)},
        {"authorizationEnabled", boolField(&C::authorizationEnabled)},
        {"initAuthenticationUser", stringField(&C::initAuthenticationUser)},
        {"innerClientAuthenticationCredentials", stringField(&C::innerClientAuthenticationCredentials)},
        {"authenticationWhitelist", stringField(&C::authenticationWhitelist)},
        {"authorizationWhitelist", stringField(&C::authorizationWhitelist)},
        {"migrateAuthFromV1Enabled", boolField(&C::migrateAuthFromV1Enabled)},
    };
    return table;
}

} // namespace

int defaultSendMessageThreads()
{
    return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

int defaultPullMessageThreads()
{
    return 16 + static_cast<int>(std::max(std::thread::hardware_concurrency(), 1u)) * 2;
}

std::string BrokerConfig::plainAclPath(const std::string &storeRootDir) const
{
    return plainAclFile.empty() ? storeRootDir + "/conf/plain_acl.yml" : plainAclFile;
}

std::string BrokerConfig::set(std::string_view key, std::string_view value)
{
    const auto it = fields().find(key);
    if (it == fields().end())
        return "unknown broker setting '" + std::string(key) + "'";
    BrokerConfig candidate = *this;
    if (std::string error = it->second.set(candidate, value); !error.empty())
        return "bad value '" + std::string(value) + "' for " + std::string(key) + ": " + error;
    if (candidate.brokerName.empty() || candidate.brokerClusterName.empty())
        return "bad value '' for " + std::string(key) + ": brokerName and brokerClusterName must not be empty";
    *this = std::move(candidate);
    return {};
}

bool BrokerConfig::knows(std::string_view key) const
{
    return fields().contains(key);
}

BrokerConfig::ApplyResult BrokerConfig::apply(const std::map<std::string, std::string> &properties)
{
    return common::applyConfigProperties(*this, fields(), properties);
}

std::vector<std::pair<std::string, std::string>> BrokerConfig::toProperties() const
{
    return common::configProperties(*this, fields());
}

BrokerSettings::ApplyResult BrokerSettings::apply(const std::map<std::string, std::string> &properties)
{
    ApplyResult result;
    std::map<std::string, std::string> others;
    for (const auto &[key, value] : properties)
        if (!remoting::TlsSettings::isKey(key))
            others.emplace(key, value);
    if (others.size() != properties.size()) {
        if (std::string error = tls.apply(properties); !error.empty()) {
            result.error = error;
            return result;
        }
    }
    const auto storeResult = store.apply(others);
    if (!storeResult.error.empty()) {
        result.error = storeResult.error;
        return result;
    }
    std::map<std::string, std::string> rest;
    for (const std::string &key : storeResult.unknownKeys)
        rest.emplace(key, others.at(key));
    result = broker.apply(rest);
    if (!result.error.empty())
        return result;
    // Java 5.5's keys MQDesk does not serve: accepted when nothing a client sees changes,
    // refused with the reason when it would (java_only_keys.h).
    std::vector<std::string> notJavas;
    for (const std::string &key : result.unknownKeys) {
        const JavaOnlyKey *javaOnly = findJavaOnlyKey(key);
        if (!javaOnly) {
            notJavas.push_back(key);
            continue;
        }
        if (std::string refusal = checkJavaOnlyValue(*javaOnly, rest.at(key)); !refusal.empty()) {
            result.error = std::move(refusal);
            return result;
        }
    }
    result.unknownKeys = std::move(notJavas);
    return result;
}

bool BrokerSettings::loadFile(const std::string &path, std::vector<std::string> &unknownKeys, std::string &error)
{
    const common::PropertiesParseResult parsed = common::loadPropertiesFile(path);
    if (!parsed.error.empty()) {
        error = parsed.error;
        return false;
    }
    ApplyResult result = apply(parsed.values);
    if (!result.error.empty()) {
        error = path + ": " + result.error;
        return false;
    }
    unknownKeys = std::move(result.unknownKeys);
    return true;
}

std::string BrokerSettings::set(std::string_view key, std::string_view value)
{
    if (broker.knows(key))
        return broker.set(key, value);
    if (const JavaOnlyKey *javaOnly = findJavaOnlyKey(key))
        return "setting " + std::string(key) + " is a RocketMQ 5.5 key MQDesk does not serve (" + std::string(javaOnly->reason->what)
               + "); not changed";
    return store.set(key, value);
}

std::vector<std::pair<std::string, std::string>> BrokerSettings::toProperties() const
{
    auto out = broker.toProperties();
    const auto storeProperties = store.toProperties();
    out.insert(out.end(), storeProperties.begin(), storeProperties.end());
    std::sort(out.begin(), out.end());
    return out;
}

std::string BrokerSettings::toPropertiesText() const
{
    std::string text;
    for (const auto &[key, value] : toProperties())
        text += key + "=" + value + "\n";
    return text;
}

} // namespace mqdesk::server
