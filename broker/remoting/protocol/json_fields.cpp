#include "broker/remoting/protocol/json_fields.h"

namespace mqdesk::remoting {

using common::JsonValue;

JsonFieldReader::JsonFieldReader(const JsonValue &object, std::string path, std::string &error)
    : object_(object), path_(std::move(path)), error_(error)
{
    if (!object_.isObject())
        fail(path_.empty() ? std::string("body") : path_, std::string("expected an object, found ") + object_.typeName());
}

std::string JsonFieldReader::pathOf(std::string_view key) const
{
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void JsonFieldReader::fail(const std::string &path, const std::string &what)
{
    if (error_.empty())
        error_ = path + ": " + what;
}

void JsonFieldReader::readString(std::string_view key, std::string &out)
{
    const JsonValue *value = member(key);
    if (!value || value->isNull())
        return;
    if (!value->isString())
        return fail(pathOf(key), std::string("expected a string, found ") + value->typeName());
    out = value->asString();
}

void JsonFieldReader::readLong(std::string_view key, int64_t &out)
{
    const JsonValue *value = member(key);
    if (!value || value->isNull())
        return;
    if (value->isString()) { // fastjson converts "12" to a number field
        try {
            size_t used = 0;
            const long long parsed = std::stoll(value->asString(), &used);
            if (used == value->asString().size()) {
                out = parsed;
                return;
            }
        } catch (...) {
        }
    }
    if (!value->isInteger())
        return fail(pathOf(key), std::string("expected an integer, found ") + value->typeName());
    out = value->asInteger();
}

void JsonFieldReader::readInt(std::string_view key, int32_t &out)
{
    int64_t wide = out;
    readLong(key, wide);
    if (wide < INT32_MIN || wide > INT32_MAX)
        return fail(pathOf(key), "integer out of range: " + std::to_string(wide));
    out = static_cast<int32_t>(wide);
}

void JsonFieldReader::readBool(std::string_view key, bool &out)
{
    const JsonValue *value = member(key);
    if (!value || value->isNull())
        return;
    if (value->isString() && (value->asString() == "true" || value->asString() == "false")) {
        out = value->asString() == "true";
        return;
    }
    if (!value->isBool())
        return fail(pathOf(key), std::string("expected a boolean, found ") + value->typeName());
    out = value->asBool();
}

void JsonFieldReader::readDouble(std::string_view key, double &out)
{
    const JsonValue *value = member(key);
    if (!value || value->isNull())
        return;
    if (!value->isNumber())
        return fail(pathOf(key), std::string("expected a number, found ") + value->typeName());
    out = value->asDouble();
}

const common::JsonArray *JsonFieldReader::array(std::string_view key)
{
    const JsonValue *value = member(key);
    if (!value || value->isNull())
        return nullptr;
    if (!value->isArray()) {
        fail(pathOf(key), std::string("expected an array, found ") + value->typeName());
        return nullptr;
    }
    return &value->asArray();
}

bool parseJsonObject(std::string_view body, JsonValue &out, std::string &error)
{
    error.clear(); // a body's readers keep the first error: one left from an earlier call would stick
    common::JsonParseResult parsed = common::parseJson(body);
    if (!parsed.ok()) {
        error = "body is not JSON: " + parsed.error;
        return false;
    }
    if (!parsed.value.isObject()) {
        error = std::string("body: expected a JSON object, found ") + parsed.value.typeName();
        return false;
    }
    out = std::move(parsed.value);
    return true;
}

} // namespace mqdesk::remoting

namespace mqdesk::remoting::bodyjson {

using common::JsonArray;
using common::JsonObject;
using common::JsonValue;

std::string memberPath(std::string_view path, std::string_view key)
{
    if (path.empty())
        return std::string(key);
    std::string out(path);
    out += '.';
    out += key;
    return out;
}

std::string indexPath(std::string_view path, size_t index)
{
    return std::string(path) + "[" + std::to_string(index) + "]";
}

bool fail(std::string &error, std::string_view path, std::string_view what)
{
    error = path.empty() ? std::string(what) : std::string(path) + ": " + std::string(what);
    return false;
}

const JsonValue *member(const JsonValue &object, std::string_view key)
{
    const JsonValue *value = object.find(key);
    return value && !value->isNull() ? value : nullptr;
}

bool requireObject(const JsonValue &value, std::string_view path, std::string &error)
{
    return value.isObject() ||
           fail(error, path.empty() ? std::string_view("body") : path,
                std::string("expected an object, found ") + value.typeName());
}

bool readStringArray(const JsonValue &array, std::string_view path, std::vector<std::string> &out,
                     std::string &error)
{
    if (!array.isArray())
        return fail(error, path, std::string("expected an array, found ") + array.typeName());
    out.clear();
    out.reserve(array.asArray().size());
    for (size_t i = 0; i < array.asArray().size(); ++i) {
        const JsonValue &element = array.asArray()[i];
        if (!element.isString())
            return fail(error, indexPath(path, i), std::string("expected a string, found ") + element.typeName());
        out.push_back(element.asString());
    }
    return true;
}

JsonValue stringArray(const std::vector<std::string> &values)
{
    JsonArray array;
    array.reserve(values.size());
    for (const std::string &value : values)
        array.emplace_back(value);
    return array;
}

JsonValue stringListTable(const std::map<std::string, std::vector<std::string>> &table)
{
    JsonObject object;
    for (const auto &[key, values] : table)
        object.set(key, stringArray(values));
    return object;
}

bool readStringListTable(const JsonValue &object, std::string_view key, std::string_view path,
                         std::map<std::string, std::vector<std::string>> &out, std::string &error)
{
    out.clear();
    const JsonValue *value = member(object, key);
    if (!value)
        return true;
    const std::string tablePath = memberPath(path, key);
    if (!requireObject(*value, tablePath, error))
        return false;
    for (const common::JsonMember &entry : value->asObject()) {
        std::vector<std::string> list;
        if (!entry.value.isNull() && !readStringArray(entry.value, memberPath(tablePath, entry.key), list, error))
            return false;
        out[entry.key] = std::move(list);
    }
    return true;
}

} // namespace mqdesk::remoting::bodyjson
