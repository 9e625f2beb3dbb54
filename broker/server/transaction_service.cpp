#include "broker/server/transaction_service.h"

#include "broker/common/clock.h"
#include "broker/common/message_id.h"
#include "broker/common/message_properties.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/message_store.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <map>

namespace mqdesk::server {

using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;
namespace property = common::property;
namespace sysflag = common::sysflag;

namespace {

// Property names of the transaction bookkeeping (MessageConst).
constexpr std::string_view kTransactionId = "__transactionId__";
constexpr std::string_view kCheckTimes = "TRANSACTION_CHECK_TIMES";
constexpr std::string_view kPreparedQueueOffset = "TRAN_PREPARED_QUEUE_OFFSET";
constexpr std::string_view kCheckImmunitySeconds = "CHECK_IMMUNITY_TIME_IN_SECONDS";
constexpr const char *kRemoveTag = "d";

int64_t propertyNumber(const common::MessageProperties &properties, std::string_view key, int64_t fallback)
{
    const auto text = properties.get(key);
    int64_t value = fallback;
    if (text)
        std::from_chars(text->data(), text->data() + text->size(), value);
    return value;
}

// The queue offset of the original half message of `half` (stored at `halfQueueOffset`): a
// check round's copy names it, the original is itself.
int64_t originOf(const common::StoredMessage &half, int64_t halfQueueOffset)
{
    return propertyNumber(half.properties, kPreparedQueueOffset, halfQueueOffset);
}

} // namespace

TransactionService::TransactionService(BrokerController &broker) : ServiceThread("TransactionCheck"), broker_(broker) {}

TransactionService::~TransactionService()
{
    stop();
}

void TransactionService::toHalfMessage(common::BrokerMessage &message)
{
    if (const auto uniqKey = message.properties.get(property::kUniqClientMessageId))
        message.properties.set(kTransactionId, std::string(*uniqKey));
    message.properties.set(property::kRealTopic, message.topic);
    message.properties.set(property::kRealQueueId, std::to_string(message.queueId));
    message.sysFlag &= ~sysflag::kTransactionMask;
    message.topic = kTransHalfTopic;
    message.queueId = 0;
}

void TransactionService::ensureTopics()
{
    for (const char *topic : {kTransHalfTopic, kTransOpHalfTopic})
        broker_.topics().createTopicIfAbsent(topic, 1, store::perm::kRead | store::perm::kWrite);
}

bool TransactionService::writeOpRecord(int64_t halfQueueOffset, std::string &error, int64_t origin)
{
    common::BrokerMessage op;
    op.topic = kTransOpHalfTopic;
    op.queueId = 0;
    op.setBody(std::to_string(halfQueueOffset) + ","
               + (origin >= 0 && origin != halfQueueOffset ? std::to_string(origin) + "," : std::string()));
    op.properties.set(property::kTags, kRemoveTag);
    op.waitStoreMsgOk = false;
    op.bornTimestamp = common::wallMillis();
    if (auto host = common::HostAddress::parse(broker_.brokerAddress()))
        op.bornHost = *host;
    const store::PutMessageResult result = broker_.store().putMessage(op);
    if (!result.stored()) {
        error = "cannot write the op record of half message " + std::to_string(halfQueueOffset) + ": "
                + std::string(store::putStatusName(result.status)) + " " + result.error;
        return false;
    }
    std::lock_guard lock(mutex_);
    removed_.insert(halfQueueOffset);
    return true;
}

void TransactionService::endTransaction(const remoting::RequestContext &context, RemotingCommand request,
                                        remoting::Responder respond)
{
    const auto fail = [&](int32_t code, std::string remark) {
        respond(RemotingCommand::createResponse(request, code, std::move(remark)));
    };
    remoting::HeaderReader reader(request.extFields);
    const std::string producerGroup = reader.requireGroup("producerGroup");
    const int64_t tranStateTableOffset = reader.requireInt64("tranStateTableOffset");
    const int64_t commitLogOffset = reader.requireInt64("commitLogOffset");
    const int32_t commitOrRollback = reader.requireInt32("commitOrRollback");
    const bool fromCheck = reader.optBool("fromTransactionCheck", false);
    if (!reader.ok())
        return fail(ResponseCode::kSystemError, reader.error());
    if (commitOrRollback == sysflag::kTransactionNotType) {
        spdlog::info("transaction: producer {} at {} does not know the state of {} yet{}", producerGroup,
                     context.peerAddress(), commitLogOffset, fromCheck ? " (check answer)" : "");
        return; // RocketMQ answers nothing: the check service asks again later
    }
    if (commitOrRollback != sysflag::kTransactionCommit && commitOrRollback != sysflag::kTransactionRollback)
        return fail(ResponseCode::kSystemError, "commitOrRollback must be 0, 8 or 12, got " + std::to_string(commitOrRollback));

    const auto half = broker_.store().lookMessageByOffset(commitLogOffset);
    if (!half || half->topic != kTransHalfTopic)
        return fail(ResponseCode::kSystemError, "Find prepared transaction message failed");
    if (half->properties.get(property::kProducerGroup) != producerGroup)
        return fail(ResponseCode::kSystemError, "The producer group wrong");
    if (half->queueOffset != tranStateTableOffset)
        return fail(ResponseCode::kSystemError, "The transaction state table offset wrong");
    if (half->physicalOffset != commitLogOffset)
        return fail(ResponseCode::kSystemError, "The commit log offset wrong");

    // The decision is taken (and the origin marked) before the store: only the first answer for
    // any copy of this transaction stores, without holding other transactions up behind a put.
    const int64_t origin = originOf(*half, half->queueOffset);
    bool decidedAlready = false;
    {
        std::lock_guard decision(decideMutex_);
        decidedAlready = !decided_.insert(origin).second;
    }
    if (decidedAlready) {
        // Another copy of this transaction was decided already: mark this one done, store nothing.
        std::string error;
        if (!writeOpRecord(half->queueOffset, error))
            return fail(ResponseCode::kSystemError, error);
        spdlog::info("transaction: {} of producer {} was decided already (another copy of half message {}); "
                     "nothing stored again",
                     commitLogOffset, producerGroup, origin);
        return respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
    }
    if (commitOrRollback == sysflag::kTransactionCommit) {
        common::BrokerMessage committed = common::toBrokerMessage(*half);
        committed.topic = std::string(half->properties.get(property::kRealTopic).value_or(""));
        committed.queueId = static_cast<int32_t>(propertyNumber(half->properties, property::kRealQueueId, 0));
        committed.sysFlag = (half->sysFlag & ~sysflag::kTransactionMask) | sysflag::kTransactionCommit;
        committed.preparedTransactionOffset = commitLogOffset;
        // RocketMQ re-serialises the half message's properties, REAL_TOPIC, REAL_QID and TRAN_MSG
        // included (its later clearProperty calls do not reach the string): so do we.
        const store::PutMessageResult stored = broker_.store().putMessage(committed);
        if (!stored.stored()) {
            {
                std::lock_guard decision(decideMutex_);
                decided_.erase(origin); // undecided after all: a later check asks again
            }
            return fail(ResponseCode::kSystemError, "commit of " + std::to_string(commitLogOffset) + " failed: "
                                                        + std::string(store::putStatusName(stored.status)) + " "
                                                        + stored.error);
        }
    }
    std::string error;
    if (!writeOpRecord(half->queueOffset, error, origin))
        return fail(ResponseCode::kSystemError, error);
    spdlog::debug("transaction: {} {} (producer {})", commitOrRollback == sysflag::kTransactionCommit ? "commit" : "rollback",
                  commitLogOffset, producerGroup);
    respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess));
}

void TransactionService::loadRemovedOffsets()
{
    // Requires: mutex_ held.
    store::MessageStore &store = broker_.store();
    std::vector<int64_t> decided; // every offset an op lists: copies' and originals'
    const auto remember = [this, &decided] {
        std::lock_guard decision(decideMutex_);
        decided_.insert(decided.begin(), decided.end());
    };
    for (;;) {
        const store::GetMessageResult result = store.getMessage(kTransOpHalfTopic, 0, opProgress_, 32);
        if (result.status != store::GetMessageStatus::Found) {
            if (result.status == store::GetMessageStatus::OffsetTooSmall) {
                opProgress_ = result.nextBeginOffset;
                continue;
            }
            return remember();
        }
        for (const common::StoredMessage &op : result.messages) {
            std::string_view body(reinterpret_cast<const char *>(op.body.data()), op.body.size());
            while (!body.empty()) {
                const size_t comma = body.find(',');
                int64_t offset = -1;
                std::from_chars(body.data(), body.data() + body.size(), offset);
                if (offset >= 0) {
                    removed_.insert(offset);
                    decided.push_back(offset);
                }
                body = comma == std::string_view::npos ? std::string_view() : body.substr(comma + 1);
            }
        }
        opProgress_ = result.nextBeginOffset;
    }
}

bool TransactionService::reappendAndAsk(const common::StoredMessage &half, int64_t halfQueueOffset)
{
    common::BrokerMessage again = common::toBrokerMessage(half);
    again.properties.set(kCheckTimes, std::to_string(propertyNumber(half.properties, kCheckTimes, 0) + 1));
    if (!half.properties.get(kPreparedQueueOffset))
        again.properties.set(kPreparedQueueOffset, std::to_string(halfQueueOffset));
    const store::PutMessageResult stored = broker_.store().putMessage(again);
    if (!stored.stored()) {
        spdlog::error("transaction check: cannot re-append half message {}: {}", halfQueueOffset, stored.error);
        return false;
    }
    const std::string group(half.properties.get(property::kProducerGroup).value_or(""));
    std::vector<ClientChannelInfo> channels = broker_.producers().channels(group);
    std::erase_if(channels, [](const ClientChannelInfo &channel) { return !channel.channel.isOpen(); });
    if (channels.empty()) {
        spdlog::info("transaction check: no producer of group {} online for half message {}", group, halfQueueOffset);
        return true;
    }
    // The check carries the half message as its producer sent it: real topic and queue.
    common::BrokerMessage asSent = common::toBrokerMessage(half);
    asSent.topic = std::string(half.properties.get(property::kRealTopic).value_or(half.topic));
    asSent.queueId = static_cast<int32_t>(propertyNumber(half.properties, property::kRealQueueId, 0));
    common::EncodeOptions options;
    const auto storeHost = common::HostAddress::parse(broker_.brokerAddress());
    if (storeHost)
        options.storeHost = *storeHost;
    options.maxBodySize = std::max<int32_t>(static_cast<int32_t>(asSent.body.size()), 1);
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kCheckTransactionState);
    if (common::encodeRecord(asSent, asSent.properties.encode(), options, request.body) == common::EncodeStatus::Ok) {
        common::patchQueueOffset(request.body.data(), stored.queueOffset);
        common::patchPhysicalOffset(request.body.data(), stored.wroteOffset);
        common::patchStoreTimestamp(request.body.data(), half.storeTimestamp);
    }
    const std::string uniqKey(half.properties.get(property::kUniqClientMessageId).value_or(""));
    remoting::setField(request.extFields, "tranStateTableOffset", stored.queueOffset);
    remoting::setField(request.extFields, "commitLogOffset", stored.wroteOffset);
    remoting::setField(request.extFields, "msgId", uniqKey);
    remoting::setField(request.extFields, "transactionId",
                       std::string(half.properties.get(kTransactionId).value_or(uniqKey)));
    if (storeHost)
        remoting::setField(request.extFields, "offsetMsgId", common::createOffsetMessageId(*storeHost, stored.wroteOffset));
    // A producer that is not reading is asked again at the next check round.
    channels.front().channel.sendDroppable(std::move(request));
    return true;
}

void TransactionService::moveToCheckMaxTopic(const common::StoredMessage &half, int64_t halfQueueOffset)
{
    broker_.topics().createTopicIfAbsent(kTransCheckMaxTimeTopic, 1, store::perm::kRead | store::perm::kWrite);
    common::BrokerMessage moved = common::toBrokerMessage(half);
    moved.topic = kTransCheckMaxTimeTopic;
    moved.queueId = 0;
    const store::PutMessageResult stored = broker_.store().putMessage(moved);
    std::string error;
    if (!stored.stored() || !writeOpRecord(halfQueueOffset, error))
        spdlog::error("transaction check: cannot retire half message {} after {} checks: {}", halfQueueOffset,
                      broker_.brokerConfig().transactionCheckMax, stored.stored() ? error : stored.error);
    else
        spdlog::warn("transaction check: half message {} (producer group {}) moved to {} after {} checks",
                     halfQueueOffset, half.properties.get(property::kProducerGroup).value_or(""),
                     kTransCheckMaxTimeTopic, broker_.brokerConfig().transactionCheckMax);
}

void TransactionService::check()
{
    store::MessageStore &store = broker_.store();
    std::unique_lock lock(mutex_);
    loadRemovedOffsets();
    int64_t offset = broker_.offsets().queryOffset(kTransactionCheckGroup, kTransHalfTopic, 0);
    offset = std::max(offset, store.minOffsetInQueue(kTransHalfTopic, 0));
    const int64_t end = store.maxOffsetInQueue(kTransHalfTopic, 0);
    const int64_t now = common::wallMillis();
    const BrokerConfig &config = broker_.brokerConfig();
    // The newest copy of each transaction still waiting: only it is asked about (older copies
    // are left behind when the progress offset was lost, by a crash, before they were passed).
    std::map<int64_t, int64_t> newestCopy; // origin → half queue offset
    int64_t lowestOrigin = offset;
    for (int64_t at = offset; at < end; ++at) {
        const store::GetMessageResult read = removed_.contains(at) ? store::GetMessageResult{}
                                                                   : store.getMessage(kTransHalfTopic, 0, at, 1);
        if (read.status == store::GetMessageStatus::Found && !read.messages.empty()) {
            const int64_t origin = originOf(read.messages.front(), at);
            newestCopy[origin] = at;
            lowestOrigin = std::min(lowestOrigin, origin);
        }
    }
    {
        // Decisions about transactions no copy is left of are needed no more.
        std::lock_guard decision(decideMutex_);
        decided_.erase(decided_.begin(), decided_.lower_bound(lowestOrigin));
    }
    for (; offset < end; ++offset) {
        if (removed_.contains(offset))
            continue;
        const store::GetMessageResult read = store.getMessage(kTransHalfTopic, 0, offset, 1);
        if (read.status != store::GetMessageStatus::Found || read.messages.empty())
            continue; // a hole or data already removed by retention
        const common::StoredMessage &half = read.messages.front();
        const int64_t origin = originOf(half, offset);
        bool decidedAlready = false;
        {
            std::lock_guard decision(decideMutex_);
            decidedAlready = decided_.contains(origin);
        }
        if (decidedAlready || newestCopy[origin] != offset)
            continue; // decided through another copy, or a newer copy waits further on
        if (propertyNumber(half.properties, kCheckTimes, 0) >= config.transactionCheckMax) {
            lock.unlock();
            moveToCheckMaxTopic(half, offset);
            lock.lock();
            continue;
        }
        const int64_t immunity = std::max<int64_t>(config.transactionTimeOut,
                                                   propertyNumber(half.properties, kCheckImmunitySeconds, 0) * 1000);
        if (now - half.storeTimestamp < immunity)
            break; // later half messages are younger still
        lock.unlock();
        const bool asked = reappendAndAsk(half, offset);
        lock.lock();
        if (!asked)
            break; // keep this one for the next round
    }
    // Everything before `offset` is done or superseded by its re-appended copy.
    broker_.offsets().commitOffset("", kTransactionCheckGroup, kTransHalfTopic, 0, offset);
    removed_.erase(removed_.begin(), removed_.lower_bound(offset));
}

void TransactionService::run()
{
    while (!isStopped()) {
        waitForRunning(std::chrono::milliseconds(std::max(100, broker_.brokerConfig().transactionCheckInterval)));
        if (isStopped())
            break;
        if (broker_.isServing())
            check();
    }
}

} // namespace mqdesk::server
