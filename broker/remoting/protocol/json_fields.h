#pragma once

// Reading the JSON bodies of the protocol: typed member lookups that record the first error
// with the member's path ("consumerDataSet[0].groupName: expected a string"). Absent members
// keep their defaults, as fastjson leaves bean fields untouched.

#include "broker/common/json.h"

#include <string>

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

// Parses `body` as JSON (fastjson dialect) expecting an object; error names the position.
bool parseJsonObject(std::string_view body, common::JsonValue &out, std::string &error);

} // namespace mqdesk::remoting
