#include "broker/client/message_browse.h"

#include "broker/client/route_util.h"

#include <algorithm>

namespace mqdesk::client {

Result<BrowseCursor> openBrowse(AdminClient &admin, const std::string &topic, const BrowseStart &start)
{
    if (topic.empty())
        return Status::failure(clientCode::kIllegalArgument, "browse: no topic");
    if (!start.timestamp && start.offset < 0)
        return Status::failure(clientCode::kIllegalArgument, "browse: negative offset " + std::to_string(start.offset));
    Result<remoting::TopicRouteData> route = admin.api().getTopicRoute(topic);
    if (!route.ok)
        return route.status();
    BrowseCursor cursor;
    for (const MessageQueue &queue : subscribeQueues(topic, route.value)) {
        if (start.queueId >= 0 && queue.queueId != start.queueId)
            continue;
        BrowseCursor::Queue entry;
        entry.queue = queue;
        entry.brokerAddr = masterAddress(route.value, queue.brokerName);
        if (entry.brokerAddr.empty())
            continue;
        Result<int64_t> minOffset = admin.api().getMinOffset(entry.brokerAddr, topic, queue.queueId);
        if (!minOffset.ok)
            return minOffset.status();
        Result<int64_t> maxOffset = admin.api().getMaxOffset(entry.brokerAddr, topic, queue.queueId);
        if (!maxOffset.ok)
            return maxOffset.status();
        entry.minOffset = minOffset.value;
        entry.maxOffset = maxOffset.value;
        if (start.timestamp) {
            Result<int64_t> found =
                admin.api().searchOffsetByTimestamp(entry.brokerAddr, topic, queue.queueId, *start.timestamp);
            if (!found.ok)
                return found.status();
            entry.nextOffset = found.value;
        } else {
            entry.nextOffset = start.offset;
        }
        entry.nextOffset = std::max(entry.nextOffset, entry.minOffset);
        cursor.queues.push_back(std::move(entry));
    }
    if (cursor.queues.empty())
        return Status::failure(clientCode::kNoRoute, start.queueId >= 0 ? "topic " + topic + " has no readable queue "
                                                                              + std::to_string(start.queueId)
                                                                        : "topic " + topic + " has no readable queue");
    return cursor;
}

Result<std::vector<common::StoredMessage>> browseNext(AdminClient &admin, BrowseCursor &cursor, int32_t maxMessages)
{
    std::vector<common::StoredMessage> out;
    // Each round reads or skips at least one entry, or finishes a queue; the cap guards a broker
    // that keeps answering without progress.
    for (int round = 0; !cursor.atEnd() && static_cast<int32_t>(out.size()) < maxMessages && round < 64; ++round) {
        BrowseCursor::Queue &queue = cursor.queues[cursor.current];
        const int32_t want = std::min<int32_t>(kMaxPullBatch, maxMessages - static_cast<int32_t>(out.size()));
        Result<PullResult> pulled = admin.api().pullMessage(queue.brokerAddr, PullMessageHeader::toolsPull(queue.queue, queue.nextOffset, want));
        if (!pulled.ok)
            return pulled.status();
        const PullResult &result = pulled.value;
        const bool progress = result.nextBeginOffset > queue.nextOffset;
        if (result.status == PullStatus::Found && progress) {
            for (common::StoredMessage &message : pulled.value.messages)
                out.push_back(std::move(message));
            queue.nextOffset = result.nextBeginOffset;
            continue;
        }
        if ((result.status == PullStatus::OffsetIllegal || result.status == PullStatus::NoMatchedMsg) && progress) {
            queue.nextOffset = result.nextBeginOffset; // below the minimum, or entries filtered out
            continue;
        }
        queue.done = true; // caught up (or no progress): the next queue
        ++cursor.current;
    }
    return out;
}

} // namespace mqdesk::client
