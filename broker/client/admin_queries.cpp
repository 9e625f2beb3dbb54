// AdminClient's message lookups (remoting spec §8): by offset message id, by message id of
// either kind, by key, by UNIQ_KEY, by queue offset and by store-time range. Each one is bounded
// by the broker's index answer or by an explicit count: nothing here walks a whole queue.

#include "broker/client/admin_client.h"

#include "broker/client/route_util.h"
#include "broker/common/message_id.h"
#include "broker/remoting/remoting_codes.h"

#include <algorithm>

namespace mqdesk::client {

using remoting::ResponseCode;

namespace {

// The index's time resolution (its entries store whole seconds).
constexpr int64_t kIndexTimeSlackMillis = 1000;

Status notFound(std::string what) { return Status::failure(ResponseCode::kQueryNotFound, std::move(what)); }

} // namespace

Result<common::StoredMessage> AdminClient::viewMessage(const std::string &offsetMsgId, const std::string &topic)
{
    const std::optional<common::OffsetMessageId> id = common::decodeOffsetMessageId(offsetMsgId);
    if (!id)
        return Status::failure(clientCode::kIllegalArgument,
                               "not an offset message id (32 or 56 hex digits): " + offsetMsgId);
    return api_->viewMessage(id->storeHost.toString(), id->commitLogOffset, topic);
}

Result<common::StoredMessage> AdminClient::queryMessageById(const std::string &topic, const std::string &msgId)
{
    Result<common::StoredMessage> byUniqKey = queryMessageByUniqKey(topic, msgId);
    if (byUniqKey.ok || !common::decodeOffsetMessageId(msgId))
        return byUniqKey;
    Result<common::StoredMessage> byOffsetId = viewMessage(msgId, topic);
    if (byOffsetId.ok && byOffsetId.value.topic == topic)
        return byOffsetId;
    return notFound("no message with id " + msgId + " in topic " + topic);
}

Result<std::vector<common::StoredMessage>> AdminClient::queryMessageByKey(const std::string &topic,
                                                                          const std::string &key, int32_t maxNum,
                                                                          int64_t beginTimestamp, int64_t endTimestamp)
{
    if (maxNum <= 0 || key.empty() || beginTimestamp > endTimestamp)
        return Status::failure(clientCode::kIllegalArgument, "query by key: key '" + key + "', maxNum "
                                                                 + std::to_string(maxNum) + ", time range "
                                                                 + std::to_string(beginTimestamp) + ".."
                                                                 + std::to_string(endTimestamp));
    Result<std::vector<std::string>> masters = topicMasters(topic);
    if (!masters.ok)
        return masters.status();
    // Index entries keep store times in whole seconds after their file's start (store-format
    // §6), so the broker's range test is a second coarse: ask for a second more on both sides
    // and apply the exact range to the records' store times here.
    const int64_t indexBegin = beginTimestamp > kIndexTimeSlackMillis ? beginTimestamp - kIndexTimeSlackMillis : 0;
    const int64_t indexEnd =
        endTimestamp < INT64_MAX - kIndexTimeSlackMillis ? endTimestamp + kIndexTimeSlackMillis : INT64_MAX;
    std::vector<common::StoredMessage> found;
    for (const std::string &addr : masters.value) {
        if (found.size() >= static_cast<size_t>(maxNum))
            break;
        Result<std::vector<common::StoredMessage>> messages =
            api_->queryMessage(addr, topic, key, maxNum, indexBegin, indexEnd);
        if (!messages.ok) {
            if (messages.code == ResponseCode::kQueryNotFound)
                continue;
            return messages.status();
        }
        // The index matches key hashes (and a UNIQ_KEY equal to the key): keep exact KEYS tokens.
        for (common::StoredMessage &message : messages.value) {
            const std::vector<std::string_view> keys = message.properties.keys();
            if (message.topic == topic && std::find(keys.begin(), keys.end(), key) != keys.end()
                && message.storeTimestamp >= beginTimestamp && message.storeTimestamp <= endTimestamp
                && found.size() < static_cast<size_t>(maxNum))
                found.push_back(std::move(message));
        }
    }
    return found;
}

Result<common::StoredMessage> AdminClient::queryMessageByUniqKey(const std::string &topic, const std::string &uniqKey)
{
    if (uniqKey.empty())
        return Status::failure(clientCode::kIllegalArgument, "query by UNIQ_KEY: empty key");
    Result<std::vector<std::string>> masters = topicMasters(topic);
    if (!masters.ok)
        return masters.status();
    Status firstError;
    for (const std::string &addr : masters.value) {
        Result<std::vector<common::StoredMessage>> messages =
            api_->queryMessage(addr, topic, uniqKey, 32, 0, INT64_MAX, true);
        if (!messages.ok) {
            // One unreachable broker must not hide the message on another; reported if none has it.
            if (messages.code != ResponseCode::kQueryNotFound && firstError.ok)
                firstError = messages.status();
            continue;
        }
        for (common::StoredMessage &message : messages.value)
            if (message.topic == topic && message.properties.get(common::property::kUniqClientMessageId) == uniqKey)
                return std::move(message);
    }
    if (!firstError.ok)
        return firstError;
    return notFound("no message with UNIQ_KEY " + uniqKey + " in topic " + topic);
}

Result<common::StoredMessage> AdminClient::queryMessageByOffset(const MessageQueue &queue, int64_t offset)
{
    if (offset < 0)
        return Status::failure(clientCode::kIllegalArgument, "negative queue offset " + std::to_string(offset));
    Result<remoting::TopicRouteData> route = api_->getTopicRoute(queue.topic);
    if (!route.ok)
        return route.status();
    const std::string addr = masterAddress(route.value, queue.brokerName);
    if (addr.empty())
        return Status::failure(clientCode::kNoRoute, "no master for " + queue.toString());
    Result<PullResult> pulled = api_->pullMessage(addr, PullMessageHeader::toolsPull(queue, offset, 1));
    if (!pulled.ok)
        return pulled.status();
    for (common::StoredMessage &message : pulled.value.messages)
        if (message.queueOffset == offset)
            return std::move(message);
    return notFound("no message at offset " + std::to_string(offset) + " of " + queue.toString() + " ("
                    + std::string(pullStatusName(pulled.value.status)) + ", queue holds "
                    + std::to_string(pulled.value.minOffset) + ".." + std::to_string(pulled.value.maxOffset) + ")");
}

Result<AdminClient::MessagesByTime> AdminClient::queryMessagesByTime(const std::string &topic, int64_t beginTimestamp,
                                                                     int64_t endTimestamp, int32_t maxPerQueue)
{
    if (maxPerQueue <= 0 || beginTimestamp > endTimestamp)
        return Status::failure(clientCode::kIllegalArgument, "query by time: maxPerQueue " + std::to_string(maxPerQueue)
                                                                 + ", time range " + std::to_string(beginTimestamp)
                                                                 + ".." + std::to_string(endTimestamp));
    Result<remoting::TopicRouteData> route = api_->getTopicRoute(topic);
    if (!route.ok)
        return route.status();
    MessagesByTime out;
    for (const MessageQueue &queue : subscribeQueues(topic, route.value)) {
        const std::string addr = masterAddress(route.value, queue.brokerName);
        if (addr.empty())
            continue;
        Result<int64_t> first = api_->searchOffsetByTimestamp(addr, topic, queue.queueId, beginTimestamp);
        if (!first.ok)
            return first.status();
        Result<int64_t> last = endTimestamp == INT64_MAX
                                   ? api_->getMaxOffset(addr, topic, queue.queueId)
                                   : api_->searchOffsetByTimestamp(addr, topic, queue.queueId, endTimestamp + 1);
        if (!last.ok)
            return last.status();
        // Java brokers answer the nearest offset, not the first at-or-after: one entry of slack
        // on each side, dropped by the store-time filter, keeps the edges exact everywhere.
        int64_t offset = std::max<int64_t>(0, first.value - 1);
        const int64_t stop = last.value + 1;
        int32_t taken = 0;
        bool done = false;
        // Each round reads at least one entry or ends; the round cap only guards a broker that
        // keeps answering without progress.
        for (int round = 0; !done && offset < stop && round < maxPerQueue + 8; ++round) {
            const int64_t want = std::min<int64_t>({kMaxPullBatch, stop - offset, int64_t{maxPerQueue} - taken + 2});
            Result<PullResult> pulled = api_->pullMessage(addr, PullMessageHeader::toolsPull(queue, offset, static_cast<int32_t>(want)));
            if (!pulled.ok)
                return pulled.status();
            const PullResult &result = pulled.value;
            if (result.status == PullStatus::OffsetIllegal && result.nextBeginOffset > offset) {
                offset = result.nextBeginOffset; // below the queue's minimum: start at it
                continue;
            }
            if (result.status != PullStatus::Found || result.nextBeginOffset <= offset)
                break;
            for (const common::StoredMessage &message : result.messages) {
                if (message.queueOffset >= stop || message.storeTimestamp > endTimestamp) {
                    done = true;
                    break;
                }
                if (message.storeTimestamp < beginTimestamp)
                    continue;
                if (taken == maxPerQueue) {
                    out.truncated.push_back(queue);
                    done = true;
                    break;
                }
                out.messages.push_back(message);
                ++taken;
            }
            offset = result.nextBeginOffset;
        }
    }
    return out;
}

Result<MessageTrace> AdminClient::queryMessageTrace(const std::string &msgId, const std::string &traceTopic)
{
    // A client traces each message in one or two trace messages (its send, each consume); 256
    // leaves room for many redeliveries and consumer groups while bounding the answer.
    constexpr int32_t kMaxTraceMessages = 256;
    Result<std::vector<common::StoredMessage>> found = queryMessageByKey(traceTopic, msgId, kMaxTraceMessages);
    if (!found.ok) {
        if (found.code == ResponseCode::kTopicNotExist || found.code == clientCode::kNoRoute)
            return MessageTrace{};
        return found.status();
    }
    std::vector<TraceEvent> events;
    for (const common::StoredMessage &message : found.value) {
        std::vector<TraceEvent> decoded =
            decodeTraceData(std::string_view(reinterpret_cast<const char *>(message.body.data()), message.body.size()));
        events.insert(events.end(), std::make_move_iterator(decoded.begin()), std::make_move_iterator(decoded.end()));
    }
    return assembleMessageTrace(events, msgId);
}

} // namespace mqdesk::client
