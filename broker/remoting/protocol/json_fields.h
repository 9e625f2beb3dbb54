#pragma once

// Reading the JSON bodies of the protocol — the one reader every body codec of
// broker/remoting/protocol uses: JsonFieldReader's typed member lookups, which record the first
// error with the member's path ("consumerDataSet[0].groupName: expected a string"), and the
// bodyjson helpers the route and registration bodies walk their nested tables with (paths,
// fastjson's absent-or-null members, string arrays, {key: [strings]} tables). Absent members keep
// their defaults, as fastjson leaves bean fields untouched. (The store's config files have their
// own BeanReader, store/config/bean_codec.h: it also keeps unknown members so that a file is
// written back byte for byte.) The JSON itself is common/json.h, hand-written because RocketMQ's
// bodies are fastjson's dialect, not strict JSON: see its header.

#include "broker/common/json.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::remoting {

class JsonFieldReader
{
public:
    // `object` must outlive the reader; `path` prefixes error messages ("" for the root).
    JsonFieldReader(const common::JsonValue &object, std::string path, std::string &error);

    bool isObject() const { return object_.isObject(); }
    void readString(std::string_view key, std::string &out);
    void readInt(std::string_view key, int32_t &out);
    void readLong(std::string_view key, int64_t &out);
    void readBool(std::string_view key, bool &out);
    void readDouble(std::string_view key, double &out);
    // The member or nullptr (no error when absent).
    const common::JsonValue *member(std::string_view key) const { return object_.find(key); }
    std::string pathOf(std::string_view key) const;
    // `key` as an array, or nullptr (an error when present but not an array).
    const common::JsonArray *array(std::string_view key);

    bool ok() const { return error_.empty(); }
    void fail(const std::string &path, const std::string &what);

private:
    const common::JsonValue &object_;
    std::string path_;
    std::string &error_;
};

// Parses `body` as JSON (fastjson dialect) expecting an object; error names the position. It
// clears `error` first, so the readers that follow (which keep the first error) start clean
// when a caller reuses one string for several bodies.
bool parseJsonObject(std::string_view body, common::JsonValue &out, std::string &error);

} // namespace mqdesk::remoting

namespace mqdesk::remoting::bodyjson {


std::string memberPath(std::string_view path, std::string_view key);
std::string indexPath(std::string_view path, size_t index);
// Sets `error` to "<path>: <what>" and returns false.
bool fail(std::string &error, std::string_view path, std::string_view what);
// A member that is present and not null (fastjson omits nulls; a null leaves the default).
const common::JsonValue *member(const common::JsonValue &object, std::string_view key);
bool requireObject(const common::JsonValue &value, std::string_view path, std::string &error);
bool readStringArray(const common::JsonValue &array, std::string_view path, std::vector<std::string> &out,
                     std::string &error);
common::JsonValue stringArray(const std::vector<std::string> &values);
// A `{key: [strings]}` table such as filterServerTable or clusterAddrTable.
common::JsonValue stringListTable(const std::map<std::string, std::vector<std::string>> &table);
bool readStringListTable(const common::JsonValue &object, std::string_view key, std::string_view path,
                         std::map<std::string, std::vector<std::string>> &out, std::string &error);

// A `{name: bean}` table of beans with `JsonValue toJson() const` and
// `static bool fromJson(const JsonValue &, const std::string &path, T &, std::string &error)`
// (the static-topic mappings, keyed by topic or broker name).
template<typename Bean>
common::JsonValue beanTable(const std::map<std::string, Bean> &table)
{
    common::JsonObject object;
    for (const auto &[name, bean] : table)
        object.set(name, bean.toJson());
    return object;
}

// Reads member `key` of `object` (absent or null: nothing) into `out`.
template<typename Bean>
bool readBeanTable(const common::JsonValue &object, std::string_view key, std::string_view path,
                   std::map<std::string, Bean> &out, std::string &error)
{
    const common::JsonValue *table = member(object, key);
    if (!table)
        return true;
    const std::string tablePath = memberPath(path, key);
    if (!requireObject(*table, tablePath, error))
        return false;
    for (const common::JsonMember &entry : table->asObject()) {
        if (entry.value.isNull())
            continue;
        Bean bean;
        if (!Bean::fromJson(entry.value, memberPath(tablePath, entry.key), bean, error))
            return false;
        out[entry.key] = std::move(bean);
    }
    return true;
}

} // namespace mqdesk::remoting::bodyjson
