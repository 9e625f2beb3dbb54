#include "broker/server/send_message_processor.h"

#include "broker/common/bytes.h"
#include "broker/common/clock.h"
#include "broker/common/host_address.h"
#include "broker/common/message_batch.h"
#include "broker/common/message.h"
#include "broker/common/message_id.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/broker_stats.h"
#include "broker/server/recall_message_processor.h"
#include "broker/server/send_header.h"
#include "broker/server/send_msg_back_processor.h"
#include "broker/server/static_topic_queue.h"
#include "broker/server/topic_manager.h"
#include "broker/server/transaction_service.h"
#include "broker/store/message_store.h"
#include "broker/store/store_paths.h"

#include <algorithm>
#include <charconv>

namespace mqdesk::server {

using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;

namespace {

// Spec §4.1 step 4 (Java's handleRetryAndDLQ): a send to %RETRY%<group> needs the group, and a
// message whose retries are used up goes to %DLQ%<group> instead, with DELAY=-1 stored so it is
// never scheduled. Returns the response code to fail with, or SUCCESS with `topic` / `queueId`
// possibly redirected and `deadLetter` set.
int32_t handleRetryAndDlq(BrokerController &broker, const SendHeader &header, int32_t requestVersion,
                          std::string &topic, int32_t &queueId, bool &deadLetter, std::string &remark)
{
    deadLetter = false;
    if (!header.topic.starts_with(kRetryGroupTopicPrefix))
        return ResponseCode::kSuccess;
    const std::string group = header.topic.substr(std::string_view(kRetryGroupTopicPrefix).size());
    const auto groupConfig = findOrCreateSubscriptionGroup(broker, group);
    if (!groupConfig) {
        remark = "subscription group not exist, " + group;
        return ResponseCode::kSubscriptionGroupNotExist;
    }
    if (header.reconsumeTimes < maxReconsumeTimesOf(*groupConfig, requestVersion, header.maxReconsumeTimes))
        return ResponseCode::kSuccess;
    const std::string dlq = kDlqGroupTopicPrefix + group;
    if (!broker.topics().createTopicIfAbsent(dlq, 1, store::perm::kRead | store::perm::kWrite)) {
        remark = "topic[" + dlq + "] not exist";
        return ResponseCode::kSystemError;
    }
    topic = dlq;
    queueId = 0;
    deadLetter = true;
    return ResponseCode::kSuccess;
}

// RocketMQ 5.5 lite topics (Java's sendMessage): a single message's __LITE_TOPIC names the LMQ
// the store also enters it in, %LMQ%$<topic>$<lite>, in place of any INNER_MULTI_DISPATCH it
// came with (the store numbers and dispatches it when enableLmq and enableMultiDispatch are on).
// Answers why a lite topic cannot name a queue ('$' would end its part of the name; '/', "..",
// control characters or a name too long cannot be a consume-queue directory), "" when it can:
// Java stores such a message and silently leaves it out of every LMQ.
std::string enterLiteTopic(common::MessageProperties &properties, const std::string &topic)
{
    const auto liteTopic = properties.get(common::property::kLiteTopic);
    if (!liteTopic || liteTopic->empty())
        return {};
    const std::string lmq = std::string(common::kLmqPrefix) + "$" + topic + "$" + std::string(*liteTopic);
    if (liteTopic->find('$') != std::string_view::npos)
        return "lite topic '" + std::string(*liteTopic) + "' holds '$'";
    if (std::string reason = store::unsafePathComponentReason(lmq); !reason.empty())
        return "lite topic '" + std::string(*liteTopic) + "' cannot name a queue: " + reason;
    properties.set(common::property::kInnerMultiDispatch, lmq);
    return {};
}

// Priority messages (RocketMQ 5.4, Java's sendMessage): a single message's priority picks its
// queue, capped at the topic's last write queue, when it is a priority message by what it
// carries; a priority on another kind (transaction, delay, FIFO) is dropped. A priority that is
// not a number is kept and ignored, as Java's NumberUtils.toInt makes it -1.
void applyPriority(common::MessageProperties &properties, const store::TopicConfig &topic, int32_t &queueId)
{
    const auto text = properties.get(common::property::kPriority);
    if (!text)
        return;
    int32_t priority = -1;
    const auto [end, status] = std::from_chars(text->data(), text->data() + text->size(), priority);
    if (status != std::errc() || end != text->data() + text->size() || priority < 0)
        return;
    if (common::messageTypeOf(properties) == remoting::kPriorityMessageType)
        queueId = std::min(priority, std::max(topic.writeQueueNums - 1, 0));
    else
        properties.remove(common::property::kPriority);
}

} // namespace

void SendMessageProcessor::process(const remoting::RequestContext &context, RemotingCommand request,
                                   remoting::Responder respond)
{
    const auto fail = [&](int32_t code, std::string remark) {
        respond(RemotingCommand::createResponse(request, code, std::move(remark)));
    };
    SendHeader header;
    std::string error;
    if (!readSendHeader(request, header, error))
        return fail(ResponseCode::kSystemError, error);
    // A static topic's client names a logical queue: this broker must lead it, the message goes
    // to the leader's physical queue, and the answer names the logical queue and offset.
    const StaticQueue logical = StaticQueue::of(broker_.queueMappings(), request, header.topic, header.queueId, true);
    std::optional<common::LogicQueueMappingItem> logicalLeader;
    if (logical.isStatic()) {
        if (!logical.isLeader())
            return fail(ResponseCode::kNotLeaderForQueue, logical.notLeaderRemark());
        logicalLeader = logical.leader();
        header.queueId = logicalLeader->queueId;
    }

    const BrokerConfig &config = broker_.brokerConfig();
    SendTarget target;
    int32_t refusal = 0;
    std::string remark;
    if (!checkSendTarget(broker_, header, context.peerAddress(), target, refusal, remark))
        return fail(refusal, std::move(remark));
    const store::TopicConfig *topic = &target.topic;
    header.queueId = target.queueId;
    std::string storeTopic = header.topic;
    int32_t storeQueueId = header.queueId;
    bool deadLetter = false;
    if (!header.batch) {
        const int32_t code = handleRetryAndDlq(broker_, header, request.version, storeTopic, storeQueueId, deadLetter, error);
        if (code != ResponseCode::kSuccess)
            return fail(code, error);
    }

    common::MessageProperties batchProperties = common::MessageProperties::decode(header.properties);
    // Java's clearReservedProperties: a client's POP_CK is never stored (a popped message sent on
    // would carry its old receipt to the next consumer).
    batchProperties.remove(common::property::kPopCk);
    // A transaction's half message is stored in RMQ_SYS_TRANS_HALF_TOPIC until END_TRANSACTION.
    const bool halfMessage = batchProperties.get(common::property::kTransactionPrepared) == "true";
    if (halfMessage && (config.rejectTransactionMessage || header.batch))
        return fail(ResponseCode::kNoPermission, "the broker[" + broker_.brokerAddress()
                                                     + "] sending transaction message is forbidden");
    if (halfMessage)
        broker_.transactions().ensureTopics();

    std::vector<common::BrokerMessage> messages;
    // A batch with its own UNIQ_KEY sent to a BatchCQ topic is stored whole, as one record the
    // consumer unwraps (Java's inner batch); any other batch as one record per message.
    std::string batchUniqId;
    if (header.batch) {
        if (!common::decodeMessageBatch(request.body, messages, error))
            return fail(ResponseCode::kMessageIllegal, "bad SEND_BATCH_MESSAGE body: " + error);
        const auto uniqKey = batchProperties.get(common::property::kUniqClientMessageId);
        if (topic->isBatchCq() && uniqKey) {
            batchUniqId = *uniqKey;
            const size_t count = messages.size();
            messages.clear();
            messages.emplace_back();
            messages.back().body = std::move(request.body);
            messages.back().flag = header.flag;
            messages.back().properties = std::move(batchProperties);
            messages.back().properties.set(common::property::kInnerNum, std::to_string(count));
            batchProperties = {};
        }
    } else {
        messages.emplace_back();
        messages.back().body = std::move(request.body);
        messages.back().flag = header.flag;
        messages.back().properties = std::move(batchProperties);
        batchProperties = {};
    }
    if (!header.batch && storeTopic == header.topic) {
        if (std::string badLiteTopic = enterLiteTopic(messages.front().properties, header.topic); !badLiteTopic.empty())
            return fail(ResponseCode::kMessageIllegal, badLiteTopic);
        applyPriority(messages.front().properties, *topic, storeQueueId);
        header.queueId = storeQueueId; // answered: where the message went
    }
    const auto bornHost = common::HostAddress::parse(context.peerAddress());
    int32_t sysFlag = header.sysFlag;
    if (topic->topicFilterType == store::TopicConfig::kMultiTag)
        sysFlag |= common::sysflag::kMultiTags;
    if (!batchUniqId.empty())
        sysFlag |= common::sysflag::kNeedUnwrap | common::sysflag::kInnerBatch;
    for (common::BrokerMessage &message : messages) {
        message.topic = storeTopic;
        message.queueId = storeQueueId;
        message.sysFlag = sysFlag;
        message.bornTimestamp = header.bornTimestamp;
        if (bornHost)
            message.bornHost = *bornHost;
        message.reconsumeTimes = header.reconsumeTimes;
        message.properties.merge(batchProperties); // batch-level properties follow each message's own
        // WAIT tells the store whether to wait for the flush, and stays in the stored properties
        // as Java 5.x keeps it (only a message numbered in LMQs loses it: commit_log.cpp).
        if (const auto wait = message.properties.get(common::property::kWaitStoreMsgOk))
            message.waitStoreMsgOk = *wait != "false";
        // As the Java broker: the region and trace switch go into the stored properties too (the
        // 5.x client's consume trace hook reads them from each message it consumes).
        message.properties.set(common::property::kMsgRegion, config.regionId);
        message.properties.set(common::property::kTraceSwitch, config.traceOn ? "true" : "false");
        message.properties.set(common::property::kCluster, config.brokerClusterName);
        if (deadLetter)
            message.properties.set(common::property::kDelayTimeLevel, "-1");
        if (halfMessage)
            TransactionService::toHalfMessage(message);
    }

    // A single message the store parks in the timer wheel is answered with its recall handle
    // (Java's attachRecallHandle: not for batches, nor for retries; nor for half messages, whose
    // parked form names the half topic).
    std::optional<RecallHandle> recall;
    if (!header.batch && !halfMessage && !storeTopic.starts_with(kRetryGroupTopicPrefix)) {
        if (const auto uniqKey = messages.front().properties.get(common::property::kUniqClientMessageId))
            recall = RecallHandle{storeTopic, config.brokerName, {}, std::string(*uniqKey)};
    }
    // Java answers every single message's send with its UNIQ_KEY as `transactionId`; a
    // transactional producer copies it into END_TRANSACTION and its SendResult.
    std::string transactionId;
    if (!header.batch) {
        if (const auto uniqKey = messages.front().properties.get(common::property::kUniqClientMessageId))
            transactionId = *uniqKey;
    }
    auto storeHost = common::HostAddress::parse(broker_.brokerAddress());
    auto done = [this, request = std::move(request), respond = std::move(respond), queueId = header.queueId,
                 host = storeHost.value_or(common::HostAddress{}), recall = std::move(recall),
                 transactionId = std::move(transactionId), batchUniqId = std::move(batchUniqId),
                 statsTopic = messages.front().topic, statsQueueId = messages.front().queueId,
                 logicalLeader = std::move(logicalLeader),
                 globalId = logical.globalId()](const store::PutMessageResult &result) mutable {
        RemotingCommand response = RemotingCommand::createResponse(request, responseCodeOf(result.status));
        if (!result.stored()) {
            broker_.stats().addPutFailure();
            response.remark = putFailureRemark(result);
            respond(std::move(response));
            return;
        }
        broker_.stats().addPut(statsTopic, statsQueueId, std::max(result.messageCount, 1), result.wroteBytes);
        std::string msgId = common::createOffsetMessageId(host, result.wroteOffset);
        int64_t offset = result.wroteOffset;
        for (size_t i = 0; i + 1 < result.recordSizes.size(); ++i) {
            offset += result.recordSizes[i];
            msgId += "," + common::createOffsetMessageId(host, offset);
        }
        if (result.status == store::PutMessageStatus::FlushDiskTimeout)
            response.remark = "FLUSH_DISK_TIMEOUT: " + result.error;
        remoting::setField(response.extFields, "msgId", msgId);
        remoting::setField(response.extFields, "queueId", logicalLeader ? globalId : queueId);
        remoting::setField(response.extFields, "queueOffset",
                           logicalLeader ? logicalLeader->staticOffsetLoosely(result.queueOffset) : result.queueOffset);
        remoting::setField(response.extFields, "MSG_REGION", broker_.brokerConfig().regionId);
        remoting::setField(response.extFields, "TRACE_ON", broker_.brokerConfig().traceOn);
        if (!transactionId.empty())
            remoting::setField(response.extFields, "transactionId", transactionId);
        if (!batchUniqId.empty()) // tells the producer its batch is one inner batch
            remoting::setField(response.extFields, "batchUniqId", batchUniqId);
        if (recall && result.timerOutMs >= 0) {
            recall->deliverMs = std::to_string(result.timerOutMs + 1); // Java: "consider of floor"
            remoting::setField(response.extFields, "recallHandle", encodeRecallHandle(*recall));
        }
        respond(std::move(response));
    };
    if (messages.size() == 1 && (!header.batch || (sysFlag & common::sysflag::kInnerBatch)))
        broker_.store().asyncPutMessage(messages.front(), std::move(done));
    else
        broker_.store().asyncPutMessages(messages, std::move(done));
}

} // namespace mqdesk::server
