#pragma once

// topicQueueMapping.json (§8): RocketMQ 5's TopicQueueMappingManager
// (B/topic/TopicQueueMappingManager.java) — this broker's part of every static topic
// (common/topic_queue_mapping.h): `{"dataVersion":{…},"topicQueueMappingInfoMap":{topic:
// TopicQueueMappingDetail}}`. UPDATE_AND_CREATE_STATIC_TOPIC writes it, DELETE_TOPIC_IN_BROKER
// removes a topic from it, and the request processors read it to turn logical queues into
// physical ones.

#include "broker/common/topic_queue_mapping.h"
#include "broker/store/config/config_manager.h"
#include "broker/store/config/data_version.h"

#include <map>
#include <optional>
#include <string>

namespace mqdesk::store {

class TopicQueueMappingManager : public ConfigManager
{
public:
    static constexpr const char *kFileName = "topicQueueMapping.json";

    TopicQueueMappingManager();

    // Java's updateTopicQueueMapping with isClean=false: every chain must be well formed; a topic
    // not mapped yet takes `detail` as is; with `force` the old chains the new detail lacks are
    // kept beside it; otherwise the new epoch must not be older, the scope must not change, an
    // equal epoch must carry every queue the old one had with the same leader, and a queue the
    // new detail lacks keeps its old chain. "" on success (then the version moves on; the caller
    // persists), else why the mapping was refused. `detail.bname` must be this broker's name.
    std::string update(common::TopicQueueMappingDetail detail, bool force);
    // False when the topic had no mapping.
    bool remove(const std::string &topic);

    std::optional<common::TopicQueueMappingDetail> find(const std::string &topic) const;
    std::map<std::string, common::TopicQueueMappingDetail> all() const;
    bool empty() const;
    DataVersion dataVersion() const;

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;

private:
    std::map<std::string, common::TopicQueueMappingDetail> table_;
    DataVersion dataVersion_ = DataVersion::create();
};

} // namespace mqdesk::store
