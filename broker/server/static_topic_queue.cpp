#include "broker/server/static_topic_queue.h"

#include "broker/remoting/remoting_codes.h"
#include "broker/remoting/net/remoting_channel.h"
#include "broker/remoting/remoting_command.h"
#include "broker/server/broker_controller.h"
#include "broker/store/config/topic_queue_mapping_manager.h"

#include <algorithm>

namespace mqdesk::server {

using common::LogicQueueMappingItem;
using remoting::ResponseCode;

StaticQueue StaticQueue::of(const store::TopicQueueMappingManager &mappings, const remoting::RemotingCommand &request,
                            const std::string &topic, int32_t queueId, bool selectOneWhenMiss)
{
    StaticQueue queue;
    queue.topic_ = topic;
    queue.globalId_ = queueId;
    // A request one broker forwards to another says lo=false: its queue is already physical.
    if (const std::string *lo = request.extFields.find("lo"); lo && *lo == "false")
        return queue;
    queue.detail_ = mappings.find(topic);
    if (!queue.detail_)
        return queue;
    if (queue.globalId_ < 0 && selectOneWhenMiss && !queue.detail_->hostedQueues.empty())
        queue.globalId_ = queue.detail_->hostedQueues.begin()->first;
    if (const common::LogicQueueMappingItems *items = queue.detail_->items(queue.globalId_))
        queue.items_ = *items;
    return queue;
}

bool StaticQueue::isLeader() const
{
    return detail_ && !items_.empty() && items_.back().bname == detail_->bname;
}

const LogicQueueMappingItem *StaticQueue::itemHolding(int64_t logicalOffset) const
{
    return common::findMappingItem(items_, logicalOffset);
}

std::string StaticQueue::noItemRemark() const
{
    return "static topic " + topic_ + " logical queue " + std::to_string(globalId_)
           + ": no item has a decided logical offset yet";
}

std::string StaticQueue::notLeaderRemark() const
{
    return topic_ + "-" + std::to_string(globalId_) + " does not exit in request process of current broker "
           + (detail_ ? detail_->bname : std::string());
}

remoting::InvokeResult askItemBroker(BrokerController &broker, const StaticQueue &queue,
                                     const LogicQueueMappingItem &item, int32_t code, remoting::ExtFields fields)
{
    fields.set("topic", queue.detail().topic);
    fields.set("queueId", std::to_string(item.queueId));
    fields.set("lo", "false");
    fields.set("bname", item.bname);
    return broker.forwardToBroker(queue.detail().topic, item.bname,
                                  remoting::RemotingCommand::createRequest(code, std::move(fields)));
}

StaticPullAnswer staticPullAnswer(const StaticQueue &queue, const LogicQueueMappingItem &readItem,
                                  int64_t physicalOffset, int32_t code, int64_t next, int64_t min, int64_t max)
{
    const common::LogicQueueMappingItems &items = queue.items();
    const LogicQueueMappingItem &leader = queue.leader();
    const LogicQueueMappingItem *earliest = common::findMappingItem(items, 0);
    const LogicQueueMappingItem *current = &readItem;
    int32_t answered = code;
    // Moves the read on to the item after `current`: the client retries there at once.
    const auto moveToNextItem = [&] {
        if (const LogicQueueMappingItem *following = common::nextMappingItem(items, *current)) {
            current = following;
            next = min = max = current->startOffset;
            answered = ResponseCode::kPullRetryImmediately;
            return true;
        }
        answered = ResponseCode::kPullNotFound; // the next item's logical offset is not decided yet
        return false;
    };
    if (code != ResponseCode::kSuccess) {
        bool revised = false;
        if (leader.gen == current->gen) {
            if (physicalOffset > max) {
                if (code == ResponseCode::kPullOffsetMoved)
                    next = max;
            } else if (physicalOffset < min) {
                next = min;
                answered = ResponseCode::kPullRetryImmediately;
            }
        }
        if (earliest && earliest->gen == current->gen) {
            if (physicalOffset < min) {
                answered = ResponseCode::kPullOffsetMoved;
                next = min;
            } else if (physicalOffset >= max) {
                revised = moveToNextItem();
            } else {
                answered = code;
            }
        }
        if (!revised && leader.gen != current->gen && (!earliest || earliest->gen != current->gen)) {
            if (physicalOffset < min) {
                next = min;
                answered = ResponseCode::kPullRetryImmediately;
            } else if (physicalOffset >= max) {
                moveToNextItem();
            } else {
                answered = code;
            }
        }
    }
    // The next offset never passes the item's end.
    if (current->endOffsetDecided() && next >= current->endOffset)
        next = current->endOffset;
    StaticPullAnswer answer;
    answer.code = answered;
    answer.nextBeginOffset = current->staticOffsetStrictly(next);
    answer.minOffset = current->staticOffsetStrictly(std::max(current->startOffset, min));
    answer.maxOffset = std::max(current->staticOffsetStrictly(max), queue.detail().maxOffsetFromMapping(queue.globalId()));
    answer.offsetDelta = current->offsetDelta();
    return answer;
}

} // namespace mqdesk::server
