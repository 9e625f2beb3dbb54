#include "broker/common/filter/sql_value.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <locale.h>

namespace mqdesk::filter {

namespace {

int compareDoubles(double left, double right)
{
    // Double.compareTo: -0.0 < 0.0, NaN above everything and equal to itself.
    if (left < right)
        return -1;
    if (left > right)
        return 1;
    const bool leftNaN = std::isnan(left);
    const bool rightNaN = std::isnan(right);
    if (leftNaN || rightNaN)
        return leftNaN == rightNaN ? 0 : (leftNaN ? 1 : -1);
    const bool leftNegZero = std::signbit(left);
    const bool rightNegZero = std::signbit(right);
    return leftNegZero == rightNegZero ? 0 : (leftNegZero ? -1 : 1);
}

template <typename T>
int sign3(T left, T right)
{
    return left < right ? -1 : (left > right ? 1 : 0);
}

std::string numberFormatError(std::string_view text)
{
    return "java.lang.NumberFormatException: For input string: \"" + std::string(text) + "\"";
}

} // namespace


std::optional<double> parseJavaDouble(std::string_view text)
{
    // Double.valueOf: String.trim() (every char <= ' '), a sign, NaN / Infinity, or digits with an
    // optional point and exponent and an optional f/F/d/D suffix. (Hex floats are not taken.)
    while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ')
        text.remove_prefix(1);
    while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ')
        text.remove_suffix(1);
    std::string clean;
    size_t at = 0;
    if (at < text.size() && (text[at] == '+' || text[at] == '-'))
        clean.push_back(text[at++]);
    const std::string_view rest = text.substr(at);
    if (rest == "NaN")
        return std::nan("");
    if (rest == "Infinity")
        return clean == "-" ? -HUGE_VAL : HUGE_VAL;
    size_t digits = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
        clean.push_back(text[at++]);
        ++digits;
    }
    if (at < text.size() && text[at] == '.') {
        clean.push_back(text[at++]);
        while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
            clean.push_back(text[at++]);
            ++digits;
        }
    }
    if (digits == 0)
        return std::nullopt;
    if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
        clean.push_back(text[at++]);
        if (at < text.size() && (text[at] == '+' || text[at] == '-'))
            clean.push_back(text[at++]);
        size_t exponentDigits = 0;
        while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
            clean.push_back(text[at++]);
            ++exponentDigits;
        }
        if (exponentDigits == 0)
            return std::nullopt;
    }
    if (at < text.size() && (text[at] == 'f' || text[at] == 'F' || text[at] == 'd' || text[at] == 'D'))
        ++at;
    if (at != text.size())
        return std::nullopt;
    // strtod in the C locale: overflow gives ±HUGE_VAL and underflow 0, as Java; the process
    // locale (Qt sets it from the environment) must not change the decimal point.
    static const locale_t cLocale = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(0));
    return strtod_l(clean.c_str(), nullptr, cLocale);
}

std::string javaDoubleString(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "Infinity" : "-Infinity";
    char buffer[64];
    const double magnitude = std::fabs(value);
    if (magnitude == 0 || (magnitude >= 1e-3 && magnitude < 1e7)) {
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
        std::string text(buffer, result.ptr);
        if (text.find('.') == std::string::npos)
            text += ".0";
        return text;
    }
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    std::string text(buffer, result.ptr);
    const size_t e = text.find('e');
    std::string mantissa = text.substr(0, e);
    if (mantissa.find('.') == std::string::npos)
        mantissa += ".0";
    std::string exponent = text.substr(e + 1);
    if (!exponent.empty() && exponent.front() == '+')
        exponent.erase(0, 1);
    const bool negative = !exponent.empty() && exponent.front() == '-';
    std::string digits = exponent.substr(negative ? 1 : 0);
    while (digits.size() > 1 && digits.front() == '0')
        digits.erase(0, 1);
    return mantissa + "E" + (negative ? "-" : "") + digits;
}

std::string Value::toString() const
{
    switch (kind) {
    case Kind::Null: return "NULL";
    case Kind::Bool: return b ? "TRUE" : "FALSE";
    case Kind::Int:
    case Kind::Long: return std::to_string(i);
    case Kind::Double: return javaDoubleString(d);
    case Kind::String: {
        std::string out = "'";
        for (char c : s) {
            if (c == '\'')
                out.push_back('\'');
            out.push_back(c);
        }
        return out + "'";
    }
    case Kind::Error: return "<error: " + s + ">";
    }
    return {};
}

bool javaEquals(const Value &left, const Value &right)
{
    if (left.kind != right.kind)
        return false;
    switch (left.kind) {
    case Value::Kind::Null: return true;
    case Value::Kind::Bool: return left.b == right.b;
    case Value::Kind::Int:
    case Value::Kind::Long: return left.i == right.i;
    case Value::Kind::Double: return compareDoubles(left.d, right.d) == 0; // doubleToLongBits equality
    case Value::Kind::String: return left.s == right.s;
    case Value::Kind::Error: return false;
    }
    return false;
}

CompareResult compareValues(const Value &left, const Value &right)
{
    using Kind = Value::Kind;
    CompareResult out;
    if (left.kind == right.kind) {
        switch (left.kind) {
        case Kind::Bool: out.sign = sign3<int>(left.b, right.b); break;
        case Kind::Int:
        case Kind::Long: out.sign = sign3(left.i, right.i); break;
        case Kind::Double: out.sign = compareDoubles(left.d, right.d); break;
        // String.compareTo; byte order of UTF-8 is code point order (UTF-16 order differs only
        // between supplementary characters and U+E000..U+FFFF).
        case Kind::String: out.sign = left.s.compare(right.s) < 0 ? -1 : (left.s == right.s ? 0 : 1); break;
        default: out.sign = 0; break;
        }
        return out;
    }
    // Java widens the left or right operand, or converts a string to the other side's class.
    const auto fromString = [&](const std::string &text, Kind to, Value &converted) -> bool {
        switch (to) {
        case Kind::Bool: converted = Value::boolean(parseJavaBoolean(text)); return true;
        case Kind::Int:
            if (const auto v = parseJavaInt(text)) { converted = Value::int32(*v); return true; }
            break;
        case Kind::Long:
            if (const auto v = parseJavaLong(text)) { converted = Value::int64(*v); return true; }
            break;
        case Kind::Double:
            if (const auto v = parseJavaDouble(text)) { converted = Value::real(*v); return true; }
            break;
        default: break;
        }
        out.error = numberFormatError(text);
        return false;
    };
    const auto asDouble = [](const Value &v) { return v.kind == Kind::Double ? v.d : static_cast<double>(v.i); };
    switch (left.kind) {
    case Kind::Bool:
        if (right.kind == Kind::String)
            out.error = "java.lang.ClassCastException: java.lang.Boolean cannot be cast to java.lang.String";
        else
            out.sign = -1;
        return out;
    case Kind::Int:
    case Kind::Long:
    case Kind::Double:
        if (right.kind == Kind::String) {
            Value converted;
            if (!fromString(right.s, left.kind, converted))
                return out;
            return compareValues(left, converted);
        }
        if (!right.isNumber()) {
            out.sign = -1;
            return out;
        }
        if (left.kind == Kind::Double || right.kind == Kind::Double)
            out.sign = compareDoubles(asDouble(left), asDouble(right));
        else
            out.sign = sign3(left.i, right.i);
        return out;
    case Kind::String: {
        if (right.kind == Kind::Bool || right.isNumber()) {
            Value converted;
            if (!fromString(left.s, right.kind, converted))
                return out;
            return compareValues(converted, right);
        }
        out.sign = -1;
        return out;
    }
    default: out.sign = -1; return out;
    }
}

} // namespace mqdesk::filter
