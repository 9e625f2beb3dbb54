#include "broker/server/topic_route_cache.h"

namespace mqdesk::server {

std::optional<remoting::TopicRouteData> TopicRouteCache::get(const std::string &topic, int64_t nowMillis)
{
    {
        std::lock_guard lock(mutex_);
        if (const auto found = entries_.find(topic); found != entries_.end() && found->second.expiresMillis > nowMillis)
            return found->second.route;
    }
    std::optional<remoting::TopicRouteData> route = fetch_(topic);
    std::lock_guard lock(mutex_);
    if (entries_.size() >= kMaxTopics)
        entries_.clear();
    entries_[topic] = Entry{nowMillis + ttlMillis_, route};
    return route;
}

void TopicRouteCache::clear()
{
    std::lock_guard lock(mutex_);
    entries_.clear();
}

} // namespace mqdesk::server
