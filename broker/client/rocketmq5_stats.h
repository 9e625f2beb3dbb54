#pragma once

// GET_TIMER_TIMELINE (903) and GET_POP_STATS (904), MQDesk's extensions for the console's view of
// RocketMQ 5 timer messages and POP consumption (docs/remoting-extensions.md). A Java broker
// answers REQUEST_CODE_NOT_SUPPORTED (3); the Result carries that code.

#include "broker/client/client_types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::client {

class MQClientAPI;

struct ScheduledMessage
{
    int64_t deliverMs = 0;
    std::string topic;
    std::string msgId;
    std::string keys;
    std::string tags;
};

struct TimerTimeline
{
    int64_t now = 0;         // the broker's clock when it answered
    int64_t precisionMs = 0; // timerPrecisionMs
    int64_t readTimeMs = 0;  // how far delivery has got
    int64_t bucketMs = 60000;
    std::vector<int64_t> buckets; // messages due per coming bucket (the first from `now`)
    int64_t total = 0;
    bool truncated = false;
    std::vector<ScheduledMessage> next; // the soonest, in delivery order

    // Adds another broker's timeline (same bucket size): counts add up, the next ones merge.
    void merge(const TimerTimeline &other, size_t maxNext);
};

struct PopStats
{
    int64_t inFlight = 0;      // popped, neither acked nor revived yet (FIFO holds included)
    int64_t reviveBacklog = 0; // its checkpoints due and waiting for the revive service
    int64_t retryBacklog = 0;  // messages waiting in its pop retry topics
    int64_t fifoHeld = 0;
    int64_t parkedPops = 0;
    std::vector<std::string> popTopics; // topics it pops (setConsumeMode POP)
    bool truncated = false;

    void merge(const PopStats &other);
};

// A LITE parent topic (RocketMQ 5.5) as the console shows it: GET_PARENT_TOPIC_INFO (200075)
// and, for each lite group bound to it, GET_LITE_GROUP_INFO (200078) with its lite topics of the
// largest lag; summed over the masters.
struct LiteLag
{
    std::string liteTopic;
    int64_t lagCount = 0;
    int64_t earliestUnconsumedTimestamp = -1; // store time of its oldest unconsumed message
};

struct LiteGroupLag
{
    std::string group;
    int64_t totalLagCount = 0;
    int64_t earliestUnconsumedTimestamp = -1;
    std::vector<LiteLag> topByLag; // largest first

    void merge(const LiteGroupLag &other);
};

struct LiteTopicOverview
{
    int64_t liteTopicCount = 0;
    int64_t ttlMinutes = -1; // lite.topic.expiration; -1 never
    std::vector<LiteGroupLag> groups;

    void merge(const LiteTopicOverview &other);
};

// A lite group as the Consumer groups page shows it: its lag (GET_LITE_GROUP_INFO 200078) and each
// online client's lite topics (GET_LITE_CLIENT_INFO 200077), summed over the masters.
struct LiteClientTopics
{
    std::string clientId;
    int64_t liteTopicCount = 0;          // all of them; liteTopics may list fewer
    std::vector<std::string> liteTopics; // lite topic names (LMQ names shortened), sorted
    int64_t lastAccessTime = -1;         // the client's last request, -1 unknown

    void merge(const LiteClientTopics &other);
};

struct LiteGroupView
{
    std::string parent; // the bound topic (lite.bind.topic)
    LiteGroupLag lag;
    std::vector<LiteClientTopics> clients; // in the order asked for

    void merge(const LiteGroupView &other);
};

bool parseLiteParentInfo(std::string_view body, LiteTopicOverview &out, std::vector<std::string> &groups,
                         std::string &error);
// `parent` turns LMQ names (%LMQ%$parent$liteTopic, as Java's answer lists them) into lite topics.
bool parseLiteClientInfo(std::string_view body, const std::string &parent, LiteClientTopics &out, std::string &error);
Result<LiteGroupLag> getLiteGroupLag(MQClientAPI &api, const std::string &addr, const std::string &group, int topK);
Result<LiteGroupView> getLiteGroupView(MQClientAPI &api, const std::string &addr, const std::string &parent,
                                       const std::string &group, const std::vector<std::string> &clientIds,
                                       int topK);
bool parseLiteGroupInfo(std::string_view body, LiteGroupLag &out, std::string &error);
Result<LiteTopicOverview> getLiteTopicOverview(MQClientAPI &api, const std::string &addr, const std::string &parent,
                                               int topK);

bool parseTimerTimeline(std::string_view body, TimerTimeline &out, std::string &error);
bool parsePopStats(std::string_view body, PopStats &out, std::string &error);

Result<TimerTimeline> getTimerTimeline(MQClientAPI &api, const std::string &addr, const std::string &topic,
                                       int minutes, int next);
Result<PopStats> getPopStats(MQClientAPI &api, const std::string &addr, const std::string &group);

} // namespace mqdesk::client
