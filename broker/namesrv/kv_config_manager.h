#pragma once

// The namesrv's KV configuration (PUT/GET/DELETE_KV_CONFIG, GET_KVLIST_BY_NAMESPACE; remoting
// spec §5.5): namespace → key → value. Thread-safe.
//
// Kept in memory only: RocketMQ persists it to kvConfig.json, but the one crash-safe file
// writer in the tree is broker/store/config/config_file.h and the namesrv must not depend on
// the store. The embedded namesrv restarts with its broker, which re-registers everything
// that matters; ORDER_TOPIC_CONFIG entries are the only loss, and they are rare.

#include <map>
#include <optional>
#include <shared_mutex>
#include <string>

namespace mqdesk::namesrv {

class KvConfigManager
{
public:
    static constexpr const char *kOrderTopicConfigNamespace = "ORDER_TOPIC_CONFIG";

    void put(const std::string &ns, const std::string &key, const std::string &value);
    std::optional<std::string> get(const std::string &ns, const std::string &key) const;
    // False when the key was absent. A namespace left empty disappears.
    bool remove(const std::string &ns, const std::string &key);
    // nullopt for an unknown namespace (GET_KVLIST_BY_NAMESPACE answers QUERY_NOT_FOUND).
    std::optional<std::map<std::string, std::string>> list(const std::string &ns) const;

private:
    mutable std::shared_mutex mutex_;
    std::map<std::string, std::map<std::string, std::string>> table_; // guarded by mutex_
};

} // namespace mqdesk::namesrv
