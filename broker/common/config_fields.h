#pragma once

// Typed settings read from broker.conf (Java .properties) into a config struct: one table of
// name → (setter, getter) per struct. Shared by MessageStoreConfig and BrokerConfig so both
// parse and print values the same way: integers in range, strict booleans, strings as given.

#include <charconv>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mqdesk::common {

template <typename Config>
struct ConfigField
{
    // Returns an error ("expected an integer"), empty on success.
    std::function<std::string(Config &, std::string_view)> set;
    std::function<std::string(const Config &)> get;
};

template <typename Int>
std::string parseConfigInt(std::string_view text, Int &out, Int minimum)
{
    Int value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return "expected an integer";
    if (value < minimum)
        return "must be at least " + std::to_string(minimum);
    out = value;
    return {};
}

// Java's Boolean.parseBoolean is lenient (anything but "true" is false); we are strict so a
// typo is reported instead of silently turning a feature off.
inline std::string parseConfigBool(std::string_view text, bool &out)
{
    if (text == "true" || text == "false") {
        out = text == "true";
        return {};
    }
    return "expected true or false";
}

template <typename Config, typename Int>
ConfigField<Config> intField(Int Config::*member, Int minimum)
{
    return {[member, minimum](Config &c, std::string_view v) { return parseConfigInt(v, c.*member, minimum); },
            [member](const Config &c) { return std::to_string(c.*member); }};
}

template <typename Config>
ConfigField<Config> boolField(bool Config::*member)
{
    return {[member](Config &c, std::string_view v) { return parseConfigBool(v, c.*member); },
            [member](const Config &c) { return std::string(c.*member ? "true" : "false"); }};
}

template <typename Config>
ConfigField<Config> stringField(std::string Config::*member)
{
    return {[member](Config &c, std::string_view v) {
                c.*member = std::string(v);
                return std::string();
            },
            [member](const Config &c) { return c.*member; }};
}

// What applying broker.conf properties to one config gave.
struct ConfigApplyResult
{
    std::string error; // the first bad value, naming key and value; empty on success
    std::vector<std::string> unknownKeys; // keys this config does not have (another one may)
};

// Applies every key `fields` knows through `config.set(key, value)` (which validates the whole
// config), stopping at the first error; collects the others as unknown.
template <typename Config, typename Fields>
ConfigApplyResult applyConfigProperties(Config &config, const Fields &fields,
                                        const std::map<std::string, std::string> &properties)
{
    ConfigApplyResult result;
    for (const auto &[key, value] : properties) {
        if (!fields.contains(key)) {
            result.unknownKeys.push_back(key);
            continue;
        }
        if (std::string error = config.set(key, value); !error.empty()) {
            result.error = std::move(error);
            return result;
        }
    }
    return result;
}

// Every field with its current value, in the table's (name) order.
template <typename Config, typename Fields>
std::vector<std::pair<std::string, std::string>> configProperties(const Config &config, const Fields &fields)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto &[key, field] : fields)
        out.emplace_back(key, field.get(config));
    return out;
}

} // namespace mqdesk::common
