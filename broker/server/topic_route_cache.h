#pragma once

// The cluster's routes of topics as this broker learns them from the NameServer (Java's
// TopicRouteInfoManager): what server-side queue assignment (QUERY_ASSIGNMENT) divides among a
// group's clients, across every broker of the cluster. An answer is kept for `ttlMillis` (Java
// refreshes every 30 s); a topic no NameServer knows is remembered as unknown for as long, so a
// burst of requests asks once. At most kMaxTopics entries (all dropped when full: a client
// cannot grow it without end). Thread-safe; `fetch` runs outside the lock.

#include "broker/remoting/protocol/route_data.h"

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace mqdesk::server {

class TopicRouteCache
{
public:
    using Fetch = std::function<std::optional<remoting::TopicRouteData>(const std::string &topic)>;
    static constexpr size_t kMaxTopics = 10000;

    TopicRouteCache(Fetch fetch, int64_t ttlMillis) : fetch_(std::move(fetch)), ttlMillis_(ttlMillis) {}

    std::optional<remoting::TopicRouteData> get(const std::string &topic, int64_t nowMillis);
    void clear();

private:
    struct Entry
    {
        int64_t expiresMillis = 0;
        std::optional<remoting::TopicRouteData> route;
    };

    const Fetch fetch_;
    const int64_t ttlMillis_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_; // guarded by mutex_
};

} // namespace mqdesk::server
