// StoreReader: the files under <store>/config (store-format §8), as text and decoded by the
// broker's config managers.

#include "broker/common/properties_file.h"
#include "broker/store/config/consumer_filter_manager.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/delay_offset_manager.h"
#include "broker/store/config/subscription_group_manager.h"
#include "broker/store/config/topic_config_manager.h"
#include "broker/store/config/topic_queue_mapping_manager.h"
#include "broker/store/reader/store_reader.h"
#include "broker/store/reader/store_reader_util.h"

#include <algorithm>

namespace mqdesk::store {

namespace {

std::shared_ptr<store::ConfigManager> managerFor(std::string_view baseName)
{
    if (baseName == store::TopicConfigManager::kFileName)
        return std::make_shared<store::TopicConfigManager>();
    if (baseName == store::ConsumerOffsetManager::kFileName || baseName == "lmqConsumerOffset.json")
        return std::make_shared<store::ConsumerOffsetManager>();
    if (baseName == "subscriptionGroup.json")
        return std::make_shared<store::SubscriptionGroupManager>();
    if (baseName == "delayOffset.json")
        return std::make_shared<store::DelayOffsetManager>();
    if (baseName == "consumerFilter.json")
        return std::make_shared<store::ConsumerFilterManager>();
    if (baseName == store::TopicQueueMappingManager::kFileName)
        return std::make_shared<store::TopicQueueMappingManager>();
    return nullptr;
}

// The byte offset of a 1-based line and column (columns count UTF-8 characters).
int64_t byteOffsetOf(std::string_view text, int line, int column)
{
    size_t at = 0;
    for (int l = 1; l < line && at < text.size(); ++l) {
        const auto newline = text.find('\n', at);
        if (newline == std::string_view::npos)
            return static_cast<int64_t>(text.size());
        at = newline + 1;
    }
    for (int c = 1; c < column && at < text.size(); ++c) {
        ++at;
        while (at < text.size() && (static_cast<uint8_t>(text[at]) & 0xC0) == 0x80)
            ++at; // continuation bytes belong to the same character
    }
    return static_cast<int64_t>(at);
}

void parseConfig(ConfigFileContent &content)
{
    std::string base = content.name;
    if (base.ends_with(".bak"))
        base.resize(base.size() - 4);
    if (content.name.ends_with(".tmp") || content.name.ends_with(".corrupt")) {
        content.format = ConfigFormat::Unknown; // half-written or set aside on purpose: not data
        return;
    }
    if (base == "timercheck") {
        content.format = ConfigFormat::Binary;
        return;
    }
    if (base.ends_with(".properties")) {
        content.format = ConfigFormat::Properties;
        auto parsed = common::parseProperties(content.text);
        if (!parsed.error.empty()) {
            content.error = "config/" + content.name + ": " + parsed.error;
            return;
        }
        content.properties = std::move(parsed.values);
        content.parsed = true;
        return;
    }
    const bool json = base.ends_with(".json") || base == "timermetrics" || base == "transactionMetrics";
    if (!json)
        return;
    content.format = ConfigFormat::Json;
    // Java's ConfigManager treats an empty file as a missing one (and reads X.bak): not a fault.
    if (content.text.find_first_not_of(" \t\r\n") == std::string::npos)
        return;
    auto parsed = common::parseJson(content.text);
    if (!parsed.ok()) {
        content.error = "config/" + content.name + ": " + parsed.error;
        content.errorOffset = byteOffsetOf(content.text, parsed.line, parsed.column);
        return;
    }
    content.json = std::move(parsed.value);
    if (auto manager = managerFor(base)) {
        std::string error;
        if (!manager->decode(content.text, error)) {
            content.error = "config/" + content.name + ": " + error;
            return;
        }
        content.manager = std::move(manager);
    }
    content.parsed = true;
}

} // namespace

std::vector<ConfigFileContent> StoreReader::configFiles() const
{
    std::vector<std::string> names;
    for (const MappedFileInfo &file : regularFilesIn(root_ + "/config"))
        names.push_back(file.name);
    std::sort(names.begin(), names.end());
    std::vector<ConfigFileContent> out;
    for (const auto &name : names) {
        if (auto content = configFile(name))
            out.push_back(std::move(*content));
    }
    return out;
}

std::optional<ConfigFileContent> StoreReader::configFile(const std::string &name) const
{
    if (name.empty() || name.find('/') != std::string::npos)
        return std::nullopt;
    ConfigFileContent content;
    content.name = name;
    content.path = root_ + "/config/" + name;
    if (!files().readAll(content.path, content.text))
        return std::nullopt;
    content.size = static_cast<int64_t>(content.text.size());
    parseConfig(content);
    return content;
}

} // namespace mqdesk::store
