#include "broker/client/producer.h"

#include "broker/client/route_util.h"
#include "broker/common/clock.h"
#include "broker/common/java_hash.h"
#include "broker/common/message.h"
#include "broker/remoting/remoting_codes.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace mqdesk::client {

using remoting::ResponseCode;

namespace {

// The codes Java's producer retries on another queue (spec §9), plus transport failures.
bool retryable(const Status &status)
{
    switch (status.code) {
    case ResponseCode::kTopicNotExist:
    case ResponseCode::kServiceNotAvailable:
    case ResponseCode::kSystemError:
    case ResponseCode::kNoPermission:
    case ResponseCode::kNoBuyerId:
    case ResponseCode::kNotInCurrentUnit:
    case clientCode::kTimeout:
    case clientCode::kConnectFailed:
    case clientCode::kConnectionClosed: return true;
    default: return false;
    }
}

} // namespace

QueueSelector selectByHash(std::string shardingKey)
{
    return [key = std::move(shardingKey)](const std::vector<MessageQueue> &queues, const Message &) {
        const int64_t hash = std::abs(static_cast<int64_t>(common::javaStringHashCode(key)));
        return static_cast<size_t>(hash % static_cast<int64_t>(queues.size()));
    };
}

struct Producer::PublishInfo
{
    remoting::TopicRouteData route; // the topic's, or the template's when fromTemplate
    std::vector<MessageQueue> queues;
    int64_t fetchedAt = 0;
    bool fromTemplate = false;
    std::atomic<uint64_t> sendWhichQueue{0};
};

struct Producer::Prepared
{
    SendMessageHeader header;
    std::vector<uint8_t> body;
    std::string uniqKey;
    Message message; // for selectors
};

struct Producer::AsyncSend
{
    Prepared prepared;
    QueueSelector selector;
    SendCallback callback;
    int attempt = 0;
    std::string lastBroker;
};

Producer::Producer(ClientConfig config, ProducerOptions options)
    : config_(std::move(config)), options_(std::move(options)), api_(std::make_unique<MQClientAPI>(config_)),
      uniqKeys_(config_.clientIp)
{
    heartbeat_ = std::make_unique<HeartbeatService>(
        *api_, [this] { return heartbeatData(); }, [this] { return brokerAddresses(); });
}

Producer::~Producer() { shutdown(); }

Status Producer::start()
{
    if (config_.namesrvAddresses().empty() || options_.group.empty())
        return Status::failure(clientCode::kIllegalArgument, "producer: namesrvAddr and group must be set");
    if (!started_.exchange(true))
        heartbeat_->start();
    return {};
}

void Producer::shutdown()
{
    if (!started_.exchange(false))
        return;
    heartbeat_->stop();
    for (const std::string &addr : brokerAddresses())
        api_->unregisterClient(addr, config_.clientId(), options_.group, {});
    api_->shutdown();
}

Status Producer::sendHeartbeat()
{
    return heartbeat_->sendNow();
}

remoting::HeartbeatData Producer::heartbeatData() const
{
    remoting::HeartbeatData data;
    data.clientId = config_.clientId();
    data.producerDataSet.push_back({options_.group});
    return data;
}

std::vector<std::string> Producer::brokerAddresses()
{
    std::set<std::string> addresses;
    std::lock_guard lock(mutex_);
    for (const auto &[topic, info] : routes_)
        for (const std::string &addr : masterAddresses(info->route))
            addresses.insert(addr);
    return {addresses.begin(), addresses.end()};
}

void Producer::markStale(const std::string &topic)
{
    std::lock_guard lock(mutex_);
    if (auto it = routes_.find(topic); it != routes_.end())
        it->second->fetchedAt = 0;
}

Result<std::shared_ptr<Producer::PublishInfo>> Producer::publishInfo(const std::string &topic)
{
    std::shared_ptr<PublishInfo> cached;
    {
        std::lock_guard lock(mutex_);
        if (auto it = routes_.find(topic); it != routes_.end())
            cached = it->second;
    }
    if (cached && !cached->fromTemplate && common::wallMillis() - cached->fetchedAt < config_.pollNameServerIntervalMillis)
        return cached;

    auto fresh = std::make_shared<PublishInfo>();
    Result<remoting::TopicRouteData> route = api_->getTopicRoute(topic);
    if (route.ok)
        fresh->queues = publishQueues(topic, route.value);
    if (route.ok && !fresh->queues.empty()) {
        fresh->route = std::move(route.value);
    } else {
        // No route of its own yet: write through the template so the broker creates the topic
        // (spec §5.2); looked up again on every send until the topic's own route appears.
        Result<remoting::TopicRouteData> templ = api_->getTopicRoute(options_.createTopicKey);
        fresh->queues.clear();
        if (templ.ok) {
            for (const remoting::QueueData &queue : templ.value.queueDatas)
                if (remoting::topicPerm::isWriteable(queue.perm) && !masterAddress(templ.value, queue.brokerName).empty())
                    for (int32_t id = 0; id < std::min(options_.defaultTopicQueueNums, queue.writeQueueNums); ++id)
                        fresh->queues.push_back({topic, queue.brokerName, id});
            std::sort(fresh->queues.begin(), fresh->queues.end());
            fresh->route = std::move(templ.value);
            fresh->fromTemplate = true;
        }
        if (fresh->queues.empty()) {
            if (cached)
                return cached; // keep sending on the old route while the namesrv cannot answer
            return Status::failure(route.ok ? clientCode::kNoRoute : route.code,
                                   "no writable queue for topic " + topic + ": "
                                       + (route.ok ? std::string("route has no writable master queue") : route.error));
        }
    }
    fresh->fetchedAt = common::wallMillis();
    if (cached)
        fresh->sendWhichQueue = cached->sendWhichQueue.load();
    std::lock_guard lock(mutex_);
    routes_[topic] = fresh;
    return fresh;
}

Result<std::vector<MessageQueue>> Producer::fetchPublishMessageQueues(const std::string &topic)
{
    Result<std::shared_ptr<PublishInfo>> info = publishInfo(topic);
    if (!info.ok)
        return info.status();
    return info.value->queues;
}

MessageQueue Producer::selectQueue(PublishInfo &info, const Message &message, const QueueSelector &selector,
                                   const std::string &lastBroker)
{
    const size_t count = info.queues.size();
    if (selector)
        return info.queues[selector(info.queues, message) % count];
    if (!lastBroker.empty()) {
        for (size_t i = 0; i < count; ++i) {
            const MessageQueue &queue = info.queues[info.sendWhichQueue++ % count];
            if (queue.brokerName != lastBroker)
                return queue;
        }
    }
    return info.queues[info.sendWhichQueue++ % count];
}

Result<Producer::Prepared> Producer::prepare(const Message &message)
{
    if (!started_)
        return Status::failure(clientCode::kNotStarted, "producer " + options_.group + " is not started");
    if (message.topic.empty())
        return Status::failure(clientCode::kIllegalArgument, "message has no topic");
    if (message.body.empty())
        return Status::failure(clientCode::kIllegalArgument, "message to " + message.topic + " has an empty body");
    if (message.body.size() > options_.maxMessageSize)
        return Status::failure(clientCode::kIllegalArgument,
                               "message body of " + std::to_string(message.body.size()) + " bytes exceeds "
                                   + std::to_string(options_.maxMessageSize));
    Prepared prepared;
    common::MessageProperties properties;
    for (const auto &[key, value] : message.properties)
        if (!key.empty() && !value.empty())
            properties.set(key, value);
    std::string keys;
    for (const std::string &key : message.keys)
        if (!key.empty())
            keys += (keys.empty() ? "" : " ") + key;
    if (!keys.empty())
        properties.set(common::property::kKeys, keys);
    if (!message.tags.empty())
        properties.set(common::property::kTags, message.tags);
    if (message.delayLevel > 0)
        properties.set(common::property::kDelayTimeLevel, std::to_string(message.delayLevel));
    properties.set(common::property::kWaitStoreMsgOk, "true");
    prepared.uniqKey = uniqKeys_.next();
    properties.set(common::property::kUniqClientMessageId, prepared.uniqKey);

    SendMessageHeader &header = prepared.header;
    header.producerGroup = options_.group;
    header.topic = message.topic;
    header.defaultTopic = options_.createTopicKey;
    header.defaultTopicQueueNums = options_.defaultTopicQueueNums;
    header.bornTimestamp = common::wallMillis();
    header.flag = message.flag;
    // A half message of a transaction carries the PREPARED bits (Java's sendKernelImpl).
    if (properties.get(common::property::kTransactionPrepared) == "true")
        header.sysFlag |= common::sysflag::kTransactionPrepared;
    header.properties = properties.encode();
    prepared.body = message.body;
    prepared.message = message;
    return prepared;
}

Result<SendResult> Producer::send(const Message &message, const QueueSelector &selector)
{
    Result<Prepared> prepared = prepare(message);
    if (!prepared.ok)
        return prepared.status();
    Status last;
    std::string lastBroker;
    for (int attempt = 0; attempt <= options_.retryTimesWhenSendFailed; ++attempt) {
        Result<std::shared_ptr<PublishInfo>> info = publishInfo(message.topic);
        if (!info.ok)
            return info.status();
        const MessageQueue queue = selectQueue(*info.value, message, selector, lastBroker);
        const std::string addr = masterAddress(info.value->route, queue.brokerName);
        SendMessageHeader header = prepared.value.header;
        header.queueId = queue.queueId;
        Result<SendResult> result = api_->sendMessage(addr, queue.brokerName, header, prepared.value.body);
        if (result.ok) {
            result.value.uniqKey = prepared.value.uniqKey;
            return result;
        }
        last = result.status();
        lastBroker = queue.brokerName;
        markStale(message.topic);
        if (!retryable(last))
            break;
    }
    return last;
}

void Producer::sendAsync(const Message &message, SendCallback callback, QueueSelector selector)
{
    Result<Prepared> prepared = prepare(message);
    if (!prepared.ok)
        return callback(prepared.status());
    auto state = std::make_shared<AsyncSend>();
    state->prepared = std::move(prepared.value);
    state->selector = std::move(selector);
    state->callback = std::move(callback);
    attemptAsync(state);
}

// Requires: not on an io thread (route lookups and connects block).
void Producer::attemptAsync(const std::shared_ptr<AsyncSend> &state)
{
    const std::string &topic = state->prepared.header.topic;
    Result<std::shared_ptr<PublishInfo>> info = publishInfo(topic);
    if (!info.ok)
        return state->callback(info.status());
    const MessageQueue queue = selectQueue(*info.value, state->prepared.message, state->selector, state->lastBroker);
    SendMessageHeader header = state->prepared.header;
    header.queueId = queue.queueId;
    api_->sendMessageAsync(
        masterAddress(info.value->route, queue.brokerName), queue.brokerName, header, state->prepared.body,
        [this, state, brokerName = queue.brokerName](Result<SendResult> result) {
            if (result.ok) {
                result.value.uniqKey = state->prepared.uniqKey;
                return state->callback(std::move(result));
            }
            markStale(state->prepared.header.topic);
            if (!retryable(result) || ++state->attempt > options_.retryTimesWhenSendAsyncFailed)
                return state->callback(std::move(result));
            state->lastBroker = brokerName;
            // The retry may look up a route and connect: never on this io thread.
            if (!api_->post([this, state] { attemptAsync(state); }))
                state->callback(Status::failure(clientCode::kNotStarted,
                                                "producer shut down before retrying: " + result.error));
        });
}

Status Producer::sendOneway(const Message &message, const QueueSelector &selector)
{
    Result<Prepared> prepared = prepare(message);
    if (!prepared.ok)
        return prepared.status();
    Result<std::shared_ptr<PublishInfo>> info = publishInfo(message.topic);
    if (!info.ok)
        return info.status();
    const MessageQueue queue = selectQueue(*info.value, message, selector, {});
    SendMessageHeader header = prepared.value.header;
    header.queueId = queue.queueId;
    return api_->sendMessageOneway(masterAddress(info.value->route, queue.brokerName), header,
                                   std::move(prepared.value.body));
}

Result<SendResult> Producer::sendBatch(const std::vector<Message> &messages)
{
    if (messages.empty())
        return Status::failure(clientCode::kIllegalArgument, "empty batch");
    std::vector<BatchEntry> entries;
    std::string uniqKeys;
    for (const Message &message : messages) {
        if (message.topic != messages.front().topic || message.delayLevel > 0)
            return Status::failure(clientCode::kIllegalArgument,
                                   "a batch needs one topic and no delay level (message to " + message.topic + ")");
        Result<Prepared> prepared = prepare(message);
        if (!prepared.ok)
            return prepared.status();
        uniqKeys += (uniqKeys.empty() ? "" : ",") + prepared.value.uniqKey;
        entries.push_back({message.flag, std::move(prepared.value.body), std::move(prepared.value.header.properties)});
    }
    const std::vector<uint8_t> body = encodeBatchBody(entries);
    if (body.size() > options_.maxMessageSize)
        return Status::failure(clientCode::kIllegalArgument,
                               "batch of " + std::to_string(body.size()) + " bytes exceeds "
                                   + std::to_string(options_.maxMessageSize));
    SendMessageHeader header;
    header.producerGroup = options_.group;
    header.topic = messages.front().topic;
    header.defaultTopic = options_.createTopicKey;
    header.defaultTopicQueueNums = options_.defaultTopicQueueNums;
    header.bornTimestamp = common::wallMillis();
    header.properties = common::MessageProperties{{std::string(common::property::kWaitStoreMsgOk), "true"}}.encode();
    Status last;
    std::string lastBroker;
    for (int attempt = 0; attempt <= options_.retryTimesWhenSendFailed; ++attempt) {
        Result<std::shared_ptr<PublishInfo>> info = publishInfo(header.topic);
        if (!info.ok)
            return info.status();
        const MessageQueue queue = selectQueue(*info.value, messages.front(), {}, lastBroker);
        header.queueId = queue.queueId;
        Result<SendResult> result =
            api_->sendBatch(masterAddress(info.value->route, queue.brokerName), queue.brokerName, header, body);
        if (result.ok) {
            result.value.uniqKey = uniqKeys;
            return result;
        }
        last = result.status();
        lastBroker = queue.brokerName;
        markStale(header.topic);
        if (!retryable(last))
            break;
    }
    return last;
}

} // namespace mqdesk::client
