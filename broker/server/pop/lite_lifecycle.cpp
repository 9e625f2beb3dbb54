// Lite topics come and go (RocketMQ 5.5; docs/spec/lite-topic.md §2.5): a lite topic exists
// while its LMQ has messages, expires when its parent's lite.topic.expiration says it idled long
// enough, and goes with its parent. Deleting one takes what hangs on it: the bound groups'
// offsets and order records, the consume queue (its counter with it, so the next message starts
// it again at 0) and the clients' pairs with it, which clients name again on their next full sync.

#include "broker/server/pop/consumer_order_info_manager.h"
#include "broker/server/pop/lite_subscriptions.h"
#include "broker/server/pop/pop_service.h"

#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/server/broker_controller.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/topic_config_manager.h"
#include "broker/store/consume_queue.h"
#include "broker/store/consume_queue_store.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <map>

namespace mqdesk::server::pop {

std::vector<std::string> PopService::liteQueueNamesOf(const std::string &parent)
{
    std::vector<std::string> names;
    broker_.store().consumeQueues().forEach([&](store::ConsumeQueue &queue) {
        if (queue.queueId() == 0 && !liteTopicOf(queue.topic(), parent).empty())
            names.push_back(queue.topic());
    });
    return names;
}

bool PopService::deleteLiteQueues(const std::string &parent, const std::vector<std::string> &lmqs, std::string &error)
{
    if (lmqs.empty())
        return true;
    store::ConsumerOffsetManager &offsets = broker_.offsets();
    bool offsetsChanged = false;
    for (const std::string &group : liteGroupsOf(parent)) {
        for (const std::string &lmq : lmqs) {
            offsetsChanged |= offsets.removeConsumerOffset(lmq + store::ConsumerOffsetManager::kTopicGroupSeparator + group);
            liteOrderInfo_->clearBlock(lmq, group, -1);
        }
    }
    for (const std::string &lmq : lmqs) {
        liteSubscriptions_->removeQueue(lmq);
        broker_.pullOffsets().clearTopic(lmq); // TOOLS_CONSUMER's and the other pull positions
    }
    std::string persistError;
    if (offsetsChanged && !offsets.persist(persistError))
        spdlog::error("lite topics: cannot persist consumer offsets after deleting lite topics of {}: {}", parent,
                      persistError);
    return broker_.store().deleteTopicQueues(lmqs, error);
}

size_t PopService::expireLiteTopics(int64_t nowMs)
{
    const int64_t minIdleMs = broker_.brokerConfig().minLiteTTl;
    // Each LITE parent's expiry in ms; parents that never expire are left out.
    std::map<std::string, int64_t> ttlMs;
    for (const store::TopicConfig &topic : broker_.topicTable().topicConfigs()) {
        const std::string *type = topic.attributes.find(remoting::kMessageTypeAttribute);
        const std::string *expiration = topic.attributes.find(remoting::kLiteTopicExpirationAttribute);
        if (!type || *type != remoting::kLiteMessageType || !expiration)
            continue;
        const int64_t minutes = remoting::parseJavaLong(*expiration).value_or(-1);
        if (minutes > 0)
            ttlMs[topic.topicName] = minutes * 60000;
    }
    if (ttlMs.empty())
        return 0;
    // parent → its LMQs idle past both limits. The idle time runs from the last message's store time.
    std::map<std::string, std::vector<std::string>> expired;
    store::MessageStore &store = broker_.store();
    std::vector<std::string> candidates; // forEach holds the queues' lock: look them up after
    store.consumeQueues().forEach([&](store::ConsumeQueue &queue) {
        if (queue.queueId() == 0 && isLiteQueue(queue.topic()))
            candidates.push_back(queue.topic());
    });
    for (const std::string &lmq : candidates) {
        const auto queue = store.consumeQueues().find(lmq, 0);
        if (!queue)
            continue;
        // %LMQ%$<parent>$<lite>: topic names hold no '$', so the parent is what lies between.
        const size_t start = lmq.find('$');
        const size_t end = start == std::string::npos ? start : lmq.find('$', start + 1);
        if (end == std::string::npos)
            continue;
        const auto ttl = ttlMs.find(lmq.substr(start + 1, end - start - 1));
        if (ttl == ttlMs.end())
            continue;
        const int64_t max = queue->maxOffset();
        const auto last = max > 0 ? queue->entryAt(max - 1) : std::nullopt;
        const auto message = last ? store.lookMessageByOffset(last->commitLogOffset) : std::nullopt;
        if (!message) // emptied or unreadable: the commit log's cleanup will say; nothing to judge by
            continue;
        const int64_t idleMs = nowMs - message->storeTimestamp;
        if (idleMs >= minIdleMs && idleMs > ttl->second)
            expired[ttl->first].push_back(lmq);
    }
    size_t deleted = 0;
    for (const auto &[parent, lmqs] : expired) {
        std::string error;
        if (!deleteLiteQueues(parent, lmqs, error)) {
            spdlog::error("lite topics: expired lite topics of {} not deleted: {}", parent, error);
            continue;
        }
        deleted += lmqs.size();
        spdlog::info("lite topics: {} lite topic(s) of {} idle past its lite.topic.expiration deleted", lmqs.size(),
                     parent);
    }
    return deleted;
}

} // namespace mqdesk::server::pop
