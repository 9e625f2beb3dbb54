#pragma once

// The request processors' half of static topics (common/topic_queue_mapping.h): a client of a
// static topic names a logical queue and logical offsets; the broker that leads the logical queue
// turns them into its physical queue and offsets, and its answer back into logical ones, as
// Java's processors do (TopicQueueMappingManager#buildTopicQueueMappingContext and each
// processor's rewriteRequestForStaticTopic / rewriteResponseForStaticTopic).
//
// A request whose offsets fall on an item hosted by another broker (a logical queue remapped from
// there) is forwarded to that broker about the item's physical queue (askItemBroker, Java's
// RpcClient; `lo=false` tells it the queue is physical), and its answer made logical here.

#include "broker/common/topic_queue_mapping.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mqdesk::remoting {
class ExtFields;
struct InvokeResult;
struct RemotingCommand;
}

namespace mqdesk::store {
class TopicQueueMappingManager;
}

namespace mqdesk::server {

class StaticQueue
{
public:
    // The view of `topic`/`queueId` for `request`. Not static when the topic has no mapping here,
    // or when the request says `lo=false` (one broker forwarding to another: already physical).
    // With `selectOneWhenMiss` (sends) a negative queue id picks the first logical queue hosted.
    static StaticQueue of(const store::TopicQueueMappingManager &mappings, const remoting::RemotingCommand &request,
                          const std::string &topic, int32_t queueId, bool selectOneWhenMiss = false);

    bool isStatic() const { return detail_.has_value(); }
    // Whether this broker leads the logical queue (its newest item is here).
    bool isLeader() const;
    int32_t globalId() const { return globalId_; }
    // Requires: isStatic().
    const common::TopicQueueMappingDetail &detail() const { return *detail_; }
    // The logical queue's items, oldest first; empty when this broker never hosted it.
    const common::LogicQueueMappingItems &items() const { return items_; }
    // Requires: isLeader().
    const common::LogicQueueMappingItem &leader() const { return items_.back(); }
    bool isLocal(const common::LogicQueueMappingItem &item) const { return item.bname == detail_->bname; }

    // The item holding `logicalOffset` (common::findMappingItem); nullptr when no item of the
    // queue has a decided logical offset yet (a mapping can say so: answer noItemRemark()).
    const common::LogicQueueMappingItem *itemHolding(int64_t logicalOffset) const;

    // Java's NOT_LEADER_FOR_QUEUE remark.
    std::string notLeaderRemark() const;
    std::string noItemRemark() const;

private:
    std::optional<common::TopicQueueMappingDetail> detail_;
    std::string topic_;
    int32_t globalId_ = -1;
    common::LogicQueueMappingItems items_;
};

class BrokerController;

// Asks `item`'s broker (through `broker`, waiting up to forwardTimeout) request `code` with
// `fields` plus the item's physical queue, `lo=false` and `bname`, as Java's broker forwards a
// static topic's request. A failure result names the broker and why.
remoting::InvokeResult askItemBroker(BrokerController &broker, const StaticQueue &queue,
                                     const common::LogicQueueMappingItem &item, int32_t code,
                                     remoting::ExtFields fields);

// A pull's answer in logical terms (Java's PullMessageProcessor#rewriteResponseForStaticTopic):
// the code (offsets outside the item read move the client on or back), the next, min and max
// offsets, and the delta the client adds to each message's physical queue offset.
struct StaticPullAnswer
{
    int32_t code = 0;
    int64_t nextBeginOffset = 0;
    int64_t minOffset = 0;
    int64_t maxOffset = 0;
    int64_t offsetDelta = 0;
};

// `current` is the item the pull read (findMappingItem of the logical offset), `physicalOffset`
// the offset asked of it; code, next, min and max are the store's physical answer.
StaticPullAnswer staticPullAnswer(const StaticQueue &queue, const common::LogicQueueMappingItem &current,
                                  int64_t physicalOffset, int32_t code, int64_t nextBeginOffset, int64_t minOffset,
                                  int64_t maxOffset);

} // namespace mqdesk::server
