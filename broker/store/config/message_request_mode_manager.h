#pragma once

// messageRequestMode.json (§8): RocketMQ 5's MessageRequestModeManager
// (B/loadbalance/MessageRequestModeManager.java) — per topic and consumer group, whether the
// group's clients pull or pop (what `mqadmin setConsumeMode` sets with SET_MESSAGE_REQUEST_MODE):
// `{"messageRequestModeMap":{topic:{group:{"consumerGroup":g,"mode":"POP","popShareQueueNum":n,"topic":t}}}}`.
// Unknown properties are kept and written back.

#include "broker/store/config/bean_codec.h"
#include "broker/store/config/config_manager.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mqdesk::store {

// SetMessageRequestModeRequestBody: the request's body and the file's entry.
struct MessageRequestMode
{
    std::string topic;
    std::string consumerGroup;
    std::string mode = "PULL"; // MessageRequestMode: PULL or POP
    int32_t popShareQueueNum = 0;
    BeanExtras extras;

    bool isPop() const { return mode == "POP"; }
    common::JsonValue toJson() const;
    static bool fromJson(const common::JsonValue &value, const std::string &path, MessageRequestMode &out,
                         std::string &error);
};

class MessageRequestModeManager : public ConfigManager
{
public:
    static constexpr const char *kFileName = "messageRequestMode.json";

    MessageRequestModeManager();

    std::optional<MessageRequestMode> get(const std::string &topic, const std::string &consumerGroup) const;
    std::vector<MessageRequestMode> all() const;
    // Adds or replaces the entry of mode.topic/mode.consumerGroup. Memory only.
    void put(const MessageRequestMode &mode);

protected:
    bool decodeLocked(const common::JsonValue &root, std::string &error) override;
    common::JsonValue encodeLocked() const override;

private:
    using Groups = JavaOrderedMap<std::string, MessageRequestMode>;
    using Table = JavaOrderedMap<std::string, Groups>;
    static Table newTable() { return Table(JavaMapShape::concurrent()); }

    Table table_ = newTable();
    BeanExtras rootExtras_;
};

} // namespace mqdesk::store
