#include "broker/common/json.h"

#include "broker/common/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace mqdesk::common {

// ---- JsonObject -------------------------------------------------------------------------------

JsonObject::JsonObject() = default;
JsonObject::JsonObject(const JsonObject &other) = default;
JsonObject::JsonObject(JsonObject &&other) noexcept = default;
JsonObject &JsonObject::operator=(const JsonObject &other) = default;
JsonObject &JsonObject::operator=(JsonObject &&other) noexcept = default;
JsonObject::~JsonObject() = default;

std::vector<JsonMember>::const_iterator JsonObject::begin() const { return members_.begin(); }
std::vector<JsonMember>::const_iterator JsonObject::end() const { return members_.end(); }

const JsonValue *JsonObject::find(std::string_view key) const
{
    for (const JsonMember &member : members_) {
        if (member.key == key)
            return &member.value;
    }
    return nullptr;
}

JsonValue *JsonObject::find(std::string_view key)
{
    return const_cast<JsonValue *>(static_cast<const JsonObject *>(this)->find(key));
}

JsonValue &JsonObject::set(std::string key, JsonValue value)
{
    if (JsonValue *existing = find(key)) {
        *existing = std::move(value);
        return *existing;
    }
    members_.push_back(JsonMember{std::move(key), std::move(value), false});
    return members_.back().value;
}

JsonValue &JsonObject::setIntegerKey(int64_t key, JsonValue value)
{
    std::string text = std::to_string(key);
    for (JsonMember &member : members_) {
        if (member.key == text) {
            member.value = std::move(value);
            return member.value;
        }
    }
    members_.push_back(JsonMember{std::move(text), std::move(value), true});
    return members_.back().value;
}

void JsonObject::append(JsonMember member) { members_.push_back(std::move(member)); }

bool JsonObject::remove(std::string_view key)
{
    const auto it = std::find_if(members_.begin(), members_.end(),
                                 [key](const JsonMember &member) { return member.key == key; });
    if (it == members_.end())
        return false;
    members_.erase(it);
    return true;
}

void JsonObject::sortByKey()
{
    std::stable_sort(members_.begin(), members_.end(), [](const JsonMember &a, const JsonMember &b) {
        return compareJavaStrings(a.key, b.key) < 0;
    });
}

bool JsonObject::operator==(const JsonObject &other) const { return members_ == other.members_; }

// ---- JsonValue --------------------------------------------------------------------------------

bool JsonValue::asBool(bool fallback) const { return isBool() ? std::get<bool>(v_) : fallback; }

int64_t JsonValue::asInteger(int64_t fallback) const
{
    return isInteger() ? std::get<int64_t>(v_) : fallback;
}

double JsonValue::asDouble(double fallback) const
{
    if (isDouble())
        return std::get<double>(v_);
    if (isInteger())
        return static_cast<double>(std::get<int64_t>(v_));
    return fallback;
}

const std::string &JsonValue::asString() const
{
    static const std::string empty;
    return isString() ? std::get<std::string>(v_) : empty;
}

const JsonArray &JsonValue::asArray() const
{
    static const JsonArray empty;
    return isArray() ? std::get<JsonArray>(v_) : empty;
}

const JsonObject &JsonValue::asObject() const
{
    static const JsonObject empty;
    return isObject() ? std::get<JsonObject>(v_) : empty;
}

const JsonValue *JsonValue::find(std::string_view key) const
{
    return isObject() ? std::get<JsonObject>(v_).find(key) : nullptr;
}

const char *JsonValue::typeName(Type type)
{
    switch (type) {
    case Type::Null:
        return "null";
    case Type::Bool:
        return "boolean";
    case Type::Integer:
        return "integer";
    case Type::Double:
        return "number";
    case Type::String:
        return "string";
    case Type::Array:
        return "array";
    case Type::Object:
        return "object";
    }
    return "?";
}

// ---- helpers ----------------------------------------------------------------------------------

namespace {

void appendUnicodeEscape(std::string &out, unsigned value)
{
    static const char digits[] = "0123456789ABCDEF"; // fastjson's IOUtils.DIGITS: upper case
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4)
        out += digits[(value >> shift) & 0xF];
}

// The two-character escape fastjson uses for `c`, or nullptr.
const char *shortEscape(unsigned char c)
{
    switch (c) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\b': return "\\b";
    case '\t': return "\\t";
    case '\n': return "\\n";
    case '\f': return "\\f";
    case '\r': return "\\r";
    default: return nullptr;
    }
}

// fastjson's writeStringWithDoubleQuote without BrowserCompatible/WriteSlashAsSpecial: short
// escapes for " \ \b \t \n \f \r; \uXXXX for other controls, U+007F..U+009F, U+2028, U+2029.
void appendQuoted(std::string &out, std::string_view s)
{
    out += '"';
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (const char *escape = shortEscape(c)) {
            out += escape;
            ++i;
        } else if (c < 0x20 || c == 0x7F) {
            appendUnicodeEscape(out, c);
            ++i;
        } else if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
        } else {
            // Escape U+0080..U+009F and U+2028/U+2029; copy other (even malformed) bytes as is.
            size_t next = i;
            const char32_t cp = decodeUtf8CodePoint(s, next);
            if ((cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029)
                appendUnicodeEscape(out, static_cast<unsigned>(cp));
            else
                out.append(s.substr(i, next - i));
            i = next;
        }
    }
    out += '"';
}

enum class Style { Pretty, FastjsonCompact, StrictCompact };

void appendIndent(std::string &out, int level) { out.append(static_cast<size_t>(level), '\t'); }

void writeValue(std::string &out, const JsonValue &value, Style style, int level);

void writeObject(std::string &out, const JsonObject &object, Style style, int level)
{
    out += '{';
    bool first = true;
    for (const JsonMember &member : object) {
        if (member.value.isNull() && style != Style::StrictCompact)
            continue; // fastjson's default: WriteMapNullValue off
        if (!first)
            out += ',';
        first = false;
        if (member.integerKey && style != Style::StrictCompact) {
            out += member.key; // MapSerializer writes a non-String key as a number, no newline
        } else {
            if (style == Style::Pretty) {
                out += '\n';
                appendIndent(out, level + 1);
            }
            appendQuoted(out, member.key);
        }
        out += ':';
        writeValue(out, member.value, style, level + 1);
    }
    // MapSerializer/JavaBeanSerializer break the line before `}` whenever the map has entries
    // (null-valued ones included), so `{0:1` + newline + `}`.
    if (style == Style::Pretty && !object.empty()) {
        out += '\n';
        appendIndent(out, level);
    }
    out += '}';
}

void writeValue(std::string &out, const JsonValue &value, Style style, int level)
{
    switch (value.type()) {
    case JsonValue::Type::Null:
        out += "null";
        return;
    case JsonValue::Type::Bool:
        out += value.asBool() ? "true" : "false";
        return;
    case JsonValue::Type::Integer:
        out += std::to_string(value.asInteger());
        return;
    case JsonValue::Type::Double:
        out += formatJavaDouble(value.asDouble());
        return;
    case JsonValue::Type::String:
        appendQuoted(out, value.asString());
        return;
    case JsonValue::Type::Array: {
        // Inline in every style: CollectionCodec (sets) and primitive arrays do not break lines;
        // an element object is indented relative to the array's own level.
        out += '[';
        bool first = true;
        for (const JsonValue &element : value.asArray()) {
            if (!first)
                out += ',';
            first = false;
            writeValue(out, element, style, level);
        }
        out += ']';
        return;
    }
    case JsonValue::Type::Object:
        writeObject(out, value.asObject(), style, level);
        return;
    }
}

} // namespace

std::string toFastjsonPretty(const JsonValue &value)
{
    std::string out;
    writeValue(out, value, Style::Pretty, 0);
    return out;
}

std::string toFastjsonCompact(const JsonValue &value)
{
    std::string out;
    writeValue(out, value, Style::FastjsonCompact, 0);
    return out;
}

std::string toJsonCompact(const JsonValue &value)
{
    std::string out;
    writeValue(out, value, Style::StrictCompact, 0);
    return out;
}

std::string formatJavaDouble(double value)
{
    if (!std::isfinite(value))
        return "null";
    if (value == 0)
        return std::signbit(value) ? "-0.0" : "0.0";
    // Shortest round-trip digits in scientific form, e.g. "-1.2345e+02".
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    const std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
    const size_t e = text.find('e');
    std::string_view mantissa = text.substr(0, e);
    const int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
    std::string sign;
    if (!mantissa.empty() && mantissa.front() == '-') {
        sign = "-";
        mantissa.remove_prefix(1);
    }
    std::string digits;
    for (char c : mantissa) {
        if (c != '.')
            digits += c;
    }
    const double magnitude = std::fabs(value);
    if (magnitude >= 1e-3 && magnitude < 1e7) {
        const int pointPosition = exponent + 1; // digits before the decimal point
        if (pointPosition <= 0)
            return sign + "0." + std::string(static_cast<size_t>(-pointPosition), '0') + digits;
        const auto before = static_cast<size_t>(pointPosition);
        if (before >= digits.size())
            return sign + digits + std::string(before - digits.size(), '0') + ".0";
        return sign + digits.substr(0, before) + "." + digits.substr(before);
    }
    const std::string fraction = digits.size() > 1 ? digits.substr(1) : "0";
    return sign + digits.substr(0, 1) + "." + fraction + "E" + std::to_string(exponent);
}

int compareJavaStrings(std::string_view a, std::string_view b)
{
    // Code points compare like UTF-16 code units except that supplementary characters (as
    // surrogates 0xD800..0xDBFF) sort below U+E000..U+FFFF.
    const auto unit = [](char32_t cp) -> uint32_t {
        if (cp >= 0x10000)
            return 0xD800 + ((cp - 0x10000) >> 10);
        return cp;
    };
    size_t i = 0;
    size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const char32_t ca = decodeUtf8CodePoint(a, i);
        const char32_t cb = decodeUtf8CodePoint(b, j);
        if (ca == cb)
            continue;
        const uint32_t ua = unit(ca);
        const uint32_t ub = unit(cb);
        if (ua != ub)
            return ua < ub ? -1 : 1;
        // Same high surrogate: the low surrogates order like the code points.
        return ca < cb ? -1 : 1;
    }
    if (i < a.size())
        return 1;
    if (j < b.size())
        return -1;
    return 0;
}

} // namespace mqdesk::common
