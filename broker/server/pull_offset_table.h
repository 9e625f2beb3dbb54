#pragma once

// Where each group's last pull of a queue ended (Java ConsumerOffsetManager's pullOffsetTable):
// the next offset a pull answered, per group, topic and queue, in memory only. GET_CONSUME_STATS
// reports it as each queue's pullOffset, from which the 5.x tools compute messages in flight
// (pulled but not yet committed); without it mqadmin's consumerProgress shows negative figures.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace mqdesk::server {

class PullOffsetTable
{
public:
    void commit(const std::string &group, const std::string &topic, int32_t queueId, int64_t nextOffset);
    // The next offset of the last pull, or -1 when the group has not pulled the queue.
    int64_t query(const std::string &group, const std::string &topic, int32_t queueId) const;
    // Forgets every queue of topic for group (an offset reset moves the group elsewhere).
    void clear(const std::string &group, const std::string &topic);
    // Forgets the topic for every group (the topic was deleted).
    void clearTopic(const std::string &topic);

private:
    using Key = std::tuple<std::string, std::string, int32_t>; // group, topic, queue id
    mutable std::mutex mutex_;
    std::map<Key, int64_t> table_;
};

} // namespace mqdesk::server
