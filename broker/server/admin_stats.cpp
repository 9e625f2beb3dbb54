// GET_TOPIC_STATS_INFO, GET_CONSUME_STATS, GET_BROKER_RUNTIME_INFO and MQDesk's
// GET_FLUSH_SAMPLES and GET_ACTIVITY_TOTALS (docs/remoting-extensions.md).

#include "broker/server/admin_processor.h"

#include "broker/common/clock.h"
#include "broker/common/descriptors.h"
#include "broker/common/json.h"
#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_server.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/protocol/route_data.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/remoting/protocol/queue_tables.h"
#include "broker/server/admin_bodies.h"
#include "broker/server/broker_controller.h"
#include "broker/server/broker_stats.h"
#include "broker/server/consumer_manager.h"
#include "broker/server/topic_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/message_store.h"
#include "broker/store/store_services.h"
#include "broker/store/timer_message_store.h"
#include "broker/store/timer_put_transform.h"


#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <type_traits>

namespace mqdesk::server {

using admin::failure;
using admin::successWithBody;
using common::JsonArray;
using common::JsonObject;
using common::JsonValue;
using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::ResponseCode;

namespace {

// Java's MixAll.humanReadableByteCount(bytes, false): "512 B", "1.5 KiB", "98.3 GiB".
std::string humanReadableBytes(uint64_t bytes)
{
    if (bytes < 1024)
        return std::to_string(bytes) + " B";
    const int exponent = std::min(6, static_cast<int>(std::log(static_cast<double>(bytes)) / std::log(1024.0)));
    char text[48];
    std::snprintf(text, sizeof text, "%.1f %ciB", static_cast<double>(bytes) / std::pow(1024.0, exponent),
                  "KMGTPE"[exponent - 1]);
    return text;
}

// putMessageDistributeTime as Java 4.9 writes it: puts per range of whole milliseconds ("[<=0ms]"
// under 1 ms, "[0~10ms]" 1–9 ms, … "[10s~]"), from the store's put-latency histogram in µs. The
// histogram keeps each value within 1/16 of itself, so a put near a bound may land in the next
// range up.
std::string putDistributionText(const common::Histogram::Snapshot &latency)
{
    static constexpr std::pair<const char *, uint64_t> kRanges[] = {
        {"[<=0ms]", 1'000},        {"[0~10ms]", 10'000},     {"[10~50ms]", 50'000},    {"[50~100ms]", 100'000},
        {"[100~200ms]", 200'000},  {"[200~500ms]", 500'000}, {"[500ms~1s]", 1'000'000}, {"[1~2s]", 2'000'000},
        {"[2~3s]", 3'000'000},     {"[3~4s]", 4'000'000},     {"[4~5s]", 5'000'000},    {"[5~10s]", 10'000'000}};
    const uint64_t count = latency.count();
    // The k-th smallest value (1-based), as the histogram reports it.
    const auto valueAtRank = [&](uint64_t k) {
        return latency.percentile((static_cast<double>(k) - 0.5) / static_cast<double>(count));
    };
    // How many puts took less than `bound` µs: the largest rank whose value is below it.
    const auto countBelow = [&](uint64_t bound) {
        uint64_t low = 0, high = count;
        while (low < high) {
            const uint64_t middle = low + (high - low + 1) / 2;
            if (valueAtRank(middle) < bound)
                low = middle;
            else
                high = middle - 1;
        }
        return low;
    };
    std::string text;
    uint64_t before = 0;
    for (const auto &[label, bound] : kRanges) {
        const uint64_t below = countBelow(bound);
        text += std::string(label) + ":" + std::to_string(below - before) + " ";
        before = below;
    }
    return text + "[10s~]:" + std::to_string(count - before) + " ";
}

// StoreStatsService's runtime text.
std::string runtimeText(int64_t elapsedMillis)
{
    const int64_t seconds = std::max<int64_t>(0, elapsedMillis / 1000);
    char text[96];
    std::snprintf(text, sizeof text, "[ %" PRId64 " days, %" PRId64 " hours, %" PRId64 " minutes, %" PRId64 " seconds ]",
                  seconds / 86400, seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
    return text;
}

JsonValue sampleJson(const store::FlushSecondSample &sample)
{
    JsonObject object;
    object.set("sequence", static_cast<int64_t>(sample.sequence));
    object.set("epochSecond", sample.epochSecond);
    object.set("timestamp", sample.epochSecond * 1000);
    object.set("puts", static_cast<int64_t>(sample.puts));
    object.set("putTps", static_cast<int64_t>(sample.puts)); // a sample covers one second
    object.set("putBytes", static_cast<int64_t>(sample.putBytes));
    object.set("flushes", static_cast<int64_t>(sample.flushes));
    object.set("bytesFlushed", static_cast<int64_t>(sample.flushedBytes));
    object.set("flushTimeouts", static_cast<int64_t>(sample.flushTimeouts));
    object.set("flushP50Micros", static_cast<int64_t>(sample.flushP50Micros));
    object.set("flushP99Micros", static_cast<int64_t>(sample.flushP99Micros));
    object.set("flushMaxMicros", static_cast<int64_t>(sample.flushMaxMicros));
    object.set("putToAckP50Micros", static_cast<int64_t>(sample.putP50Micros));
    object.set("putToAckP99Micros", static_cast<int64_t>(sample.putP99Micros));
    object.set("putToAckMaxMicros", static_cast<int64_t>(sample.putMaxMicros));
    object.set("dataAtRiskBytes", static_cast<int64_t>(sample.unflushedBytes));
    object.set("flushDiskType", sample.syncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH");
    object.set("transientStorePoolEnable", sample.transientStorePool);
    object.set("writeWithoutMmap", sample.writeWithoutMmap);
    object.set("warmUps", static_cast<int64_t>(sample.warmUps));
    object.set("warmedBytes", static_cast<int64_t>(sample.warmedBytes));
    object.set("warmMicros", static_cast<int64_t>(sample.warmMicros));
    object.sortByKey();
    return object;
}

// The write-path knobs as the store runs them now, and what warming files has cost so far.
JsonValue writePathJson(const store::MessageStore &store)
{
    const store::MessageStoreConfig &config = store.config();
    const store::FlushMetrics &metrics = store.metrics();
    JsonObject object;
    object.set("writeWithoutMmap", store.commitLog().writeWithoutMmap()); // live
    object.set("warmMapedFileEnable", config.warmMapedFileEnable);        // these three: at start
    object.set("flushLeastPagesWhenWarmMapedFile", static_cast<int64_t>(config.flushLeastPagesWhenWarmMapedFile));
    object.set("useReentrantLockWhenPutMessage", config.useReentrantLockWhenPutMessage);
    object.set("warmUps", static_cast<int64_t>(metrics.totalWarmUps()));
    object.set("warmedBytes", static_cast<int64_t>(metrics.totalWarmedBytes()));
    object.set("warmMicros", static_cast<int64_t>(metrics.totalWarmMicros()));
    object.sortByKey();
    return object;
}

} // namespace

int64_t AdminProcessor::storeTimeAt(const std::string &topic, int32_t queueId, int64_t offset) const
{
    const store::GetMessageResult result = broker_.store().getMessage(topic, queueId, offset, 1);
    if (result.status != store::GetMessageStatus::Found || result.messages.empty())
        return 0;
    return result.messages.front().storeTimestamp;
}

RemotingCommand AdminProcessor::getTopicStats(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string topic = reader.requireTopic("topic");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    const auto config = broker_.topics().find(topic);
    if (!config)
        return failure(request, ResponseCode::kTopicNotExist, "topic[" + topic + "] not exist");

    store::MessageStore &store = broker_.store();
    remoting::TopicStatsTable table;
    for (int32_t queueId = 0; queueId < config->writeQueueNums; ++queueId) {
        remoting::TopicOffset &entry = table.offsetTable[{topic, broker_.brokerConfig().brokerName, queueId}];
        entry.minOffset = std::max<int64_t>(0, store.minOffsetInQueue(topic, queueId));
        entry.maxOffset = std::max<int64_t>(0, store.maxOffsetInQueue(topic, queueId));
        if (entry.maxOffset > 0)
            entry.lastUpdateTimestamp = storeTimeAt(topic, queueId, entry.maxOffset - 1);
    }
    if (const StatsItemSet *puts = broker_.stats().items().set(stats::kTopicPutNums))
        table.topicPutTps = puts->minute(topic, common::wallMillis()).tps;
    return successWithBody(request, table.toJson());
}

// A group that subscribes to something, but not to this topic, has only stale offsets there
// (Java skips them too). An offline group, or one without subscriptions, keeps all of them.
bool AdminProcessor::subscribesTo(const std::optional<ConsumerGroupSnapshot> &online, const std::string &topic)
{
    return !online || online->subscriptions.empty()
           || std::any_of(online->subscriptions.begin(), online->subscriptions.end(),
                          [&](const remoting::SubscriptionData &s) { return s.topic == topic; });
}

double AdminProcessor::consumeTps(const std::string &group, const std::string &topic) const
{
    const StatsItemSet *gets = broker_.stats().items().set(stats::kGroupGetNums);
    return gets ? gets->minute(topic + "@" + group, common::wallMillis()).tps : 0.0;
}

// VIEW_BROKER_STATS_DATA (315; the Dashboard's counts of today, mqadmin statsAll): one stats
// item's minute, hour and day.
RemotingCommand AdminProcessor::viewBrokerStatsData(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string name = reader.requireString("statsName");
    const std::string key = reader.requireString("statsKey");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());
    const StatsItemSet *set = broker_.stats().items().set(name);
    const std::optional<StatsData> data = set ? set->find(key, common::wallMillis()) : std::nullopt;
    if (!data)
        return failure(request, ResponseCode::kSystemError, "The stats <" + name + "> <" + key + "> not exist");
    return successWithBody(request, data->toJson());
}

void AdminProcessor::appendConsumeOffsets(const std::string &group, const store::TopicConfig &config,
                                          remoting::ConsumeStats &stats) const
{
    store::MessageStore &store = broker_.store();
    const std::string &topic = config.topicName;
    for (int32_t queueId = 0; queueId < config.writeQueueNums; ++queueId) {
        remoting::OffsetWrapper &entry = stats.offsetTable[{topic, broker_.brokerConfig().brokerName, queueId}];
        entry.brokerOffset = std::max<int64_t>(0, store.maxOffsetInQueue(topic, queueId));
        entry.consumerOffset = std::max<int64_t>(0, broker_.offsets().queryOffset(group, topic, queueId));
        // As Java: never behind the committed offset (a group that has not pulled since a
        // restart has nothing in flight).
        entry.pullOffset = std::max(entry.consumerOffset, broker_.pullOffsets().query(group, topic, queueId));
        if (entry.consumerOffset > 0)
            entry.lastTimestamp = storeTimeAt(topic, queueId, entry.consumerOffset - 1);
    }
}

RemotingCommand AdminProcessor::getConsumeStats(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const std::string group = reader.requireGroup("consumerGroup");
    const std::string onlyTopic = reader.optTopic("topic");
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());

    std::set<std::string> topics;
    if (onlyTopic.empty())
        topics = broker_.offsets().whichTopicByConsumer(group);
    else
        topics.insert(onlyTopic);
    const auto online = broker_.consumers().group(group);

    remoting::ConsumeStats stats;
    for (const std::string &topic : topics) {
        const auto config = broker_.topics().find(topic);
        if (!config || !subscribesTo(online, topic))
            continue;
        appendConsumeOffsets(group, *config, stats);
        stats.consumeTps += consumeTps(group, topic);
    }
    return successWithBody(request, stats.toJson());
}

// GET_BROKER_CONSUME_STATS (317, mqadmin brokerConsumeStats): every subscription group's
// consume stats on this broker, one ConsumeStats per topic it has offsets for, as Java's
// fetchAllConsumeStatsInBroker builds them (isOrder: order topics only), with the totals of
// lag and in-flight messages. Java leaves pullOffset 0 here, so its in-flight total is minus the
// committed offsets; MQDesk fills it as GET_CONSUME_STATS does.
RemotingCommand AdminProcessor::getBrokerConsumeStats(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const bool orderOnly = reader.optBool("isOrder", false);
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());

    int64_t totalDiff = 0;
    int64_t totalInflightDiff = 0;
    std::string list;
    for (const store::SubscriptionGroupConfig &groupConfig : broker_.subscriptionGroups().subscriptionGroupConfigs()) {
        const std::string &group = groupConfig.groupName;
        const auto online = broker_.consumers().group(group);
        std::string stats;
        for (const std::string &topic : broker_.offsets().whichTopicByConsumer(group)) {
            const auto config = broker_.topics().find(topic);
            if (!config || (orderOnly && !config->order) || !subscribesTo(online, topic))
                continue;
            remoting::ConsumeStats topicStats;
            appendConsumeOffsets(group, *config, topicStats);
            topicStats.consumeTps = consumeTps(group, topic);
            for (const auto &[queue, entry] : topicStats.offsetTable) {
                totalDiff += entry.brokerOffset - entry.consumerOffset;
                totalInflightDiff += entry.pullOffset - entry.consumerOffset;
            }
            stats += (stats.empty() ? "" : ",") + topicStats.toJson();
        }
        list += (list.empty() ? "{" : ",{") + common::toJsonCompact(common::JsonValue(group)) + ":[" + stats + "]}";
    }
    const std::string body = "{\"brokerAddr\":" + common::toJsonCompact(common::JsonValue(broker_.brokerAddress()))
                             + ",\"consumeStatsList\":[" + list + "],\"totalDiff\":" + std::to_string(totalDiff)
                             + ",\"totalInflightDiff\":" + std::to_string(totalInflightDiff) + "}";
    return successWithBody(request, body);
}

RemotingCommand AdminProcessor::getBrokerRuntimeInfo(const RemotingCommand &request)
{
    BrokerStats &stats = broker_.stats();
    store::MessageStore &store = broker_.store();
    store::CommitLog &log = store.commitLog();
    store::FlushMetrics &metrics = store.metrics();
    const BrokerConfig &config = broker_.brokerConfig();
    const int64_t now = common::wallMillis();

    std::map<std::string, std::string> table;
    const auto put = [&table](const char *key, auto value) {
        if constexpr (std::is_convertible_v<decltype(value), std::string>)
            table[key] = std::string(value);
        else
            table[key] = std::to_string(value);
    };
    put("brokerVersionDesc", "V4_9_8");
    put("brokerVersion", "409");

    put("msgPutTotalYesterdayMorning", stats.putTotalYesterdayMorning());
    put("msgPutTotalTodayMorning", stats.putTotalTodayMorning());
    put("msgPutTotalTodayNow", stats.putMessages());
    put("msgGetTotalYesterdayMorning", stats.getTotalYesterdayMorning());
    put("msgGetTotalTodayMorning", stats.getTotalTodayMorning());
    put("msgGetTotalTodayNow", stats.getMessages());
    put("putTps", stats.putTps().text());
    // MQDesk counts messages found by pulls; Java's getTotalTps counts get calls. Both are
    // "gets per second" to the dashboard, which shows the first number.
    const std::string getTps = stats.getTps().text();
    put("getTotalTps", getTps);
    put("getFoundTps", getTps);
    put("getTransferedTps", getTps);

    put("getTransferredTps", getTps); // the 5.x spelling, which mqadmin 5.x clusterList reads

    // The executors' queues as Java reports its thread pools' (clusterList's "(queue, wait)").
    remoting::ProcessorExecutor &sendExecutor = broker_.sendExecutor();
    remoting::ProcessorExecutor &pullExecutor = broker_.pullExecutor();
    put("sendThreadPoolQueueSize", sendExecutor.queuedTasks());
    put("sendThreadPoolQueueCapacity", config.sendThreadPoolQueueCapacity);
    put("sendThreadPoolQueueHeadWaitTimeMills", sendExecutor.headWaitMillis());
    put("pullThreadPoolQueueSize", pullExecutor.queuedTasks());
    put("pullThreadPoolQueueCapacity", config.pullThreadPoolQueueCapacity);
    put("pullThreadPoolQueueHeadWaitTimeMills", pullExecutor.headWaitMillis());
    // Java: how long the current put has held the commit-log lock. MQDesk's append holds its
    // lock only to assign offsets and copy bytes (never across a flush), so it reports 0.
    put("pageCacheLockTimeMills", 0);
    // A serving master runs its schedule and transaction services (Java isSpecialServiceRunning).
    put("brokerActive", "true");
    // The timer store's progress as Java reports it (zeros without the wheel): seconds the
    // delivery is behind the clock, timer-queue messages not yet parked, messages parked.
    if (store::TimerMessageStore *timer = broker_.store().timerMessageStore()) {
        put("timerReadBehind", std::max<int64_t>(0, common::wallMillis() - timer->readTimeMs()) / 1000);
        put("timerOffsetBehind",
            std::max<int64_t>(0, broker_.store().maxOffsetInQueue(std::string(store::kTimerTopic), 0) - timer->queueOffset()));
        put("timerCongestNum", timer->parkedCount());
    } else {
        put("timerReadBehind", 0);
        put("timerOffsetBehind", 0);
        put("timerCongestNum", 0);
    }
    put("timerEnqueueTps", "0.0");
    put("timerDequeueTps", "0.0");

    put("putMessageTimesTotal", stats.putMessages());
    put("putMessageSizeTotal", stats.putBytes());
    put("putMessageFailedTimes", stats.putFailures());
    const int64_t puts = stats.putMessages();
    put("putMessageAverageSize",
        common::formatJavaDouble(puts > 0 ? static_cast<double>(stats.putBytes()) / static_cast<double>(puts) : 0.0));
    const common::Histogram::Snapshot putLatency = metrics.putLatency();
    put("putMessageEntireTimeMax", static_cast<int64_t>(putLatency.max() / 1000)); // ms, as Java
    put("putMessageDistributeTime", putDistributionText(putLatency));

    put("bootTimestamp", broker_.bootTimestamp());
    put("runtime", runtimeText(now - broker_.bootTimestamp()));
    put("startAcceptSendRequestTimeStamp", broker_.brokerConfig().startAcceptSendRequestTimeStamp);
    put("earliestMessageTimeStamp", store.earliestMessageTime());
    put("dispatchBehindBytes", store.dispatchBehindBytes());
    put("commitLogMinOffset", log.minOffset());
    put("commitLogMaxOffset", log.maxOffset());

    const bool pool = log.transientStorePoolEnabled();
    put("remainHowManyDataToFlush", humanReadableBytes(static_cast<uint64_t>(std::max<int64_t>(0, log.unflushedBytes()))));
    if (pool) {
        const int64_t toCommit = log.mappedFileQueue().maxWrotePosition() - log.mappedFileQueue().committedWhere();
        put("remainHowManyDataToCommit", humanReadableBytes(static_cast<uint64_t>(std::max<int64_t>(0, toCommit))));
    }
    const store::DiskSpace commitLogDisk = store::diskSpaceOf(store.config().commitLogDir());
    if (commitLogDisk.known)
        put("commitLogDirCapacity", "Total : " + humanReadableBytes(commitLogDisk.total)
                                        + ", Free : " + humanReadableBytes(commitLogDisk.free) + ".");
    put("commitLogDiskRatio", common::formatJavaDouble(commitLogDisk.usedRatio()));
    put("consumeQueueDiskRatio",
        common::formatJavaDouble(store::diskUsedRatio(store.config().rootDir() + "/consumequeue")));

    // MQDesk's own: the flush mode as it is now (it can change live). A broker posing as Java
    // (mqdeskExtensionsEnable=false) leaves them out: Java's flush mode is only in its config.
    if (config.mqdeskExtensionsEnable) {
        put("flushDiskType", std::string(store::flushDiskTypeName(log.flushDiskType())));
        put("transientStorePoolEnable", pool ? "true" : "false");
        // Set once a commit-log flush failed: the store refuses every put until it is reopened
        // (a failed fdatasync is never retried into success). Empty while writes are healthy.
        put("storeWriteFault", store.writeFault());
        // Config files read from their .bak at start, "; "-separated; empty when none was.
        std::string configWarnings;
        for (const std::string &warning : broker_.configLoadWarnings())
            configWarnings += (configWarnings.empty() ? "" : "; ") + warning;
        put("configLoadWarnings", configWarnings);
        // What clients hold of the broker (README, Limits): descriptors, connections, the bytes
        // queued for clients that do not read and what the limits did about them.
        put("openFileDescriptors", common::openDescriptors());
        put("maxFileDescriptors", static_cast<int64_t>(common::openFileLimit()));
        put("processConnections", static_cast<int64_t>(remoting::RemotingServer::processConnections()));
        put("processConnectionLimit", static_cast<int64_t>(remoting::RemotingServer::processConnectionLimit()));
        if (const remoting::RemotingServer *server = broker_.remotingServer()) {
            put("clientConnections", static_cast<int64_t>(server->connectionCount()));
            put("clientConnectionsShed", static_cast<int64_t>(server->connectionsShed()));
            put("clientConnectionsRefused", static_cast<int64_t>(server->connectionsRefused()));
            put("clientQueuedWriteBytes", static_cast<int64_t>(server->queuedWriteBytes()));
            put("clientNotificationsDropped", static_cast<int64_t>(server->droppedNotifications()));
            put("clientConnectionsClosedForBacklog", static_cast<int64_t>(server->connectionsClosedForBacklog()));
            put("clientConnectionsClosedForPartialFrames",
                static_cast<int64_t>(server->connectionsClosedForPartialFrames()));
        }
        for (const auto &[key, value] : broker_.externalRuntimeInfo())
            put(key.c_str(), value);
    }

    remoting::KVTable body;
    body.table = std::move(table);
    return successWithBody(request, body.toJson());
}

RemotingCommand AdminProcessor::getFlushSamples(const RemotingCommand &request)
{
    HeaderReader reader(request.extFields);
    const int64_t since = reader.optInt64("sinceSequence", 0);
    if (!reader.ok())
        return failure(request, ResponseCode::kSystemError, reader.error());

    const store::FlushMetrics &metrics = broker_.store().metrics();
    const uint64_t after = static_cast<uint64_t>(std::max<int64_t>(0, since));
    std::vector<store::FlushSecondSample> samples = metrics.samplesSince(after);
    uint64_t next = after;
    if (!samples.empty()) {
        next = samples.back().sequence;
    } else if (after > 0) {
        // Nothing newer: either no second has passed, or the broker restarted and its sequence
        // began again below the caller's. In the second case the caller gets every sample.
        std::vector<store::FlushSecondSample> all = metrics.samplesSince(0);
        if (!all.empty() && all.back().sequence < after) {
            samples = std::move(all);
            next = samples.back().sequence;
        }
    }

    store::CommitLog &log = broker_.store().commitLog();
    JsonObject body;
    body.set("bootTimestamp", broker_.bootTimestamp());
    body.set("capacity", static_cast<int64_t>(store::FlushMetrics::kSampleCapacity));
    body.set("flushDiskType", std::string(store::flushDiskTypeName(log.flushDiskType())));
    body.set("nextSequence", static_cast<int64_t>(next));
    JsonArray array;
    array.reserve(samples.size());
    for (const store::FlushSecondSample &sample : samples)
        array.push_back(sampleJson(sample));
    body.set("samples", std::move(array));
    body.set("transientStorePoolEnable", log.transientStorePoolEnabled());
    body.set("writePath", writePathJson(broker_.store()));
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

RemotingCommand AdminProcessor::getActivityTotals(const RemotingCommand &request)
{
    // One answer for the console's history: every topic's stored message count (a counter the
    // console turns into TPS) and every group's lag, so recording a cluster with thousands of
    // topics and groups costs one request per broker and second, not one per topic or group.
    // Everything read here is in memory (queue max offsets, the offset table).
    store::MessageStore &store = broker_.store();
    JsonObject topics;
    for (const store::TopicConfig &topic : broker_.topicTable().topicConfigs()) {
        int64_t messages = 0;
        for (int32_t queueId = 0; queueId < topic.writeQueueNums; ++queueId)
            messages += std::max<int64_t>(0, store.maxOffsetInQueue(topic.topicName, queueId));
        topics.set(topic.topicName, messages);
    }
    topics.sortByKey();

    // The lag of committed queues of non-retry topics, as the console's group table sums it.
    std::map<std::string, int64_t> lagByGroup;
    for (const auto &[key, queueOffsets] : broker_.offsets().offsetTable()) {
        std::string topic, group;
        if (!store::ConsumerOffsetManager::splitKey(key, topic, group) || topic.starts_with("%RETRY%"))
            continue;
        int64_t &lag = lagByGroup[group];
        for (const auto &[queueId, committed] : queueOffsets)
            lag += std::max<int64_t>(0, store.maxOffsetInQueue(topic, queueId) - committed);
    }
    JsonObject groups;
    for (const auto &[group, lag] : lagByGroup)
        groups.set(group, lag);

    JsonObject body;
    body.set("bootTimestamp", broker_.bootTimestamp());
    body.set("groups", std::move(groups));
    body.set("timestamp", common::wallMillis());
    body.set("topics", std::move(topics));
    return successWithBody(request, common::toJsonCompact(JsonValue(std::move(body))));
}

} // namespace mqdesk::server
