#pragma once

// Base of the config managers: RocketMQ's ConfigManager (C/ConfigManager.java) — one JSON file
// under the store's `config/` directory, loaded at start and persisted on change or on a timer.
//
// Threads: every public function may be called from any thread. Lock order: persistMutex_ →
// mutex_. persist() encodes under mutex_ and writes with only persistMutex_ held, so readers and
// writers of the tables never wait for the disk, and two persists never reorder their contents.

#include "broker/common/json.h"
#include "broker/store/config/config_file.h"

#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace mqdesk::store {

class ConfigManager
{
public:
    virtual ~ConfigManager();
    ConfigManager(const ConfigManager &) = delete;
    ConfigManager &operator=(const ConfigManager &) = delete;

    // The file name under the config directory, e.g. "topics.json".
    const std::string &fileName() const { return fileName_; }

    // Loads <configDir>/<fileName()>, or its .bak when that is missing or unusable (§8.1).
    // Neither existing is not an error: the tables stay as they are (empty or defaults).
    // On failure nothing changes and `error` names the file and, for a JSON syntax error, its
    // line:column. Later persist() calls write to this file.
    bool load(const std::string &configDir, std::string &error);
    // Sets the file persist() writes without reading it (a new store).
    void setConfigDir(const std::string &configDir);
    // A second name the same content lives under (Java 5.5 keeps the consumer offsets in
    // lmqConsumerOffset.json instead of consumerOffset.json when enableLmq is on). Before
    // load(): load() then reads that file when it (or its .bak) exists, else fileName(); persist()
    // writes both, so a broker of either setting finds the current content.
    void setAlternateFileName(std::string fileName);
    // Writes the current content crash-safely (ConfigFile::store).
    // Requires: load() or setConfigDir() called before.
    bool persist(std::string &error);

    // The current content, exactly what persist() writes (fastjson's pretty format unless the
    // subclass writes its file otherwise).
    std::string encode() const;
    // Replaces the content with that of `json` (strict JSON or fastjson's dialect). On failure
    // nothing changes; `error` gives line:column for syntax errors.
    bool decode(std::string_view json, std::string &error);

    // The file load() read or persist() writes; empty before either.
    std::string configFilePath() const;
    // Where the last load() found the content and what it had to skip.
    ConfigLoadInfo lastLoad() const;

protected:
    explicit ConfigManager(std::string fileName);

    // Requires: mutex_ held. Reads the whole document into new tables and replaces the current
    // ones only on success (a rejected X must leave nothing behind before X.bak is tried).
    virtual bool decodeLocked(const common::JsonValue &root, std::string &error) = 0;
    // Requires: mutex_ held.
    virtual common::JsonValue encodeLocked() const = 0;
    // How the file is written: fastjson's pretty format, as ConfigManager.persist does; a file
    // Java writes another way (timermetrics) overrides it.
    virtual std::string format(const common::JsonValue &root) const { return common::toFastjsonPretty(root); }

    mutable std::mutex mutex_; // guards the tables of the subclass

private:
    const std::string fileName_;
    mutable std::mutex persistMutex_; // guards file_, alternate_ and lastLoad_
    std::unique_ptr<ConfigFile> file_;
    std::string alternateName_;
    std::unique_ptr<ConfigFile> alternate_;
    ConfigLoadInfo lastLoad_;
};

} // namespace mqdesk::store
