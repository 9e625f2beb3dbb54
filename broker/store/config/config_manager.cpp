#include "broker/store/config/config_manager.h"

namespace mqdesk::store {

namespace {

std::string joinPath(const std::string &dir, const std::string &name)
{
    if (dir.empty())
        return name;
    return dir.back() == '/' ? dir + name : dir + "/" + name;
}

} // namespace

ConfigManager::ConfigManager(std::string fileName) : fileName_(std::move(fileName)) {}

ConfigManager::~ConfigManager() = default;

bool ConfigManager::load(const std::string &configDir, std::string &error)
{
    std::lock_guard persistLock(persistMutex_);
    auto file = std::make_unique<ConfigFile>(joinPath(configDir, fileName_));
    const auto decoder = [this](const common::JsonValue &root, std::string &decodeError) {
        std::lock_guard lock(mutex_);
        return decodeLocked(root, decodeError);
    };
    ConfigLoadInfo info;
    std::unique_ptr<ConfigFile> alternate;
    if (!alternateName_.empty()) {
        alternate = std::make_unique<ConfigFile>(joinPath(configDir, alternateName_));
        if (!alternate->load(decoder, info, error))
            return false;
    }
    if (info.source == ConfigSource::None && !file->load(decoder, info, error))
        return false;
    file_ = std::move(file);
    alternate_ = std::move(alternate);
    lastLoad_ = std::move(info);
    return true;
}

void ConfigManager::setConfigDir(const std::string &configDir)
{
    std::lock_guard persistLock(persistMutex_);
    file_ = std::make_unique<ConfigFile>(joinPath(configDir, fileName_));
    if (!alternateName_.empty())
        alternate_ = std::make_unique<ConfigFile>(joinPath(configDir, alternateName_));
}

void ConfigManager::setAlternateFileName(std::string fileName)
{
    std::lock_guard persistLock(persistMutex_);
    alternateName_ = std::move(fileName);
}

bool ConfigManager::persist(std::string &error)
{
    std::lock_guard persistLock(persistMutex_);
    if (!file_) {
        error = "cannot persist " + fileName_ + ": no config directory was set (load() it first)";
        return false;
    }
    std::string content;
    {
        std::lock_guard lock(mutex_);
        content = format(encodeLocked());
    }
    return file_->store(content, error) && (!alternate_ || alternate_->store(content, error));
}

std::string ConfigManager::encode() const
{
    std::lock_guard lock(mutex_);
    return format(encodeLocked());
}

bool ConfigManager::decode(std::string_view json, std::string &error)
{
    const common::JsonParseResult parsed = common::parseJson(json);
    if (!parsed.ok()) {
        error = fileName_ + ": " + parsed.error;
        return false;
    }
    std::lock_guard lock(mutex_);
    return decodeLocked(parsed.value, error);
}

std::string ConfigManager::configFilePath() const
{
    std::lock_guard persistLock(persistMutex_);
    return file_ ? file_->path() : std::string();
}

ConfigLoadInfo ConfigManager::lastLoad() const
{
    std::lock_guard persistLock(persistMutex_);
    return lastLoad_;
}

} // namespace mqdesk::store
