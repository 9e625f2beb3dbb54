// ReceiveMessage (grpc-proxy spec §3.7): one POP_MESSAGE over every read queue of the topic and
// the group's retry topic (queue id -1, whatever the client named), long-polled by the broker,
// then the proxy's post-filter (tag mismatches acked, messages past their attempts moved to the
// group's DLQ) and the stream: status, the messages, the delivery timestamp, OK.

#include "broker/common/clock.h"
#include "broker/common/java_strings.h"
#include "broker/common/message_properties.h"
#include "broker/common/record_codec.h"
#include "broker/grpc/message_codec.h"
#include "broker/grpc/messaging_service.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/pop/pop_records.h"
#include "broker/store/config/subscription_group_manager.h"

#include <spdlog/spdlog.h>

#include <deque>
#include <map>
#include <span>
#include <mutex>

namespace mqdesk::grpc {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;
using server::pop::ExtraInfo;

namespace {

constexpr int64_t kMinInvisibleMillis = 10'000;
constexpr int32_t kMaxBatch = 32;
// What the stream keeps between the end of the poll and the client's deadline.
constexpr int64_t kDeadlineMarginMillis = 500;
constexpr std::chrono::milliseconds kAckTimeout{3000};

// "<retry> <queueId> <value>;..." keyed by "<retry> <queueId>"; and FIFO's "<retry> qo<q>%<offset> <n>".
std::map<std::string, int64_t> parseOffsetInfo(const std::string &info)
{
    std::map<std::string, int64_t> out;
    size_t start = 0;
    while (start <= info.size()) {
        size_t end = info.find(';', start);
        if (end == std::string::npos)
            end = info.size();
        const std::string part = info.substr(start, end - start);
        const size_t last = part.rfind(' ');
        if (last != std::string::npos) {
            try {
                out[part.substr(0, last)] = std::stoll(part.substr(last + 1));
            } catch (...) {
            }
        }
        start = end + 1;
    }
    return out;
}

class ReceiveReactor final : public ::grpc::ServerWriteReactor<v2::ReceiveMessageResponse>
{
public:
    ReceiveReactor(MessagingService &service, ::grpc::CallbackServerContext *context,
                   const v2::ReceiveMessageRequest *request)
        : service_(service)
        , request_(*request)
    {
        start(context);
    }

    void OnWriteDone(bool ok) override
    {
        std::unique_lock lock(mutex_);
        writing_ = false;
        if (!ok) {
            failed_ = true;
            queue_.clear();
            // Writes go status, messages, timestamp: the first writesDone_ - 1 messages arrived.
            const size_t delivered = writesDone_ == 0 ? 0 : std::min(handles_.size(), writesDone_ - 1);
            lock.unlock();
            nackUndelivered(delivered);
            Finish(::grpc::Status::OK);
            return;
        }
        ++writesDone_;
        writeNextLocked(lock);
    }

    void OnCancel() override {}
    void OnDone() override { delete this; }

private:
    void start(::grpc::CallbackServerContext *context)
    {
        v2::Status refusal;
        client_ = service_.admit(context, &request_, refusal);
        if (!client_)
            return finishWith(std::move(refusal));
        // A receive may overtake the client's first Settings (they come on the telemetry stream,
        // another HTTP/2 stream; the Python SDK receives right after its startup). What a
        // consumer's Settings decide here comes from its group's config anyway, so until they
        // arrive the group's config decides alone.
        std::optional<v2::Settings> settings = client_->settings();
        if (!settings) {
            settings.emplace();
            mergeConsumerSettings(*settings,
                                  service_.broker().subscriptionGroups().findSubscriptionGroupConfig(request_.group().name()),
                                  service_.config().consumerLongPollingMillis);
        }
        fifo_ = settings->has_subscription() && settings->subscription().fifo();
        maxAttempts_ = settings->has_backoff_policy() ? settings->backoff_policy().max_attempts() : 17;

        // The poll: what the client asked, else its deadline less half its request timeout,
        // within [5 s, 20 s] (the grpcClientConsumer*LongPollingTimeoutMillis keys), and ending
        // before the deadline (spec §3.7 step 2; §7.4 #5).
        const auto now = std::chrono::system_clock::now();
        const int64_t remaining =
            std::chrono::duration_cast<std::chrono::milliseconds>(context->deadline() - now).count();
        const int64_t requestTimeout =
            settings->has_request_timeout() ? toMillis(settings->request_timeout()) : 3000;
        int64_t poll = request_.has_long_polling_timeout() ? toMillis(request_.long_polling_timeout())
                                                           : remaining - requestTimeout / 2;
        const int64_t minPoll = service_.config().minLongPollingMillis;
        poll = std::clamp(poll, minPoll, service_.config().consumerLongPollingMillis);
        if (poll > remaining - kDeadlineMarginMillis) {
            if (remaining - kDeadlineMarginMillis < minPoll)
                return finishWith(makeStatus(v2::Code::ILLEGAL_POLLING_TIME,
                                             "the call's deadline leaves " + std::to_string(remaining) + " ms, less than the "
                                                 + std::to_string(minPoll) + " ms a receive may poll"));
            poll = remaining - kDeadlineMarginMillis;
        }

        const std::string &topic = request_.message_queue().topic().name();
        const std::string &group = request_.group().name();
        if (v2::Status status = checkTopicName(topic); !isOk(status))
            return finishWith(std::move(status));
        if (v2::Status status = checkGroupName(group); !isOk(status))
            return finishWith(std::move(status));

        // A PushConsumer (auto_renew) leaves the time to us: the proxy's defaultInvisibleTimeMills, renewed.
        int64_t invisible = std::max<int64_t>(service_.broker().brokerConfig().defaultInvisibleTimeMills, 1000);
        if (!request_.auto_renew()) {
            invisible = request_.has_invisible_duration() ? toMillis(request_.invisible_duration()) : 0;
            if (invisible < kMinInvisibleMillis || invisible > kMaxInvisibleMillis)
                return finishWith(makeStatus(v2::Code::ILLEGAL_INVISIBLE_TIME,
                                             "invisible duration " + std::to_string(invisible)
                                                 + " ms is outside [10 s, 12 h]"));
        }

        const v2::FilterExpression &filter = request_.filter_expression();
        const bool sql = filter.type() == v2::FilterType::SQL;
        const std::string expression = filter.expression().empty() ? remoting::kSubscribeAll : filter.expression();
        subscription_ = remoting::SubscriptionData::build(topic, expression,
                                                          sql ? remoting::kExpressionSql92 : remoting::kExpressionTag);

        const auto groupConfig = service_.broker().subscriptionGroups().findSubscriptionGroupConfig(group);
        lite_ = groupConfig && groupConfig->attributes.find(remoting::kLiteBindTopicAttribute) != nullptr;
        if (lite_) {
            // A lite group reads the lite topics its client subscribed (spec §7.1): POP_LITE_MESSAGE.
            RemotingCommand pop = service_.newRequest(*client_, RequestCode::kPopLiteMessage);
            remoting::setField(pop.extFields, "clientId", client_->clientId());
            remoting::setField(pop.extFields, "consumerGroup", group);
            remoting::setField(pop.extFields, "topic", topic);
            remoting::setField(pop.extFields, "maxMsgNum", std::clamp(request_.batch_size(), 1, kMaxBatch));
            remoting::setField(pop.extFields, "invisibleTime", invisible);
            remoting::setField(pop.extFields, "pollTime", poll);
            remoting::setField(pop.extFields, "bornTime", common::wallMillis());
            if (request_.has_attempt_id())
                remoting::setField(pop.extFields, "attemptId", request_.attempt_id());
            service_.callBroker(*client_, std::move(pop), std::chrono::milliseconds(poll + 2000),
                                [this](RemotingCommand response) { onPopped(std::move(response)); });
            return;
        }
        RemotingCommand pop = service_.newRequest(*client_, RequestCode::kPopMessage);
        remoting::setField(pop.extFields, "consumerGroup", group);
        remoting::setField(pop.extFields, "topic", topic);
        remoting::setField(pop.extFields, "queueId", int32_t{-1});
        remoting::setField(pop.extFields, "maxMsgNums", std::clamp(request_.batch_size(), 1, kMaxBatch));
        remoting::setField(pop.extFields, "invisibleTime", invisible);
        remoting::setField(pop.extFields, "pollTime", poll);
        remoting::setField(pop.extFields, "bornTime", common::wallMillis());
        remoting::setField(pop.extFields, "initMode", int32_t{1}); // ConsumeInitMode.MAX
        remoting::setField(pop.extFields, "expType", sql ? remoting::kExpressionSql92 : remoting::kExpressionTag);
        remoting::setField(pop.extFields, "exp", expression);
        remoting::setField(pop.extFields, "order", fifo_);
        if (request_.has_attempt_id())
            remoting::setField(pop.extFields, "attemptId", request_.attempt_id());
        service_.callBroker(*client_, std::move(pop), std::chrono::milliseconds(poll + 2000),
                            [this](RemotingCommand response) { onPopped(std::move(response)); });
    }

    void onPopped(RemotingCommand response)
    {
        if (response.code != ResponseCode::kSuccess)
            return finishWith(statusOfResponse(response, v2::Code::INTERNAL_SERVER_ERROR));
        remoting::HeaderReader header(response.extFields);
        ExtraInfo base;
        base.popTime = header.optInt64("popTime", common::wallMillis());
        base.invisibleTime = header.optInt64("invisibleTime", 0);
        base.reviveQid = header.optInt32("reviveQid", 0);
        base.brokerName = service_.broker().brokerConfig().brokerName;
        const std::map<std::string, int64_t> startOffsets = parseOffsetInfo(header.optString("startOffsetInfo"));
        const std::map<std::string, int64_t> orderCounts = parseOffsetInfo(header.optString("orderCountInfo"));
        // A lite pop's counts: one per message, in body order.
        std::vector<int64_t> liteCounts;
        const std::string liteCountInfo = lite_ ? header.optString("orderCountInfo") : std::string();
        if (lite_) {
            for (const std::string_view count : common::javaSplit(liteCountInfo, ';'))
                liteCounts.push_back(remoting::parseJavaLong(std::string(count)).value_or(0));
        }

        const std::string &topic = request_.message_queue().topic().name();
        const std::string &group = request_.group().name();
        std::vector<v2::Message> out;
        size_t skipped = 0; // records acked or moved to the DLQ instead of delivered
        std::span<const uint8_t> rest(response.body);
        while (!rest.empty()) {
            const common::DecodeResult decoded = common::decodeRecord(rest);
            if (decoded.status != common::DecodeStatus::Ok || decoded.size <= 0) {
                spdlog::warn("grpc: a popped record of {} does not decode: {}", topic, decoded.error);
                break;
            }
            rest = rest.subspan(static_cast<size_t>(decoded.size));
            common::StoredMessage message = decoded.record.materialize();
            ExtraInfo info = base;
            int32_t attempt = message.reconsumeTimes + 1;
            if (lite_) {
                // The parent's record; its place in the lite topic is its LMQ offset, which the
                // handle and queue_offset carry (the proxy's handle: queue 0, FIFO reviveQid).
                const auto lmqOffset = remoting::parseJavaLong(
                    std::string(message.properties.get(common::property::kInnerMultiQueueOffset).value_or("")));
                if (!lmqOffset) {
                    spdlog::warn("grpc: a lite message of {} has no LMQ offset; skipped", topic);
                    continue;
                }
                message.queueOffset = *lmqOffset;
                info.retry = "0";
                info.queueId = 0;
                info.ckStartOffset = *lmqOffset;
                info.queueOffset = *lmqOffset;
                const size_t index = out.size() + skipped;
                attempt = static_cast<int32_t>(index < liteCounts.size() ? liteCounts[index] : 0) + 1;
            } else if (auto ck = message.properties.get(property5::kPopCk)) {
                std::string error;
                if (auto parsed = ExtraInfo::parse(*ck, error))
                    info = *parsed;
            } else {
                info.retry = "0";
                info.queueId = message.queueId;
                info.queueOffset = message.queueOffset;
                const auto start = startOffsets.find("0 " + std::to_string(message.queueId));
                info.ckStartOffset = start != startOffsets.end() ? start->second : message.queueOffset;
            }
            info.commitLogOffset = message.physicalOffset;
            if (fifo_ && !lite_) {
                const auto count = orderCounts.find(info.retry + " qo" + std::to_string(info.queueId) + "%"
                                                    + std::to_string(info.queueOffset));
                if (count != orderCounts.end())
                    attempt = static_cast<int32_t>(count->second) + 1;
            }
            const std::string handle = info.toString();
            // The proxy's post-filter: what the subscription does not want is acked away; what
            // has used its attempts goes to the DLQ.
            if (subscription_.isTagType() && !subscription_.subscribesAll()
                && !subscription_.tagsSet.count(message.tags())) {
                ackQuietly(group, topic, info, handle);
                ++skipped;
                continue;
            }
            // Past its attempts, to the DLQ (a lite group's too: its FIFO is per lite topic, and
            // the DLQ's ack moves that lite topic on).
            if ((!fifo_ || lite_) && maxAttempts_ > 0 && attempt > maxAttempts_) {
                forwardToDeadLetter(group, topic, info, handle, message);
                ++skipped;
                continue;
            }
            out.push_back(toProtoMessage(message, topic, handle, attempt));
            handles_.push_back(info);
            if (request_.auto_renew())
                service_.keepReceipt(*client_, group, topic, out.back().system_properties().message_id(), handle,
                                     info.popTime + info.invisibleTime);
        }
        if (out.empty())
            return finishWith(makeStatus(v2::Code::MESSAGE_NOT_FOUND, "no new message"));
        std::unique_lock lock(mutex_);
        v2::ReceiveMessageResponse status;
        *status.mutable_status() = makeStatus(v2::Code::OK);
        queue_.push_back(std::move(status));
        for (v2::Message &message : out) {
            v2::ReceiveMessageResponse item;
            *item.mutable_message() = std::move(message);
            queue_.push_back(std::move(item));
        }
        pushTimestampLocked();
        writeNextLocked(lock);
    }

    void finishWith(v2::Status status)
    {
        std::unique_lock lock(mutex_);
        v2::ReceiveMessageResponse item;
        *item.mutable_status() = std::move(status);
        queue_.push_back(std::move(item));
        pushTimestampLocked();
        writeNextLocked(lock);
    }

    void pushTimestampLocked()
    {
        v2::ReceiveMessageResponse item;
        setMillis(item.mutable_delivery_timestamp(), common::wallMillis());
        queue_.push_back(std::move(item));
        finishAfterQueue_ = true;
    }

    // One write at a time (the callback API allows no more); Finish once the queue is drained.
    void writeNextLocked(std::unique_lock<std::mutex> &lock)
    {
        if (writing_ || failed_)
            return;
        if (queue_.empty()) {
            if (finishAfterQueue_ && !finished_) {
                finished_ = true;
                lock.unlock();
                Finish(::grpc::Status::OK);
            }
            return;
        }
        current_ = std::move(queue_.front());
        queue_.pop_front();
        writing_ = true;
        lock.unlock();
        StartWrite(&current_);
    }

    void ackQuietly(const std::string &group, const std::string &topic, const ExtraInfo &info, const std::string &handle)
    {
        RemotingCommand ack = service_.handleRequest(*client_, RequestCode::kAckMessage, group, topic, info, handle);
        service_.callBroker(*client_, std::move(ack), kAckTimeout, [](RemotingCommand) {});
    }

    void forwardToDeadLetter(const std::string &group, const std::string &topic, const ExtraInfo &info,
                             const std::string &handle, const common::StoredMessage &message)
    {
        RemotingCommand sendBack = service_.newRequest(*client_, RequestCode::kConsumerSendMsgBack);
        remoting::setField(sendBack.extFields, "offset", message.physicalOffset);
        remoting::setField(sendBack.extFields, "group", group);
        remoting::setField(sendBack.extFields, "delayLevel", int32_t{-1});
        remoting::setField(sendBack.extFields, "originMsgId",
                           std::string(message.properties.get(common::property::kUniqClientMessageId).value_or("")));
        remoting::setField(sendBack.extFields, "originTopic", topic);
        remoting::setField(sendBack.extFields, "maxReconsumeTimes", maxAttempts_ - 1);
        std::shared_ptr<GrpcClient> client = client_;
        MessagingService &service = service_;
        service_.callBroker(*client_, std::move(sendBack), kAckTimeout,
                            [&service, client, group, topic, info, handle](RemotingCommand answer) {
                                if (answer.code != ResponseCode::kSuccess) {
                                    spdlog::warn("grpc: moving a message of {} to %DLQ%{} failed: {}", topic, group,
                                                 answer.remark.value_or(""));
                                    return;
                                }
                                RemotingCommand ack = service.handleRequest(*client, RequestCode::kAckMessage, group, topic, info, handle);
                                service.callBroker(*client, std::move(ack), kAckTimeout, [](RemotingCommand) {});
                            });
    }

    // A stream that broke mid-way: what it did not deliver becomes visible again in 1 s.
    void nackUndelivered(size_t delivered)
    {
        const std::string &topic = request_.message_queue().topic().name();
        const std::string &group = request_.group().name();
        for (size_t i = delivered; i < handles_.size(); ++i) {
            const ExtraInfo &info = handles_[i];
            RemotingCommand change = service_.handleRequest(*client_, RequestCode::kChangeMessageInvisibleTime, group, topic, info, info.toString());
            remoting::setField(change.extFields, "invisibleTime", int64_t{1000});
            service_.callBroker(*client_, std::move(change), kAckTimeout, [](RemotingCommand) {});
        }
    }

    MessagingService &service_;
    const v2::ReceiveMessageRequest request_;
    std::shared_ptr<GrpcClient> client_;
    bool fifo_ = false;
    bool lite_ = false; // the group is a lite group (lite.bind.topic)
    int32_t maxAttempts_ = 17;
    remoting::SubscriptionData subscription_;

    std::mutex mutex_;
    std::deque<v2::ReceiveMessageResponse> queue_; // guarded by mutex_
    v2::ReceiveMessageResponse current_;           // the write in flight
    bool writing_ = false;                         // guarded by mutex_
    bool failed_ = false;                          // guarded by mutex_
    bool finishAfterQueue_ = false;                // guarded by mutex_
    bool finished_ = false;                        // guarded by mutex_
    std::vector<ExtraInfo> handles_; // the messages' handles, in stream order; set before writing
    size_t writesDone_ = 0;          // guarded by mutex_
};

} // namespace

::grpc::ServerWriteReactor<v2::ReceiveMessageResponse> *MessagingService::ReceiveMessage(
    ::grpc::CallbackServerContext *context, const v2::ReceiveMessageRequest *request)
{
    return new ReceiveReactor(*this, context, request);
}

} // namespace mqdesk::grpc
