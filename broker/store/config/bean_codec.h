#pragma once

// Reading and writing Java beans as fastjson does, for the config managers.
//
// Two things make a re-written file match the one read:
//  * properties this code does not know (from a newer RocketMQ) are kept and written back;
//  * properties an older RocketMQ did not have yet (e.g. `attributes`, `stateVersion` in
//    2019-era files) stay absent on re-write while they hold their default value, so a file
//    read and written again without changes comes out byte for byte the same.
// Beans created in memory (not read) have no such history and are written complete.

#include "broker/common/json.h"
#include "broker/store/config/java_ordered_map.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::store {

struct BeanExtras
{
    common::JsonObject unknown;      // properties not read into typed fields, kept verbatim
    std::vector<std::string> absent; // known properties the source lacked (or held null)

    bool isAbsent(std::string_view name) const;
    // Compares content only: `absent` records where a bean came from, not what it holds, so a
    // bean read back from a file equals the one that was written.
    bool operator==(const BeanExtras &other) const { return unknown == other.unknown; }
};

// Reads the properties of one bean. The first problem is kept as the error, naming the bean's
// path (e.g. `topicConfigTable["TopicTest"].perm`); later reads then do nothing. Conversions
// follow fastjson's leniency: numbers from numeric strings, booleans from 0/1 and "true"/"false".
class BeanReader
{
public:
    BeanReader(const common::JsonValue &value, std::string path);

    bool ok() const { return error_.empty(); }
    const std::string &error() const { return error_; }
    const std::string &path() const { return path_; }
    std::string memberPath(std::string_view name) const;

    // Each read marks `name` as known; a missing or null property leaves `out` unchanged and is
    // remembered as absent. They return whether the property was present.
    bool readString(std::string_view name, std::string &out);
    bool readInt32(std::string_view name, int32_t &out);
    bool readInt64(std::string_view name, int64_t &out);
    bool readBool(std::string_view name, bool &out);
    // The raw value (nullptr when missing or null) for nested beans, maps and arrays.
    const common::JsonValue *take(std::string_view name);
    // Reads a nested value with `read(value, path, error)` when present; its error becomes the
    // reader's.
    template<typename Read>
    bool readWith(std::string_view name, Read &&read)
    {
        const common::JsonValue *value = take(name);
        if (value == nullptr)
            return false;
        std::string error;
        if (!read(*value, memberPath(name), error))
            fail(std::move(error));
        return true;
    }
    // For a derived property (a getter without a setter, e.g. `dead`): ignored on read, but its
    // presence is remembered.
    void skip(std::string_view name);

    void fail(std::string message);
    // Unknown properties and absent known ones.
    BeanExtras finish();
    // finish() into `extras`; false with `error` set when any property failed to read.
    bool finish(BeanExtras &extras, std::string &error)
    {
        extras = finish();
        if (!ok())
            error = this->error();
        return ok();
    }

private:
    const common::JsonObject *object_ = nullptr;
    std::string path_;
    std::string error_;
    std::vector<std::string> taken_;
    std::vector<std::string> absent_;
};

// Collects the properties of one bean, then sorts them by name (fastjson's SortField).
class BeanWriter
{
public:
    explicit BeanWriter(const BeanExtras &extras) : extras_(extras) {}

    // Writes `name` unless the source lacked it and `isDefault` says the value is the one Java
    // would hold without it. Pass isDefault = true for properties that should follow the source
    // only (e.g. a root `dataVersion` an older RocketMQ never wrote). Null values are not written.
    void put(std::string_view name, common::JsonValue value, bool isDefault = false);
    common::JsonValue finish();

private:
    const BeanExtras &extras_;
    common::JsonObject object_;
};

// Type checks and conversions shared by readers of maps (the values of offset tables and the
// like). Return false with `error` naming `path`.
bool jsonToInt64(const common::JsonValue &value, const std::string &path, int64_t &out, std::string &error);
bool jsonToInt32(const common::JsonValue &value, const std::string &path, int32_t &out, std::string &error);
bool jsonToString(const common::JsonValue &value, const std::string &path, std::string &out, std::string &error);
// `{…}` or an error naming `path`; a null value reads as an empty object.
const common::JsonObject *jsonObjectAt(const common::JsonValue &value, const std::string &path,
                                       std::string &error);
// Path of a map entry for error messages: path["key"].
std::string entryPath(const std::string &path, std::string_view key);

// Calls `each(member, memberPath, error)` for every non-null member of the object `value`;
// stops at the first that returns false.
template<typename Each>
bool forEachMember(const common::JsonValue &value, const std::string &path, std::string &error, Each &&each)
{
    const common::JsonObject *object = jsonObjectAt(value, path, error);
    if (object == nullptr)
        return false;
    for (const common::JsonMember &member : *object) {
        if (!member.value.isNull() && !each(member, entryPath(path, member.key), error))
            return false;
    }
    return true;
}

// A Java Map<String, String> property such as `attributes` (a HashMap in RocketMQ).
using StringMap = JavaOrderedMap<std::string, std::string>;
// Reads into `out` (cleared first, keeping its shape); a null value reads as empty.
bool readStringMap(const common::JsonValue &value, const std::string &path, StringMap &out, std::string &error);
common::JsonValue stringMapToJson(const StringMap &map);

} // namespace mqdesk::store
