#pragma once

// The broker's topics (RocketMQ's TopicConfigManager behaviour on top of the topics.json table
// in broker/store/config): the system topics of a fresh broker, topic-name validation, and the
// three ways a topic is created on the fly — a send naming a template topic (TBW102), a retry
// or dead-letter topic for a consumer group, and (local mode) the embedded NameServer asking
// for an unknown topic. Every change is persisted before it is reported, then announced through
// the change listener so the broker re-registers with its NameServers at once.

#include "broker/remoting/protocol/route_data.h"
#include "broker/store/config/topic_config_manager.h"

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace mqdesk::server {

struct BrokerConfig;

inline constexpr const char *kAutoCreateTopicKey = "TBW102";
inline constexpr const char *kScheduleTopic = "SCHEDULE_TOPIC_XXXX";
inline constexpr const char *kSelfTestTopic = "SELF_TEST_TOPIC";
inline constexpr const char *kOffsetMovedEventTopic = "OFFSET_MOVED_EVENT";
inline constexpr const char *kTransHalfTopic = "RMQ_SYS_TRANS_HALF_TOPIC";
inline constexpr const char *kTransOpHalfTopic = "RMQ_SYS_TRANS_OP_HALF_TOPIC";
// RocketMQ 5's timer messages wait here (store-format §12.3); created when timerWheelEnable.
inline constexpr const char *kTimerTopic = "rmq_sys_wheel_timer";
inline constexpr const char *kTransCheckMaxTimeTopic = "TRANS_CHECK_MAX_TIME_TOPIC";
inline constexpr const char *kRetryGroupTopicPrefix = "%RETRY%";
inline constexpr const char *kDlqGroupTopicPrefix = "%DLQ%";

// The most read or write queues a topic may have: each queue is a folder of files and a row in
// every offset table, so one admin request must not be able to ask for millions.
inline constexpr int32_t kMaxQueueNums = 1024;

// Topics producers may not send to (TopicValidator.isNotAllowedSendTopic).
bool isSendForbiddenTopic(std::string_view topic);
// Topics the broker itself owns (admin tools refuse to create or delete them).
bool isSystemTopic(std::string_view topic, const BrokerConfig &config);

// The wire forms of the tables (registration, GET_ALL_TOPIC_CONFIG, GET_ALL_SUBSCRIPTIONGROUP_
// CONFIG). A 4.x DataVersion travels without stateVersion.
remoting::DataVersionData toWireVersion(const store::DataVersion &version);
remoting::TopicConfigData toWireTopicConfig(const store::TopicConfig &topic);

class TopicManager
{
public:
    using ChangeListener = std::function<void()>;

    // `timerWheelEnable` (the store's): whether rmq_sys_wheel_timer is one of the system topics.
    // `enableLmq` (the store's): whether LMQs are topics (see find()).
    TopicManager(const BrokerConfig &config, store::TopicConfigManager &table, bool timerWheelEnable = false,
                 bool enableLmq = false);

    // Adds the system topics a fresh RocketMQ broker has (spec §10) where missing and
    // persists when anything was added. Error names the file.
    bool initialize(std::string &error);
    void setChangeListener(ChangeListener listener);

    // The topic's config; with enableLmq an LMQ ("%LMQ%…", lite topics among them) is a topic of
    // one read-write queue that topics.json does not list (Java's LmqTopicConfigManager).
    std::optional<store::TopicConfig> find(const std::string &topic) const;

    // A send to unknown `topic` naming `templateTopic` (Java createTopicInSendMessageMethod):
    // created with min(queueNums, template's write queues) queues when the template exists and
    // has the INHERIT bit. nullopt otherwise (TOPIC_NOT_EXIST).
    std::optional<store::TopicConfig> createTopicFromTemplate(const std::string &topic,
                                                              const std::string &templateTopic,
                                                              int32_t queueNums, int32_t topicSysFlag);
    // Retry and DLQ topics (Java createTopicInSendMessageBackMethod): returns the existing one or
    // creates it with `queueNums` read/write queues and `perm`.
    std::optional<store::TopicConfig> createTopicIfAbsent(const std::string &topic, int32_t queueNums,
                                                          int32_t perm, int32_t topicSysFlag = 0);
    // The same for many topics at once (a heartbeat naming many groups): topics.json is written
    // once however many were created. Returns whether every topic exists afterwards.
    bool createTopicsIfAbsent(const std::vector<store::TopicConfig> &wanted);
    // Local mode: the embedded NameServer found no route for `topic`. With
    // autoCreateTopicEnable and a valid, non-system name, creates it like a Java producer's
    // first send through TBW102 would: min(4, defaultTopicQueueNums) queues, perm RW.
    bool createTopicForRouteLookup(const std::string &topic);

    // Admin: create or overwrite (UPDATE_AND_CREATE_TOPIC), delete.
    bool updateTopic(const store::TopicConfig &config, std::string &error);
    bool deleteTopic(const std::string &topic, std::string &error);

private:
    bool persistAndAnnounce(std::string &error);

    const BrokerConfig &config_;
    const bool timerWheelEnable_;
    const bool enableLmq_;
    store::TopicConfigManager &table_;
    std::mutex createMutex_; // one creator at a time, so two sends cannot both create a topic
    ChangeListener changed_;
};

} // namespace mqdesk::server
