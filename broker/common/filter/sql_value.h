#pragma once

// The values an SQL92 filter expression computes with, and the Java conversions RocketMQ's
// evaluator applies between them (filter module: ConstantExpression, ComparisonExpression.__compare
// with convertStringExpressions on, which SelectorParser.parse always sets).
//
// Kinds mirror the Java classes: Int (Integer: a decimal literal that fits 32 bits), Long, Double,
// String (every message property), Bool, Null (a missing property, the NULL literal, "unknown").
// Error stands for a Java exception thrown while evaluating (a property "abc" compared with 3):
// it ends the whole evaluation, and the broker treats the message as not matching.

#include "broker/common/java_strings.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mqdesk::filter {

struct Value
{
    enum class Kind { Null, Bool, Int, Long, Double, String, Error };

    Kind kind = Kind::Null;
    bool b = false;
    int64_t i = 0; // Int and Long
    double d = 0;
    std::string s; // String; Error: what went wrong

    static Value null() { return {}; }
    static Value boolean(bool v) { Value r; r.kind = Kind::Bool; r.b = v; return r; }
    static Value int32(int32_t v) { Value r; r.kind = Kind::Int; r.i = v; return r; }
    static Value int64(int64_t v) { Value r; r.kind = Kind::Long; r.i = v; return r; }
    static Value real(double v) { Value r; r.kind = Kind::Double; r.d = v; return r; }
    static Value string(std::string v) { Value r; r.kind = Kind::String; r.s = std::move(v); return r; }
    static Value error(std::string why) { Value r; r.kind = Kind::Error; r.s = std::move(why); return r; }

    bool isNull() const { return kind == Kind::Null; }
    bool isError() const { return kind == Kind::Error; }
    bool isNumber() const { return kind == Kind::Int || kind == Kind::Long || kind == Kind::Double; }
    bool isTrue() const { return kind == Kind::Bool && b; }
    bool isFalse() const { return kind == Kind::Bool && !b; }

    // As Java's toString (error messages): 'quoted' strings, TRUE/FALSE/NULL, numbers.
    std::string toString() const;
};

// Java's Integer.valueOf / Long.valueOf / Double.valueOf / Boolean.valueOf on a property string.
using common::parseJavaBoolean;
using common::parseJavaInt;
using common::parseJavaLong;
std::optional<double> parseJavaDouble(std::string_view text);

// Java's Double.toString for the numbers error messages show (shortest form, "1.0E10" style).
std::string javaDoubleString(double value);

// ComparisonExpression.__compare(lv, rv, convertStringExpressions = true): the sign of lv - rv
// after Java's widening and string conversion; -1 for kinds Java does not convert (a Bool and a
// number); an Error value when a conversion throws. Neither side may be Null or Error.
struct CompareResult
{
    int sign = 0;
    std::optional<std::string> error;
};
CompareResult compareValues(const Value &left, const Value &right);

// Value.equals in Java: same class and same value (Integer 3 is not Long 3).
bool javaEquals(const Value &left, const Value &right);

} // namespace mqdesk::filter
