#pragma once

// consumerOffset.json (§8.3): RocketMQ's ConsumerOffsetManager (B/offset/ConsumerOffsetManager.java).
// `{"dataVersion":{…},"groupTopicMap":{group:[topic…]},"offsetTable":{"topic@group":{queueId:offset}}}`
// with the queue ids as unquoted Integer keys. groupTopicMap is derived from offsetTable (a
// getter without field); files from RocketMQ 4.x have neither it nor dataVersion, and keep
// lacking them when re-written.

#include "broker/store/config/config_manager.h"
#include "broker/store/config/data_version.h"
#include "broker/store/config/java_ordered_map.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mqdesk::store {

class ConsumerOffsetManager : public ConfigManager
{
public:
    static constexpr const char *kFileName = "consumerOffset.json";
    // Where Java 5.5 keeps the same table when enableLmq is on (its `lmqOffsetTable`, offsets of
    // groups that are themselves LMQs, is not read here).
    static constexpr const char *kLmqFileName = "lmqConsumerOffset.json";
    static constexpr char kTopicGroupSeparator = '@';
    // BrokerConfig.consumerOffsetUpdateVersionStep.
    static constexpr int64_t kDefaultUpdateVersionStep = 500;

    using QueueOffsets = std::vector<std::pair<int32_t, int64_t>>; // queueId → next offset

    explicit ConsumerOffsetManager(int64_t updateVersionStep = kDefaultUpdateVersionStep);

    // Records the next offset `group` consumes from `topic` queue `queueId` (Java commitOffset;
    // a smaller offset than stored is accepted, as in Java). Every updateVersionStep-th commit
    // moves the data version on. `clientHost` is for diagnostics only.
    void commitOffset(const std::string &clientHost, const std::string &group, const std::string &topic,
                      int32_t queueId, int64_t offset);
    // The committed offset, or -1 when there is none.
    int64_t queryOffset(const std::string &group, const std::string &topic, int32_t queueId) const;
    // Every queue of topic@group (file order); empty when none.
    QueueOffsets queryOffsets(const std::string &group, const std::string &topic) const;
    // The whole table, "topic@group" → offsets, in file order.
    std::vector<std::pair<std::string, QueueOffsets>> offsetTable() const;
    size_t size() const;

    std::set<std::string> whichTopicByConsumer(const std::string &group) const;
    std::set<std::string> whichGroupByTopic(const std::string &topic) const;
    // group → topics, in the order Java's getGroupTopicMap() (a HashMap of HashSets) iterates.
    std::vector<std::pair<std::string, std::vector<std::string>>> groupTopicMap() const;

    // A reset done by the broker (Java's assignResetOffset, INVOKE_BROKER_TO_RESET_OFFSET with
    // useServerSideResetOffset): commits `offset` and remembers it as pending until the group's
    // next pull or pop of that queue takes it (takeResetOffset), so that the consumers' commits of
    // their old position (hasOffsetReset) are refused meanwhile. Pending resets live in memory
    // only, as in Java.
    void assignResetOffset(const std::string &group, const std::string &topic, int32_t queueId, int64_t offset);
    bool hasOffsetReset(const std::string &group, const std::string &topic, int32_t queueId) const;
    // The pending reset offset, removed; nullopt when none (Java queryThenEraseResetOffset).
    std::optional<int64_t> takeResetOffset(const std::string &group, const std::string &topic, int32_t queueId);

    // Drops every topic@group entry of `group` (Java removeOffset).
    void removeOffset(const std::string &group);
    bool removeConsumerOffset(const std::string &topicAtGroup);
    // Copies the offsets of topic@srcGroup to topic@destGroup (Java cloneOffset).
    void cloneOffset(const std::string &srcGroup, const std::string &destGroup, const std::string &topic);

    DataVersion dataVersion() const;

    // Splits "topic@group" as Java's split("@") does; false unless it gives exactly two parts.
    static bool splitKey(const std::string &topicAtGroup, std::string &topic, std::string &group);

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;

private:
    using Queues = JavaOrderedMap<int32_t, int64_t>;
    using Table = JavaOrderedMap<std::string, Queues>;
    static Table newTable() { return Table(JavaMapShape::concurrent(512)); }
    static Queues newQueues() { return Queues(JavaMapShape::concurrent(32)); }
    static QueueOffsets toOffsets(const Queues &queues);
    // Requires: mutex_ held.
    std::vector<std::pair<std::string, std::vector<std::string>>> groupTopicMapLocked() const;

    const int64_t updateVersionStep_;
    Table table_ = newTable();
    std::map<std::pair<std::string, int32_t>, int64_t> pendingResets_; // ("topic@group", queueId) → offset
    DataVersion dataVersion_ = DataVersion::create();
    BeanExtras rootExtras_;
    int64_t versionChangeCounter_ = 0;
};

} // namespace mqdesk::store
