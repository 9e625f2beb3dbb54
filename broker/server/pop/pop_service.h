#pragma once

// POP consumption (RocketMQ 5; grpc-proxy spec §5–6): the broker hands messages out with an
// invisible time and takes them back unless acked. PopService owns what that needs and answers
// its requests:
//   POP_MESSAGE, PEEK_MESSAGE, NOTIFICATION, POLLING_INFO      pop_message_processor.cpp
//   ACK_MESSAGE, BATCH_ACK_MESSAGE, CHANGE_MESSAGE_INVISIBLETIME ack_message_processor.cpp
//   QUERY_ASSIGNMENT, SET_MESSAGE_REQUEST_MODE                 query_assignment_processor.cpp
//   POP_LITE_MESSAGE, LITE_SUBSCRIPTION_CTL (RocketMQ 5.5)      lite_pop_processor.cpp
//   the lite admin codes 200074–200079                          lite_admin_processor.cpp
// and the revive service (pop_revive_service.h) that re-puts what was not acked in time into the
// group's retry topic.
//
// The state is Java's, in the store, so either broker can take over a store: each pop of a queue
// writes a checkpoint (CK) into the revive topic through the timer wheel, each ack an ACK, and the
// group's consumer offset moves past what was popped at once; the revive service matches them.
// A FIFO pop (order=true) writes no CK: the queue stays blocked for the group until its messages
// are acked or their invisible time passes (in memory here; see broker/server/README.md).
//
// Threads: requests run on the pull executor (pops, notifications) and the send executor (acks);
// the long-polling and revive threads are this service's. Thread-safe.

#include "broker/remoting/net/remoting_channel.h"
#include "broker/server/pop/lite_subscriptions.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mqdesk::common {
struct BrokerMessage;
class JsonObject;
}

namespace mqdesk::store {
class MessageRequestModeManager;
struct SubscriptionGroupConfig;
struct PutMessageResult;
}

namespace mqdesk::server {
class BrokerController;
}

namespace mqdesk::server::pop {

class PopLongPolling;
class PopReviveService;
class ConsumerOrderInfoManager;
struct PopCheckPoint;
struct AckMessage;
struct ParkedRequest;

// A group's POP figures (the console's): messages popped and neither acked nor revived yet
// (FIFO holds included), its checkpoints waiting in the revive queues, the backlog of its retry
// topics, the topics it pops, and its pops parked in long polling.
struct PopGroupStats
{
    int64_t inFlight = 0;
    int64_t reviveBacklog = 0;
    int64_t retryBacklog = 0;
    int64_t fifoHeld = 0;
    size_t parkedPops = 0;
    std::vector<std::string> popTopics;
    bool truncated = false; // the scan stopped at its limit: the figures are lower bounds
};

class PopService
{
public:
    explicit PopService(BrokerController &broker);
    ~PopService();

    // Loads config/messageRequestMode.json and config/consumerOrderInfo.json. False with `error`
    // when one does not parse.
    bool load(const std::string &configDir, std::string &error);
    // Writes consumerOrderInfo.json when it changed (the broker's scheduler and shutdown call it).
    void persist();
    // Makes the revive service (the store is open; it needs the timer store). Its thread starts
    // with startRevive(), the long-polling threads with their first parked request.
    void start();
    // Starts the revive thread (the revive topic holds a message); idempotent. Not after shutdown().
    void startRevive();
    // Answers parked requests and stops the threads.
    void shutdown();

    // The store's arrival listener: wakes pops and notifications watching the topic.
    void notifyMessageArriving(const std::string &topic, int32_t queueId);

    void pop(const remoting::RequestContext &context, remoting::RemotingCommand request, remoting::Responder respond);
    void peek(const remoting::RequestContext &context, remoting::RemotingCommand request, remoting::Responder respond);
    void notification(const remoting::RequestContext &context, remoting::RemotingCommand request,
                      remoting::Responder respond);
    void pollingInfo(const remoting::RequestContext &context, remoting::RemotingCommand request,
                     remoting::Responder respond);
    void ack(const remoting::RequestContext &context, remoting::RemotingCommand request, remoting::Responder respond);
    void batchAck(const remoting::RequestContext &context, remoting::RemotingCommand request,
                  remoting::Responder respond);
    void changeInvisibleTime(const remoting::RequestContext &context, remoting::RemotingCommand request,
                             remoting::Responder respond);
    void queryAssignment(const remoting::RequestContext &context, remoting::RemotingCommand request,
                         remoting::Responder respond);
    void setMessageRequestMode(const remoting::RequestContext &context, remoting::RemotingCommand request,
                               remoting::Responder respond);
    void getAllMessageRequestMode(const remoting::RequestContext &context, remoting::RemotingCommand request,
                                  remoting::Responder respond);
    // LiteTopic (RocketMQ 5.5; docs/spec/lite-topic.md).
    void popLite(const remoting::RequestContext &context, remoting::RemotingCommand request, remoting::Responder respond);
    void liteSubscriptionCtl(const remoting::RequestContext &context, remoting::RemotingCommand request,
                             remoting::Responder respond);
    // A lite client gone (COMPLETE_REMOVE, its gRPC client closed): its lite topics go to the
    // group's other clients.
    void removeLiteClient(const std::string &clientId);
    // Forgets lite clients silent for liteSubscriptionCheckTimeoutMills (the broker's scheduler).
    void expireLiteSubscriptions();
    // Lite topic lifecycle (lite_lifecycle.cpp). Deletes lite topics of `parent` (their LMQs):
    // the bound groups' offsets and order records, the consume queues (the next message of such
    // a lite topic starts it again at offset 0), the clients' pairs with them. False with
    // `error` when the store could not delete them.
    bool deleteLiteQueues(const std::string &parent, const std::vector<std::string> &lmqs, std::string &error);
    // Every LMQ of `parent`, with messages or not (a deleted parent takes them all).
    std::vector<std::string> liteQueueNamesOf(const std::string &parent);
    // Deletes the lite topics whose last message is older than their parent's
    // lite.topic.expiration and than minLiteTTl (the broker's scheduler, every
    // liteTtlCheckInterval once the broker has been up minLiteTTl). Answers how many went.
    size_t expireLiteTopics(int64_t nowMs);
    // GET_BROKER_LITE_INFO … TRIGGER_LITE_DISPATCH (200074–200079; lite_admin_processor.cpp).
    void liteAdmin(const remoting::RequestContext &context, remoting::RemotingCommand request,
                   remoting::Responder respond);
    LiteSubscriptions &liteSubscriptions() { return *liteSubscriptions_; }
    ConsumerOrderInfoManager &liteOrderInfo() { return *liteOrderInfo_; }

    // For the revive service, the console and tests.
    BrokerController &broker() { return broker_; }
    // Why load() read a file of its own from its .bak (each naming the file); empty when none.
    std::vector<std::string> loadWarnings() const;
    store::MessageRequestModeManager &requestModes() { return *requestModes_; }
    std::string reviveTopic() const;
    size_t parkedCount() const;
    // pop_stats.cpp: reads the timer wheel's parked checkpoints and the revive queues.
    PopGroupStats groupStats(const std::string &group);

    // Writes a CK / an ACK into the revive topic, through the timer wheel (CK: due one second
    // before its revive time; ACK: due at it).
    store::PutMessageResult putCheckpoint(const PopCheckPoint &ck, int32_t reviveQid);
    store::PutMessageResult putAck(const AckMessage &ack, int32_t reviveQid, int64_t deliverMs);

    // Per topic@group@queue try-locks (Java's QueueLockManager): one pop reads a queue at a time.
    bool tryLockQueue(const std::string &key);
    void unlockQueue(const std::string &key);
    ConsumerOrderInfoManager &orderInfo() { return *orderInfo_; }

private:
    void processPop(const remoting::RequestContext &context, remoting::RemotingCommand &request,
                    remoting::Responder &respond, int64_t deadlineMillis);
    void processNotification(const remoting::RequestContext &context, remoting::RemotingCommand &request,
                             remoting::Responder &respond, int64_t deadlineMillis);
    // Parks a request; with `recheck`, wakes it at once when a watched queue already holds more
    // than the group committed (an arrival between its read and its park).
    // A FIFO handle's ack: the order table, the committed offset, and a wake-up for the queue.
    void ackOrderly(const std::string &topic, const std::string &group, int32_t queueId, int64_t offset,
                    int64_t popTime);
    // Lite (lite_pop_processor.cpp; the ack and change-invisible branch in ack_message_processor.cpp).
    static std::string liteClientKey(const std::string &clientId);
    static const std::string *groupAttribute(const store::SubscriptionGroupConfig &group, const char *key);
    std::optional<std::pair<int32_t, std::string>> checkLiteTarget(const std::string &group, const std::string &topic);
    void processPopLite(const remoting::RequestContext &context, remoting::RemotingCommand &request,
                        remoting::Responder &respond, int64_t deadlineMillis);
    void popLiteQueue(const std::string &group, const std::string &attemptId, const std::string &lmq, int64_t popTime,
                      int64_t invisibleTime, int32_t room, std::vector<uint8_t> &body, int32_t &count,
                      std::string &orderCountInfo, int64_t &wakeAtMs);
    bool liteBacklog(const std::string &group, const std::vector<std::string> &lmqs);
    // Wakes the parked pops of the LMQ's subscribers (of `group`; all when empty).
    void wakeLiteClients(const std::string &lmq, const std::string &group);
    void resetLiteOffset(const std::string &group, const std::string &lmq, int64_t offset);
    void applyLiteOffsetOption(const std::string &group, const std::string &lmq, const std::string &type, int64_t value);
    std::optional<std::pair<int32_t, std::string>> applyLiteSubscription(const remoting::RequestContext &context,
                                                                         const common::JsonObject &entry);
    remoting::RemotingCommand answerLiteAdmin(const remoting::RemotingCommand &request);
    remoting::RemotingCommand answerLiteGroupInfo(const remoting::RemotingCommand &request);
    // The lite groups bound to `parent` (every lite group when empty), sorted.
    std::vector<std::string> liteGroupsOf(const std::string &parent);
    // The LMQs of `parent` (every lite topic's when empty) holding messages, with their max offsets.
    std::map<std::string, int64_t> liteQueuesOf(const std::string &parent);
    void notifyLiteUnsubscribed(const LiteSubscriptions::Evicted &evicted, const std::string &parent, bool resetOffset);
    void ackLite(remoting::RemotingCommand &request, const std::string &group, const std::string &topic,
                 int32_t queueId, int64_t offset, const std::string &extraInfo, const std::string &liteTopic,
                 remoting::Responder &respond);
    std::optional<std::pair<int32_t, std::string>> checkLiteAck(const std::string &group, const std::string &topic,
                                                                int32_t queueId, int64_t offset, int32_t reviveQid,
                                                                const std::string &lmq);
    void changeInvisibleLite(remoting::RemotingCommand &request, const std::string &group, const std::string &topic,
                             int32_t queueId, int64_t offset, const std::string &extraInfo,
                             const std::string &liteTopic, int64_t invisibleTime, bool suspend,
                             remoting::Responder &respond);
    // The refusals POP_MESSAGE, NOTIFICATION and POLLING_INFO share, in Java's order: broker and
    // topic readable, timer wheel on, queue id in range, group existing (created when allowed)
    // and allowed to consume. Code and remark when refused.
    std::optional<std::pair<int32_t, std::string>> checkPopTarget(const std::string &group, const std::string &topic,
                                                                  int32_t queueId);
    // Priority messages (RocketMQ 5.4): a topic of message.type PRIORITY, and how often in 100 a
    // group's pops of it read in priority order (its attribute priority.factor).
    bool isPriorityTopic(const std::string &topic);
    int32_t priorityFactor(const std::string &group);
    // A parked request's wake-up: `rerun` it on the pull executor (SYSTEM_BUSY when that is full).
    using Rerun = void (PopService::*)(const remoting::RequestContext &, remoting::RemotingCommand &,
                                       remoting::Responder &, int64_t deadlineMillis);
    std::function<void(ParkedRequest, bool)> rerunOnPullExecutor(Rerun rerun);
    bool parkUntil(ParkedRequest &parked, bool recheck);
    common::BrokerMessage reviveMessage(std::string body, const std::string &tag, const std::string &uniqueKey,
                                        int32_t reviveQid, int64_t deliverMs) const;

    BrokerController &broker_;
    std::unique_ptr<store::MessageRequestModeManager> requestModes_;
    std::unique_ptr<PopLongPolling> polling_;             // pops
    std::unique_ptr<PopLongPolling> notificationPolling_; // notifications
    std::unique_ptr<PopReviveService> revive_;
    std::unique_ptr<ConsumerOrderInfoManager> orderInfo_;
    std::unique_ptr<ConsumerOrderInfoManager> liteOrderInfo_; // per (group, LMQ); never persisted, as Java's
    std::unique_ptr<LiteSubscriptions> liteSubscriptions_;
    std::mutex locksMutex_;
    std::set<std::string> lockedQueues_;
    std::mutex reviveQidMutex_;
    uint32_t nextReviveQid_ = 0;
};

} // namespace mqdesk::server::pop
