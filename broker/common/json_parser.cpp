// The parser of json.h: strict JSON plus fastjson's dialect (see json.h for the list).

#include "broker/common/json.h"
#include "broker/common/text.h"

#include <charconv>
#include <cmath>
#include <unordered_map>

namespace mqdesk::common {

namespace {

constexpr int kMaxDepth = 512; // deeper documents are refused rather than overflowing the stack

bool isBlank(char c)
{
    // fastjson's JSONLexer.isWhitespace: space, \n, \r, \t, \f, \b.
    return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\b';
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool isIdentifierStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

bool isIdentifierPart(char c) { return isIdentifierStart(c) || isDigit(c); }

void appendUtf8(std::string &out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// The character of a one-letter escape (JSON's plus fastjson's \' and \v), or 0.
char simpleEscape(char escape)
{
    switch (escape) {
    case '"': case '\'': case '\\': case '/': return escape;
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'v': return '\v';
    default: return 0;
    }
}

class Parser
{
public:
    explicit Parser(std::string_view text) : text_(text) {}

    JsonParseResult run()
    {
        JsonParseResult result;
        if (text_.substr(0, 3) == "\xEF\xBB\xBF")
            pos_ = 3;
        skipBlanks();
        if (atEnd()) {
            failAt(0, "the document is empty");
        } else if (parseValue(result.value, 0)) {
            skipBlanks();
            if (!atEnd())
                fail("unexpected " + describeHere() + " after the end of the JSON value");
        }
        if (!message_.empty()) {
            result.value = JsonValue();
            result.message = message_;
            locate(errorPos_, result.line, result.column);
            result.error = "line " + std::to_string(result.line) + ", column "
                           + std::to_string(result.column) + ": " + message_;
        }
        return result;
    }

private:
    bool atEnd() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }

    void skipBlanks()
    {
        while (!atEnd() && isBlank(peek()))
            ++pos_;
    }

    bool fail(std::string message) { return failAt(pos_, std::move(message)); }

    bool failAt(size_t pos, std::string message)
    {
        if (message_.empty()) {
            message_ = std::move(message);
            errorPos_ = pos;
        }
        return false;
    }

    std::string describeHere() const
    {
        if (atEnd())
            return "end of input";
        const unsigned char c = static_cast<unsigned char>(peek());
        if (c >= 0x20 && c < 0x7F)
            return std::string("character '") + static_cast<char>(c) + "'";
        static const char digits[] = "0123456789ABCDEF";
        return std::string("byte 0x") + digits[c >> 4] + digits[c & 0xF];
    }

    void locate(size_t pos, int &line, int &column) const
    {
        line = 1;
        column = 1;
        for (size_t i = 0; i < pos && i < text_.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(text_[i]);
            if (c == '\n') {
                ++line;
                column = 1;
            } else if ((c & 0xC0) != 0x80) { // count characters, not continuation bytes
                ++column;
            }
        }
    }

    bool parseValue(JsonValue &out, int depth)
    {
        if (atEnd())
            return fail("unexpected end of input, expected a value");
        const char c = peek();
        if (c == '{')
            return parseObject(out, depth + 1);
        if (c == '[')
            return parseArray(out, depth + 1);
        if (c == '"' || c == '\'') {
            std::string s;
            if (!parseString(s))
                return false;
            out = JsonValue(std::move(s));
            return true;
        }
        if (c == '-' || isDigit(c))
            return parseNumber(out);
        if (isIdentifierStart(c)) {
            const size_t start = pos_;
            while (!atEnd() && isIdentifierPart(peek()))
                ++pos_;
            const std::string_view word = text_.substr(start, pos_ - start);
            if (word == "true")
                out = JsonValue(true);
            else if (word == "false")
                out = JsonValue(false);
            else if (word == "null")
                out = JsonValue();
            else
                return failAt(start, "unexpected word '" + std::string(word) + "', expected a value");
            return true;
        }
        return fail("unexpected " + describeHere() + ", expected a value");
    }

    // The entries of an object or array after its opening bracket, each parsed by `element`,
    // separated by ',' (a trailing ',' before `close` is tolerated, as fastjson does).
    template<typename Element>
    bool parseElements(char close, const char *what, int depth, Element &&element)
    {
        if (depth > kMaxDepth)
            return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
        ++pos_; // the opening bracket
        for (;;) {
            skipBlanks();
            if (!atEnd() && peek() == close) {
                ++pos_;
                return true;
            }
            if (!element())
                return false;
            skipBlanks();
            if (!atEnd() && peek() == ',') {
                ++pos_;
                continue;
            }
            if (!atEnd() && peek() == close)
                continue; // consumed at the top of the loop
            return fail("unexpected " + describeHere() + " inside " + what + ", expected ',' or '" + close + "'");
        }
    }

    bool parseObject(JsonValue &out, int depth)
    {
        // A repeated key keeps its first position and its last value, as a Java map would; the
        // positions are hashed so that an object of many (repeated) keys parses in linear time.
        std::vector<JsonMember> members;
        std::unordered_map<std::string, size_t> positions;
        const bool parsed = parseElements('}', "an object", depth, [&] {
            JsonMember member;
            if (!parseKey(member))
                return false;
            skipBlanks();
            if (atEnd() || peek() != ':')
                return fail("unexpected " + describeHere() + " after the key \"" + member.key + "\", expected ':'");
            ++pos_;
            skipBlanks();
            if (!parseValue(member.value, depth))
                return false;
            const auto [at, inserted] = positions.try_emplace(member.key, members.size());
            if (inserted)
                members.push_back(std::move(member));
            else
                members[at->second].value = std::move(member.value);
            return true;
        });
        if (!parsed)
            return false;
        JsonObject object;
        for (JsonMember &member : members)
            object.append(std::move(member));
        out = JsonValue(std::move(object));
        return true;
    }

    bool parseKey(JsonMember &member)
    {
        const char c = atEnd() ? '\0' : peek();
        if (c == '"' || c == '\'')
            return parseString(member.key);
        const size_t start = pos_;
        if (c == '-' || isDigit(c)) {
            // fastjson writes Integer map keys unquoted; keep them as integers.
            ++pos_;
            while (!atEnd() && isDigit(peek()))
                ++pos_;
            const std::string_view digits = text_.substr(start, pos_ - start);
            int64_t key = 0;
            const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), key);
            if (ec != std::errc() || end != digits.data() + digits.size() || (!atEnd() && isIdentifierPart(peek())))
                return failAt(start, "malformed unquoted integer key");
            member.key = std::to_string(key);
            member.integerKey = true;
            return true;
        }
        if (!isIdentifierStart(c))
            return fail("unexpected " + describeHere() + " inside an object, expected a key");
        while (!atEnd() && isIdentifierPart(peek()))
            ++pos_;
        member.key = std::string(text_.substr(start, pos_ - start));
        return true;
    }

    bool parseArray(JsonValue &out, int depth)
    {
        JsonArray array;
        const bool parsed = parseElements(']', "an array", depth, [&] {
            array.emplace_back();
            return parseValue(array.back(), depth);
        });
        if (parsed)
            out = JsonValue(std::move(array));
        return parsed;
    }

    bool parseHex4(char32_t &value)
    {
        value = 0;
        for (int k = 0; k < 4; ++k) {
            const int digit = atEnd() ? -1 : hexDigitValue(peek());
            if (digit < 0)
                return fail("expected 4 hexadecimal digits after \\u");
            value = (value << 4) | static_cast<char32_t>(digit);
            ++pos_;
        }
        return true;
    }

    bool parseString(std::string &out)
    {
        const char quote = peek();
        const size_t start = pos_;
        ++pos_;
        for (;;) {
            if (atEnd())
                return failAt(start, "unterminated string");
            const char c = peek();
            if (c == quote) {
                ++pos_;
                return true;
            }
            if (c != '\\') {
                out += c; // raw control characters and any UTF-8 are kept as they are
                ++pos_;
                continue;
            }
            ++pos_;
            if (atEnd())
                return failAt(start, "unterminated string");
            const char escape = peek();
            ++pos_;
            if (const char simple = simpleEscape(escape)) {
                out += simple;
                continue;
            }
            switch (escape) {
            case 'x': {
                const int high = pos_ + 1 < text_.size() ? hexDigitValue(text_[pos_]) : -1;
                const int low = high >= 0 ? hexDigitValue(text_[pos_ + 1]) : -1;
                if (low < 0)
                    return fail("expected 2 hexadecimal digits after \\x");
                appendUtf8(out, static_cast<char32_t>(high * 16 + low));
                pos_ += 2;
                break;
            }
            case 'u': {
                char32_t cp = 0;
                if (!parseHex4(cp))
                    return false;
                if (cp >= 0xD800 && cp <= 0xDBFF && text_.substr(pos_, 2) == "\\u") {
                    const size_t save = pos_;
                    pos_ += 2;
                    char32_t low = 0;
                    if (!parseHex4(low))
                        return false;
                    if (low >= 0xDC00 && low <= 0xDFFF)
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    else
                        pos_ = save; // not a pair: the second escape stands on its own
                }
                if (cp >= 0xD800 && cp <= 0xDFFF)
                    cp = 0xFFFD; // a lone surrogate has no UTF-8 form
                appendUtf8(out, cp);
                break;
            }
            default:
                return failAt(pos_ - 2, std::string("invalid escape '\\") + escape + "' in a string");
            }
        }
    }

    bool parseNumber(JsonValue &out)
    {
        const size_t start = pos_;
        if (peek() == '-')
            ++pos_;
        if (atEnd() || !isDigit(peek()))
            return failAt(start, "malformed number, expected a digit");
        while (!atEnd() && isDigit(peek()))
            ++pos_;
        bool integral = true;
        if (!atEnd() && peek() == '.') {
            integral = false;
            ++pos_;
            if (atEnd() || !isDigit(peek()))
                return fail("malformed number, expected a digit after '.'");
            while (!atEnd() && isDigit(peek()))
                ++pos_;
        }
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            integral = false;
            ++pos_;
            if (!atEnd() && (peek() == '+' || peek() == '-'))
                ++pos_;
            if (atEnd() || !isDigit(peek()))
                return fail("malformed number, expected a digit in the exponent");
            while (!atEnd() && isDigit(peek()))
                ++pos_;
        }
        const std::string number(text_.substr(start, pos_ - start));
        // fastjson's type suffixes: L, S, B on integers, F, D on any number.
        if (!atEnd()) {
            const char suffix = peek();
            if ((integral && (suffix == 'L' || suffix == 'S' || suffix == 'B')) || suffix == 'F' || suffix == 'D')
                ++pos_;
            if (!atEnd() && isIdentifierPart(peek()))
                return fail("unexpected " + describeHere() + " after a number");
        }
        if (integral) {
            int64_t value = 0;
            const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
            if (ec == std::errc() && end == number.data() + number.size()) {
                out = JsonValue(value);
                return true;
            }
            // Beyond 64 bits (a BigInteger in Java): keep it as a double.
        }
        // from_chars, unlike strtod, ignores the C locale (Qt applications set it from the user's).
        double value = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
        if (ec == std::errc::result_out_of_range) {
            const bool negative = number.front() == '-';
            const bool underflow = number.find("e-") != std::string::npos || number.find("E-") != std::string::npos;
            value = underflow ? (negative ? -0.0 : 0.0) : (negative ? -HUGE_VAL : HUGE_VAL);
        } else if (ec != std::errc() || end != number.data() + number.size()) {
            return failAt(start, "malformed number");
        }
        out = JsonValue(value);
        return true;
    }

    std::string_view text_;
    size_t pos_ = 0;
    std::string message_;
    size_t errorPos_ = 0;
};

} // namespace

JsonParseResult parseJson(std::string_view text) { return Parser(text).run(); }

} // namespace mqdesk::common
