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
