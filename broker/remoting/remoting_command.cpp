#include "broker/remoting/remoting_command.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <unordered_map>

namespace mqdesk::remoting {

namespace {

// Indexed by the LanguageCode byte.
constexpr std::string_view kLanguageNames[] = {
    "JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY",
    "OTHER", "HTTP", "GO", "PHP", "OMS", "RUST", "NODE_JS",
};

std::atomic<uint32_t> nextRequestId{0};

} // namespace

std::string_view languageCodeName(LanguageCode language)
{
    const auto index = static_cast<size_t>(language);
    return index < std::size(kLanguageNames) ? kLanguageNames[index] : std::string_view();
}

std::optional<LanguageCode> languageCodeFromName(std::string_view name)
{
    const auto it = std::find(std::begin(kLanguageNames), std::end(kLanguageNames), name);
    if (it == std::end(kLanguageNames))
        return std::nullopt;
    return static_cast<LanguageCode>(it - std::begin(kLanguageNames));
}

std::string_view serializeTypeName(SerializeType type)
{
    return type == SerializeType::Json ? "JSON" : "ROCKETMQ";
}

ExtFields::ExtFields(std::initializer_list<Entry> entries)
{
    for (const Entry &entry : entries)
        set(entry.first, entry.second);
}

const std::string *ExtFields::find(std::string_view key) const
{
    for (const Entry &entry : entries_) {
        if (entry.first == key)
            return &entry.second;
    }
    return nullptr;
}

std::string ExtFields::value(std::string_view key, std::string_view fallback) const
{
    const std::string *found = find(key);
    return found ? *found : std::string(fallback);
}

void ExtFields::set(std::string key, std::string value)
{
    for (Entry &entry : entries_) {
        if (entry.first == key) {
            entry.second = std::move(value);
            return;
        }
    }
    entries_.emplace_back(std::move(key), std::move(value));
}

void ExtFields::assign(std::vector<Entry> entries)
{
    entries_.clear();
    entries_.reserve(entries.size());
    // Headers hold a dozen entries, where set()'s scan is cheapest; only a hash keeps a hostile
    // header of many thousands linear.
    constexpr size_t kScanLimit = 32;
    if (entries.size() <= kScanLimit) {
        for (Entry &entry : entries)
            set(std::move(entry.first), std::move(entry.second));
        return;
    }
    std::unordered_map<std::string_view, size_t> positions;
    positions.reserve(entries.size());
    for (Entry &entry : entries) {
        const auto found = positions.find(entry.first);
        if (found != positions.end()) {
            entries_[found->second].second = std::move(entry.second);
            continue;
        }
        entries_.push_back(std::move(entry));
        // The key's bytes live in entries_, which was reserved up front and never reallocates.
        positions.emplace(entries_.back().first, entries_.size() - 1);
    }
}

bool ExtFields::remove(std::string_view key)
{
    const auto it = std::find_if(entries_.begin(), entries_.end(),
                                 [key](const Entry &entry) { return entry.first == key; });
    if (it == entries_.end())
        return false;
    entries_.erase(it);
    return true;
}

RemotingCommand RemotingCommand::createRequest(int32_t code, ExtFields extFields)
{
    RemotingCommand command;
    command.code = code;
    // Unsigned so that the wrap past INT32_MAX is defined; the id is reinterpreted as Java's int.
    command.opaque = static_cast<int32_t>(nextRequestId.fetch_add(1, std::memory_order_relaxed));
    command.extFields = std::move(extFields);
    return command;
}

RemotingCommand RemotingCommand::createResponse(const RemotingCommand &request, int32_t code,
                                                std::optional<std::string> remark)
{
    RemotingCommand response;
    response.code = code;
    response.opaque = request.opaque;
    response.flag = kResponseFlag;
    response.remark = std::move(remark);
    response.serializeType = request.serializeType;
    return response;
}

std::string describeCommand(const RemotingCommand &command)
{
    std::string text = command.isResponse() ? "response " : "request ";
    text += command.isResponse() ? describeResponseCode(command.code)
                                 : describeRequestCode(command.code);
    text += " opaque=" + std::to_string(command.opaque);
    text += " flag=" + std::to_string(command.flag);
    const std::string_view language = languageCodeName(command.language);
    text += ' ';
    text += language.empty() ? "language#" + std::to_string(static_cast<int>(command.language))
                             : std::string(language);
    text += " v" + std::to_string(command.version);
    text += ' ';
    text += serializeTypeName(command.serializeType);
    text += " ext=" + std::to_string(command.extFields.size());
    text += " body=" + std::to_string(command.body.size());
    if (command.remark)
        text += " remark=\"" + *command.remark + '"';
    return text;
}

std::string mqVersionName(int32_t ordinal)
{
    constexpr int32_t kV4_0_0_Snapshot = 212;
    constexpr int32_t kReleases = 200; // 4.0.0 .. 5.9.9
    if (ordinal < kV4_0_0_Snapshot)
        return {};
    const int32_t release = (ordinal - kV4_0_0_Snapshot) / 2;
    if (release >= kReleases)
        return "HIGHER_VERSION";
    std::string name = "V" + std::to_string(4 + release / 100) + "_" + std::to_string(release / 10 % 10) + "_"
                       + std::to_string(release % 10);
    if ((ordinal - kV4_0_0_Snapshot) % 2 == 0)
        name += "_SNAPSHOT";
    return name;
}

} // namespace mqdesk::remoting
