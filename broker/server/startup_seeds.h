#pragma once

// Topics and subscription groups a broker creates as it starts, before it says it is ready:
// mqdesk-broker's --topic and --group, for the test fixtures in integrations/ that want a fresh
// broker with their topics in place (no admin round trip, no ACL signature to make). Each is
// created as UPDATE_AND_CREATE_TOPIC / UPDATE_AND_CREATE_SUBSCRIPTIONGROUP would create it, and
// an existing one of the same name is overwritten. Threading: apply before clients connect.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::server {

class BrokerController;

struct TopicSeed
{
    std::string name;
    int32_t queues = 8; // mqadmin updateTopic's default read and write queue count
    std::string messageType; // message.type (FIFO, DELAY, …); empty: none, which clients read as NORMAL
};

struct GroupSeed
{
    std::string name;
    bool orderly = false; // consumeMessageOrderly: a FIFO group for 5.x clients
};

// "NAME[:QUEUES[:TYPE]]", e.g. "orders:4:FIFO". False with `error` naming the part that is wrong
// (the caller names the text it came from).
bool parseTopicSeed(std::string_view text, TopicSeed &out, std::string &error);
// "NAME[:orderly]".
bool parseGroupSeed(std::string_view text, GroupSeed &out, std::string &error);

// Creates them on `broker` (started). False with `error` naming the first one refused; those
// before it stay created.
bool applySeeds(BrokerController &broker, const std::vector<TopicSeed> &topics, const std::vector<GroupSeed> &groups,
                std::string &error);

} // namespace mqdesk::server
