#include "broker/client/pull_consumer.h"

#include "broker/client/route_util.h"
#include "broker/common/clock.h"

#include <chrono>
#include <set>

namespace mqdesk::client {

namespace {

// Java PullAPIWrapper.processPullResult: the broker filters by tag hash code; drop collisions.
void filterByTags(PullResult &result, const remoting::SubscriptionData &subscription)
{
    if (result.status != PullStatus::Found || subscription.subscribesAll() || !subscription.isTagType())
        return;
    std::erase_if(result.messages, [&](const common::StoredMessage &message) {
        return subscription.tagsSet.count(message.tags()) == 0;
    });
}

} // namespace

PullConsumer::PullConsumer(ClientConfig config, PullConsumerOptions options)
    : config_(std::move(config)), options_(std::move(options)), api_(std::make_unique<MQClientAPI>(config_))
{
    heartbeat_ = std::make_unique<HeartbeatService>(
        *api_, [this] { return heartbeatData(); }, [this] { return brokerAddresses(); });
}

PullConsumer::~PullConsumer() { shutdown(); }

Status PullConsumer::start()
{
    if (config_.namesrvAddresses().empty() || options_.group.empty())
        return Status::failure(clientCode::kIllegalArgument, "pull consumer: namesrvAddr and group must be set");
    if (started_.exchange(true))
        return {};
    Status first = heartbeat_->sendNow();
    heartbeat_->start();
    return first;
}

void PullConsumer::shutdown()
{
    if (!started_.exchange(false))
        return;
    heartbeat_->stop();
    for (const std::string &addr : brokerAddresses())
        api_->unregisterClient(addr, config_.clientId(), {}, options_.group);
    api_->shutdown();
}

Status PullConsumer::subscribe(const std::string &topic, const std::string &subExpression)
{
    {
        std::lock_guard lock(mutex_);
        remoting::SubscriptionData data = remoting::SubscriptionData::build(topic, subExpression);
        data.subVersion = common::wallMillis();
        subscriptions_[topic] = std::move(data);
    }
    return loadRoute(topic).status();
}

Status PullConsumer::sendHeartbeat() { return heartbeat_->sendNow(); }

remoting::HeartbeatData PullConsumer::heartbeatData()
{
    remoting::HeartbeatData data;
    data.clientId = config_.clientId();
    remoting::ConsumerData consumer;
    consumer.groupName = options_.group;
    consumer.consumeType = "CONSUME_ACTIVELY";
    consumer.messageModel = options_.messageModel;
    consumer.consumeFromWhere = "CONSUME_FROM_LAST_OFFSET";
    std::lock_guard lock(mutex_);
    for (const auto &[topic, subscription] : subscriptions_)
        consumer.subscriptionDataSet.push_back(subscription);
    data.consumerDataSet.push_back(std::move(consumer));
    return data;
}

std::vector<std::string> PullConsumer::brokerAddresses()
{
    std::set<std::string> addresses;
    std::lock_guard lock(mutex_);
    for (const auto &[topic, route] : routes_)
        for (const std::string &addr : masterAddresses(route))
            addresses.insert(addr);
    return {addresses.begin(), addresses.end()};
}

Result<remoting::TopicRouteData> PullConsumer::loadRoute(const std::string &topic)
{
    Result<remoting::TopicRouteData> route = api_->getTopicRoute(topic);
    if (!route.ok)
        return route;
    bool newBroker = false;
    {
        std::lock_guard lock(mutex_);
        std::set<std::string> known;
        for (const auto &[name, cached] : routes_)
            for (const std::string &addr : masterAddresses(cached))
                known.insert(addr);
        for (const std::string &addr : masterAddresses(route.value))
            newBroker = newBroker || known.count(addr) == 0;
        routes_[topic] = route.value;
    }
    // A broker seen for the first time learns about the group now, not in up to 30 s.
    if (newBroker && started_)
        heartbeat_->sendNow();
    return route;
}

Result<std::vector<MessageQueue>> PullConsumer::fetchSubscribeMessageQueues(const std::string &topic)
{
    Result<remoting::TopicRouteData> route = loadRoute(topic);
    if (!route.ok)
        return route.status();
    std::vector<MessageQueue> queues = subscribeQueues(topic, route.value);
    if (queues.empty())
        return Status::failure(clientCode::kNoRoute, "topic " + topic + " has no readable queue");
    return queues;
}

Result<std::string> PullConsumer::brokerAddress(const MessageQueue &queue)
{
    {
        std::lock_guard lock(mutex_);
        if (auto it = routes_.find(queue.topic); it != routes_.end())
            if (std::string addr = masterAddress(it->second, queue.brokerName); !addr.empty())
                return addr;
    }
    Result<remoting::TopicRouteData> route = loadRoute(queue.topic);
    if (!route.ok)
        return route.status();
    std::string addr = masterAddress(route.value, queue.brokerName);
    if (addr.empty())
        return Status::failure(clientCode::kNoRoute,
                               "no master address for broker " + queue.brokerName + " of topic " + queue.topic);
    return addr;
}

Result<PullMessageHeader> PullConsumer::pullHeader(const MessageQueue &queue, const std::string &subExpression,
                                                   int64_t offset, int32_t maxNums, const PullOptions &options)
{
    if (!started_)
        return Status::failure(clientCode::kNotStarted, "pull consumer " + options_.group + " is not started");
    if (offset < 0 || maxNums <= 0)
        return Status::failure(clientCode::kIllegalArgument, "pull " + queue.toString() + ": offset "
                                                                 + std::to_string(offset) + ", maxNums "
                                                                 + std::to_string(maxNums));
    PullMessageHeader header;
    header.consumerGroup = options_.group;
    header.topic = queue.topic;
    header.queueId = queue.queueId;
    header.queueOffset = offset;
    header.maxMsgNums = maxNums;
    header.sysFlag = pullSysFlag::kSubscription | (options.suspend ? pullSysFlag::kSuspend : 0)
                     | (options.commitOffset >= 0 ? pullSysFlag::kCommitOffset : 0);
    header.commitOffset = options.commitOffset >= 0 ? options.commitOffset : 0;
    header.suspendTimeoutMillis =
        options.suspendTimeoutMillis > 0 ? options.suspendTimeoutMillis : options_.brokerSuspendMaxTimeMillis;
    header.subscription = subExpression.empty() ? "*" : subExpression;
    header.subVersion = 0;
    return header;
}

Result<PullResult> PullConsumer::pull(const MessageQueue &queue, const std::string &subExpression, int64_t offset,
                                      int32_t maxNums, const PullOptions &options)
{
    Result<PullMessageHeader> header = pullHeader(queue, subExpression, offset, maxNums, options);
    if (!header.ok)
        return header.status();
    Result<std::string> addr = brokerAddress(queue);
    if (!addr.ok)
        return addr.status();
    Result<PullResult> result = api_->pullMessage(addr.value, header.value);
    if (result.ok)
        filterByTags(result.value, remoting::SubscriptionData::build(queue.topic, header.value.subscription));
    return result;
}

void PullConsumer::pullAsync(const MessageQueue &queue, const std::string &subExpression, int64_t offset,
                             int32_t maxNums, PullCallback callback, const PullOptions &options)
{
    Result<PullMessageHeader> header = pullHeader(queue, subExpression, offset, maxNums, options);
    if (!header.ok)
        return callback(header.status());
    Result<std::string> addr = brokerAddress(queue);
    if (!addr.ok)
        return callback(addr.status());
    api_->pullMessageAsync(addr.value, header.value,
                           [subscription = remoting::SubscriptionData::build(queue.topic, header.value.subscription),
                            callback = std::move(callback)](Result<PullResult> result) {
                               if (result.ok)
                                   filterByTags(result.value, subscription);
                               callback(std::move(result));
                           });
}

Result<int64_t> PullConsumer::fetchConsumeOffset(const MessageQueue &queue)
{
    Result<std::string> addr = brokerAddress(queue);
    if (!addr.ok)
        return addr.status();
    return api_->queryConsumerOffset(addr.value, options_.group, queue.topic, queue.queueId);
}

Status PullConsumer::updateConsumeOffset(const MessageQueue &queue, int64_t offset)
{
    Result<std::string> addr = brokerAddress(queue);
    if (!addr.ok)
        return addr.status();
    return api_->updateConsumerOffset(addr.value, options_.group, queue.topic, queue.queueId, offset);
}

Result<int64_t> PullConsumer::maxOffset(const MessageQueue &queue)
{
    Result<std::string> addr = brokerAddress(queue);
    if (!addr.ok)
        return addr.status();
    return api_->getMaxOffset(addr.value, queue.topic, queue.queueId);
}

Result<int64_t> PullConsumer::minOffset(const MessageQueue &queue)
{
    Result<std::string> addr = brokerAddress(queue);
    if (!addr.ok)
        return addr.status();
    return api_->getMinOffset(addr.value, queue.topic, queue.queueId);
}

Result<int64_t> PullConsumer::searchOffset(const MessageQueue &queue, int64_t timestamp)
{
    Result<std::string> addr = brokerAddress(queue);
    if (!addr.ok)
        return addr.status();
    return api_->searchOffsetByTimestamp(addr.value, queue.topic, queue.queueId, timestamp);
}

Result<std::map<std::string, std::set<MessageQueue>>> PullConsumer::queuesByBroker(
    const std::vector<MessageQueue> &queues)
{
    std::map<std::string, std::set<MessageQueue>> byBroker;
    for (const MessageQueue &queue : queues) {
        Result<std::string> addr = brokerAddress(queue);
        if (!addr.ok)
            return addr.status();
        byBroker[addr.value].insert(queue);
    }
    return byBroker;
}

Result<std::set<MessageQueue>> PullConsumer::lockQueues(const std::vector<MessageQueue> &queues)
{
    Result<std::map<std::string, std::set<MessageQueue>>> byBroker = queuesByBroker(queues);
    if (!byBroker.ok)
        return byBroker.status();
    std::set<MessageQueue> locked;
    Status firstError;
    bool anyAnswered = byBroker.value.empty();
    for (const auto &[addr, brokerQueues] : byBroker.value) {
        Result<std::set<MessageQueue>> granted = api_->lockBatchMQ(addr, options_.group, config_.clientId(), brokerQueues);
        if (!granted.ok) {
            if (firstError.ok)
                firstError = granted.status();
            continue;
        }
        anyAnswered = true;
        locked.insert(granted.value.begin(), granted.value.end());
    }
    if (!anyAnswered)
        return firstError;
    return locked;
}

Status PullConsumer::unlockQueues(const std::vector<MessageQueue> &queues)
{
    Result<std::map<std::string, std::set<MessageQueue>>> byBroker = queuesByBroker(queues);
    if (!byBroker.ok)
        return byBroker.status();
    Status firstError;
    for (const auto &[addr, brokerQueues] : byBroker.value) {
        Status status = api_->unlockBatchMQ(addr, options_.group, config_.clientId(), brokerQueues);
        if (!status.ok && firstError.ok)
            firstError = std::move(status);
    }
    return firstError;
}

} // namespace mqdesk::client
