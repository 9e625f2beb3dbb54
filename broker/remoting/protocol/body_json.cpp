#include "broker/remoting/protocol/body_json.h"

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
