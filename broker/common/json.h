#pragma once

// JSON values, a parser and writers for RocketMQ's config files (store-format §8.1).
//
// RocketMQ writes them with fastjson 1.2.83, whose output is not always strict JSON: Integer map
// keys come out unquoted (`{0:250,1:251}`). The parser accepts strict JSON plus the dialect
// fastjson writes and reads; the writers reproduce fastjson's pretty layout byte for byte and
// also produce compact output (fastjson's, or strict JSON).
//
// Parser dialect, beyond RFC 8259: unquoted integer keys (`{0:1,-1:2}`, kept as integer keys),
// unquoted identifier keys (`{name:1}`), single-quoted strings, a trailing comma before `}` or
// `]`, fastjson's number suffixes (`12L`, `1.5D`), escapes `\'`, `\v` and `\xHH`, raw control
// characters inside strings, a UTF-8 byte-order mark, and TAB/CR/FF/BS as blanks. Errors give a
// 1-based line and column (columns count UTF-8 characters; a TAB is one column).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace mqdesk::common {

class JsonValue;
struct JsonMember;

using JsonArray = std::vector<JsonValue>;

// An object keeping its members in insertion order with unique keys. Maps are written in their
// Java iteration order and beans sorted by name, so order is data here, and equality compares it.
class JsonObject
{
public:
    JsonObject();
    JsonObject(const JsonObject &other);
    JsonObject(JsonObject &&other) noexcept;
    JsonObject &operator=(const JsonObject &other);
    JsonObject &operator=(JsonObject &&other) noexcept;
    ~JsonObject();

    // Defined below JsonMember: clang instantiates C++20's constexpr vector members eagerly.
    size_t size() const;
    bool empty() const;
    const std::vector<JsonMember> &members() const { return members_; }
    std::vector<JsonMember>::const_iterator begin() const;
    std::vector<JsonMember>::const_iterator end() const;

    // Linear lookups: objects holding large tables are turned into typed tables by their readers.
    const JsonValue *find(std::string_view key) const;
    JsonValue *find(std::string_view key);
    bool contains(std::string_view key) const { return find(key) != nullptr; }

    // Replaces the value of an existing key in place (position and key kind kept) or appends.
    JsonValue &set(std::string key, JsonValue value);
    // The same for an Integer map key, which fastjson writes unquoted.
    JsonValue &setIntegerKey(int64_t key, JsonValue value);
    // Requires: `member.key` is not present (the parser checks duplicates itself).
    void append(JsonMember member);
    bool remove(std::string_view key);

    // Orders members by key like Java's String.compareTo (UTF-16 code units), which is how
    // fastjson's SortField orders bean properties. Stable for equal keys.
    void sortByKey();

    bool operator==(const JsonObject &other) const;

private:
    std::vector<JsonMember> members_;
};

class JsonValue
{
public:
    enum class Type { Null, Bool, Integer, Double, String, Array, Object };

    JsonValue() = default;
    JsonValue(std::nullptr_t) {}
    JsonValue(bool value) : v_(value) {}
    template<typename T>
        requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
    JsonValue(T value) : v_(static_cast<int64_t>(value))
    {}
    JsonValue(double value) : v_(value) {}
    JsonValue(const char *value) : v_(std::string(value)) {}
    JsonValue(std::string_view value) : v_(std::string(value)) {}
    JsonValue(std::string value) : v_(std::move(value)) {}
    JsonValue(JsonArray value) : v_(std::move(value)) {}
    JsonValue(JsonObject value) : v_(std::move(value)) {}

    Type type() const { return static_cast<Type>(v_.index()); }
    bool isNull() const { return type() == Type::Null; }
    bool isBool() const { return type() == Type::Bool; }
    bool isInteger() const { return type() == Type::Integer; }
    bool isDouble() const { return type() == Type::Double; }
    bool isNumber() const { return isInteger() || isDouble(); }
    bool isString() const { return type() == Type::String; }
    bool isArray() const { return type() == Type::Array; }
    bool isObject() const { return type() == Type::Object; }

    // Accessors of the wrong type return the fallback (or an empty string, array or object)
    // rather than throwing: callers check the type when it matters.
    bool asBool(bool fallback = false) const;
    int64_t asInteger(int64_t fallback = 0) const;
    double asDouble(double fallback = 0) const; // integers convert
    const std::string &asString() const;
    const JsonArray &asArray() const;
    const JsonObject &asObject() const;
    // Requires: isArray() / isObject().
    JsonArray &array() { return std::get<JsonArray>(v_); }
    JsonObject &object() { return std::get<JsonObject>(v_); }

    // Member lookup on an object; nullptr for a missing key or a non-object.
    const JsonValue *find(std::string_view key) const;

    static const char *typeName(Type type);
    const char *typeName() const { return typeName(type()); }

    bool operator==(const JsonValue &other) const { return v_ == other.v_; }

private:
    // The index order matches Type.
    std::variant<std::monostate, bool, int64_t, double, std::string, JsonArray, JsonObject> v_;
};

struct JsonMember
{
    std::string key; // an integer key in decimal when integerKey is set
    JsonValue value;
    bool integerKey = false;

    bool operator==(const JsonMember &other) const = default;
};

inline size_t JsonObject::size() const { return members_.size(); }
inline bool JsonObject::empty() const { return members_.empty(); }

struct JsonParseResult
{
    JsonValue value;
    std::string error; // empty on success, else "line L, column C: what was wrong"
    int line = 0;      // 1-based position of the error
    int column = 0;
    std::string message; // the error without its position

    bool ok() const { return error.empty(); }
};

JsonParseResult parseJson(std::string_view text);

// fastjson's PrettyFormat, as RocketMQ's ConfigManager.persist writes (§8.1): one TAB per level,
// no blank after `:`, `\n` line ends, no final newline; each String-keyed member on its own line,
// Integer-keyed members inline (`{0:250,1:251` + newline + `}`); `{}` for an empty object; arrays
// inline (fastjson's CollectionCodec and primitive arrays, the only arrays in config files);
// members whose value is null omitted. Bean properties must already be sorted (sortByKey).
std::string toFastjsonPretty(const JsonValue &value);
// fastjson's compact form (RemotingSerializable.toJson(obj, false)): the same without line
// breaks and indentation. Not strict JSON when an object has integer keys.
std::string toFastjsonCompact(const JsonValue &value);
// Strict compact JSON (RFC 8259): integer keys quoted, null members kept.
std::string toJsonCompact(const JsonValue &value);

// A double as Java's Double.toString / fastjson's RyuDouble prints it: shortest round-trip
// digits, plain notation in [1e-3, 1e7) with at least one fraction digit ("2.0"), else
// "1.0E-5" style. NaN and infinities, which fastjson writes as null, give "null".
std::string formatJavaDouble(double value);

// Java String.compareTo on UTF-8 input: compares UTF-16 code units.
int compareJavaStrings(std::string_view a, std::string_view b);

} // namespace mqdesk::common
