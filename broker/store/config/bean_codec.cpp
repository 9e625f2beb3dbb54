#include "broker/store/config/bean_codec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace mqdesk::store {

using common::JsonObject;
using common::JsonValue;

namespace {

std::string describe(const JsonValue &value)
{
    if (value.isString())
        return "the string \"" + value.asString() + "\"";
    return std::string("a value of type ") + value.typeName();
}

bool parseInteger(std::string_view text, int64_t &out)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

} // namespace

bool BeanExtras::isAbsent(std::string_view name) const
{
    return std::find(absent.begin(), absent.end(), name) != absent.end();
}

std::string entryPath(const std::string &path, std::string_view key)
{
    return path + "[\"" + std::string(key) + "\"]";
}

bool jsonToInt64(const JsonValue &value, const std::string &path, int64_t &out, std::string &error)
{
    if (value.isInteger()) {
        out = value.asInteger();
        return true;
    }
    if (value.isDouble()) {
        const double d = value.asDouble();
        if (std::trunc(d) == d && std::fabs(d) < 9.2e18) {
            out = static_cast<int64_t>(d);
            return true;
        }
    }
    if (value.isString() && parseInteger(value.asString(), out))
        return true;
    error = path + ": expected an integer, found " + describe(value);
    return false;
}

bool jsonToInt32(const JsonValue &value, const std::string &path, int32_t &out, std::string &error)
{
    int64_t wide = 0;
    if (!jsonToInt64(value, path, wide, error))
        return false;
    if (wide < std::numeric_limits<int32_t>::min() || wide > std::numeric_limits<int32_t>::max()) {
        error = path + ": " + std::to_string(wide) + " does not fit a Java int";
        return false;
    }
    out = static_cast<int32_t>(wide);
    return true;
}

bool jsonToString(const JsonValue &value, const std::string &path, std::string &out, std::string &error)
{
    if (value.isString()) {
        out = value.asString();
        return true;
    }
    if (value.isInteger() || value.isBool()) { // fastjson turns scalars into their text
        out = common::toJsonCompact(value);
        return true;
    }
    error = path + ": expected a string, found " + describe(value);
    return false;
}

const JsonObject *jsonObjectAt(const JsonValue &value, const std::string &path, std::string &error)
{
    static const JsonObject empty;
    if (value.isNull())
        return &empty;
    if (!value.isObject()) {
        error = path + ": expected an object, found " + describe(value);
        return nullptr;
    }
    return &value.asObject();
}

bool readStringMap(const JsonValue &value, const std::string &path, StringMap &out, std::string &error)
{
    const JsonObject *object = jsonObjectAt(value, path, error);
    if (object == nullptr)
        return false;
    out.clear();
    for (const common::JsonMember &member : *object) {
        if (member.value.isNull())
            continue;
        std::string text;
        if (!jsonToString(member.value, entryPath(path, member.key), text, error))
            return false;
        out.append(member.key, std::move(text));
    }
    return true;
}

JsonValue stringMapToJson(const StringMap &map)
{
    JsonObject object;
    for (const auto &[key, value] : map)
        object.append(common::JsonMember{key, JsonValue(value), false});
    return JsonValue(std::move(object));
}

// ---- BeanReader -------------------------------------------------------------------------------

BeanReader::BeanReader(const JsonValue &value, std::string path) : path_(std::move(path))
{
    object_ = jsonObjectAt(value, path_.empty() ? std::string("the document") : path_, error_);
}

std::string BeanReader::memberPath(std::string_view name) const
{
    return path_.empty() ? std::string(name) : path_ + "." + std::string(name);
}

const JsonValue *BeanReader::take(std::string_view name)
{
    if (!ok())
        return nullptr;
    taken_.emplace_back(name);
    const JsonValue *value = object_->find(name);
    if (value == nullptr || value->isNull()) {
        absent_.emplace_back(name);
        return nullptr;
    }
    return value;
}

void BeanReader::skip(std::string_view name) { take(name); }

void BeanReader::fail(std::string message)
{
    if (ok())
        error_ = std::move(message);
}

bool BeanReader::readString(std::string_view name, std::string &out)
{
    const JsonValue *value = take(name);
    if (value == nullptr)
        return false;
    std::string error;
    if (!jsonToString(*value, memberPath(name), out, error))
        fail(std::move(error));
    return true;
}

bool BeanReader::readInt32(std::string_view name, int32_t &out)
{
    const JsonValue *value = take(name);
    if (value == nullptr)
        return false;
    std::string error;
    if (!jsonToInt32(*value, memberPath(name), out, error))
        fail(std::move(error));
    return true;
}

bool BeanReader::readInt64(std::string_view name, int64_t &out)
{
    const JsonValue *value = take(name);
    if (value == nullptr)
        return false;
    std::string error;
    if (!jsonToInt64(*value, memberPath(name), out, error))
        fail(std::move(error));
    return true;
}

bool BeanReader::readBool(std::string_view name, bool &out)
{
    const JsonValue *value = take(name);
    if (value == nullptr)
        return false;
    if (value->isBool()) {
        out = value->asBool();
    } else if (value->isInteger() && (value->asInteger() == 0 || value->asInteger() == 1)) {
        out = value->asInteger() == 1;
    } else if (value->isString() && (value->asString() == "true" || value->asString() == "false")) {
        out = value->asString() == "true";
    } else {
        fail(memberPath(name) + ": expected true or false, found " + describe(*value));
    }
    return true;
}

BeanExtras BeanReader::finish()
{
    BeanExtras extras;
    if (!ok())
        return extras;
    for (const common::JsonMember &member : *object_) {
        if (std::find(taken_.begin(), taken_.end(), member.key) == taken_.end())
            extras.unknown.append(member);
    }
    extras.absent = std::move(absent_);
    return extras;
}

// ---- BeanWriter -------------------------------------------------------------------------------

void BeanWriter::put(std::string_view name, JsonValue value, bool isDefault)
{
    if (value.isNull() || (isDefault && extras_.isAbsent(name)))
        return;
    object_.set(std::string(name), std::move(value));
}

JsonValue BeanWriter::finish()
{
    for (const common::JsonMember &member : extras_.unknown) {
        if (!object_.contains(member.key))
            object_.append(member);
    }
    object_.sortByKey();
    return JsonValue(std::move(object_));
}

} // namespace mqdesk::store
