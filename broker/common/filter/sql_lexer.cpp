#include "broker/common/filter/sql_lexer.h"

#include <array>
#include <cstdint>

namespace mqdesk::filter {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
bool isIdPart(char c) { return isIdStart(c) || isDigit(c); }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

struct Keyword
{
    std::string_view word;
    TokenKind kind;
};
constexpr std::array<Keyword, 12> kKeywords{{
    {"NOT", TokenKind::Not},
    {"AND", TokenKind::And},
    {"OR", TokenKind::Or},
    {"BETWEEN", TokenKind::Between},
    {"IN", TokenKind::In},
    {"TRUE", TokenKind::True},
    {"FALSE", TokenKind::False},
    {"NULL", TokenKind::Null},
    {"IS", TokenKind::Is},
    {"CONTAINS", TokenKind::Contains},
    {"STARTSWITH", TokenKind::StartsWith},
    {"ENDSWITH", TokenKind::EndsWith},
}};

TokenKind wordKind(std::string_view word)
{
    for (const Keyword &keyword : kKeywords) {
        if (keyword.word.size() != word.size())
            continue;
        bool same = true;
        for (size_t i = 0; i < word.size() && same; ++i) {
            const char upper = (word[i] >= 'a' && word[i] <= 'z') ? static_cast<char>(word[i] - 32) : word[i];
            same = upper == keyword.word[i];
        }
        if (same)
            return keyword.kind;
    }
    return TokenKind::Identifier;
}

// Length of the exponent part at `at` ("E" [+-] digits), 0 when there is none.
size_t exponentLength(std::string_view in, size_t at)
{
    if (at >= in.size() || (in[at] != 'e' && in[at] != 'E'))
        return 0;
    size_t end = at + 1;
    if (end < in.size() && (in[end] == '+' || in[end] == '-'))
        ++end;
    const size_t digitsStart = end;
    while (end < in.size() && isDigit(in[end]))
        ++end;
    return end == digitsStart ? 0 : end - at;
}

// The longest numeric token at `at` (a digit, or '.' followed by a digit): its kind and length.
std::pair<TokenKind, size_t> scanNumber(std::string_view in, size_t at)
{
    size_t intEnd = at;
    while (intEnd < in.size() && isDigit(in[intEnd]))
        ++intEnd;
    // FLOATING_POINT_LITERAL
    size_t floating = 0;
    if (intEnd < in.size() && in[intEnd] == '.') {
        size_t end = intEnd + 1;
        while (end < in.size() && isDigit(in[end]))
            ++end;
        if (intEnd > at || end > intEnd + 1)
            floating = end + exponentLength(in, end) - at;
    } else if (intEnd > at) {
        const size_t exponent = exponentLength(in, intEnd);
        if (exponent > 0)
            floating = intEnd + exponent - at;
    }
    // DECIMAL_LITERAL: "0" | [1-9][0-9]* [lL]?
    size_t decimal = 0;
    if (intEnd > at) {
        if (in[at] == '0') {
            decimal = 1;
        } else {
            decimal = intEnd - at;
            if (intEnd < in.size() && (in[intEnd] == 'l' || in[intEnd] == 'L'))
                ++decimal;
        }
    }
    if (floating > decimal)
        return {TokenKind::Floating, floating};
    return {TokenKind::Decimal, decimal};
}

} // namespace

std::string describePosition(std::string_view input, size_t offset)
{
    size_t line = 1;
    size_t column = 1;
    for (size_t i = 0; i < offset && i < input.size(); ++i) {
        if (input[i] == '\n' || (input[i] == '\r' && (i + 1 >= input.size() || input[i + 1] != '\n'))) {
            ++line;
            column = 1;
        } else if (input[i] != '\r') {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string_view tokenKindName(TokenKind kind)
{
    switch (kind) {
    case TokenKind::End: return "<EOF>";
    case TokenKind::Invalid: return "<INVALID>";
    case TokenKind::Not: return "NOT";
    case TokenKind::And: return "AND";
    case TokenKind::Or: return "OR";
    case TokenKind::Between: return "BETWEEN";
    case TokenKind::In: return "IN";
    case TokenKind::True: return "TRUE";
    case TokenKind::False: return "FALSE";
    case TokenKind::Null: return "NULL";
    case TokenKind::Is: return "IS";
    case TokenKind::Contains: return "CONTAINS";
    case TokenKind::StartsWith: return "STARTSWITH";
    case TokenKind::EndsWith: return "ENDSWITH";
    case TokenKind::Decimal: return "<DECIMAL_LITERAL>";
    case TokenKind::Floating: return "<FLOATING_POINT_LITERAL>";
    case TokenKind::String: return "<STRING_LITERAL>";
    case TokenKind::Identifier: return "<ID>";
    case TokenKind::Equal: return "=";
    case TokenKind::NotEqual: return "<>";
    case TokenKind::Greater: return ">";
    case TokenKind::GreaterEqual: return ">=";
    case TokenKind::Less: return "<";
    case TokenKind::LessEqual: return "<=";
    case TokenKind::LeftParen: return "(";
    case TokenKind::Comma: return ",";
    case TokenKind::RightParen: return ")";
    case TokenKind::Plus: return "+";
    case TokenKind::Minus: return "-";
    }
    return "?";
}

LexResult tokenize(std::string_view in)
{
    LexResult out;
    const auto fail = [&](size_t offset, std::string what) {
        out.ok = false;
        out.errorOffset = offset;
        out.error = "Lexical error at " + describePosition(in, offset) + ". " + std::move(what);
        out.tokens.push_back(Token{TokenKind::Invalid, offset, in.substr(offset, 1)});
        return out;
    };
    const auto push = [&](TokenKind kind, size_t at, size_t length) {
        out.tokens.push_back(Token{kind, at, in.substr(at, length)});
    };
    size_t at = 0;
    while (at < in.size()) {
        const char c = in[at];
        if (isSpace(c)) {
            ++at;
            continue;
        }
        if (c == '-' && at + 1 < in.size() && in[at + 1] == '-') {
            // LINE_COMMENT needs its line end; without one the longest match is the "-" token.
            const size_t lineEnd = in.find_first_of("\r\n", at + 2);
            if (lineEnd != std::string_view::npos) {
                at = lineEnd + 1;
                continue;
            }
        }
        if (c == '/' && at + 1 < in.size() && in[at + 1] == '*') {
            const size_t close = in.find("*/", at + 2);
            if (close == std::string_view::npos)
                return fail(at, "Unterminated comment: \"/*\" without \"*/\".");
            at = close + 2;
            continue;
        }
        if (isIdStart(c)) {
            size_t end = at + 1;
            while (end < in.size() && isIdPart(in[end]))
                ++end;
            push(wordKind(in.substr(at, end - at)), at, end - at);
            at = end;
            continue;
        }
        if (isDigit(c) || (c == '.' && at + 1 < in.size() && isDigit(in[at + 1]))) {
            const auto [kind, length] = scanNumber(in, at);
            push(kind, at, length);
            at += length;
            continue;
        }
        if (c == '\'') {
            // Longest match: every quote could close the literal; '' continues it. Input that ends
            // inside a continuation falls back to the last quote that closed it ("'x''" is 'x'
            // followed by an unterminated "'").
            size_t end = at + 1;
            size_t lastClose = 0;
            while (true) {
                const size_t quote = in.find('\'', end);
                if (quote == std::string_view::npos) {
                    if (lastClose == 0)
                        return fail(at, "Unterminated string literal.");
                    end = lastClose;
                    break;
                }
                lastClose = quote + 1;
                if (quote + 1 < in.size() && in[quote + 1] == '\'') {
                    end = quote + 2;
                    continue;
                }
                end = quote + 1;
                break;
            }
            push(TokenKind::String, at, end - at);
            at = end;
            continue;
        }
        const char next = at + 1 < in.size() ? in[at + 1] : '\0';
        switch (c) {
        case '=': push(TokenKind::Equal, at, 1); ++at; continue;
        case '<':
            if (next == '>') { push(TokenKind::NotEqual, at, 2); at += 2; continue; }
            if (next == '=') { push(TokenKind::LessEqual, at, 2); at += 2; continue; }
            push(TokenKind::Less, at, 1); ++at; continue;
        case '>':
            if (next == '=') { push(TokenKind::GreaterEqual, at, 2); at += 2; continue; }
            push(TokenKind::Greater, at, 1); ++at; continue;
        case '(': push(TokenKind::LeftParen, at, 1); ++at; continue;
        case ')': push(TokenKind::RightParen, at, 1); ++at; continue;
        case ',': push(TokenKind::Comma, at, 1); ++at; continue;
        case '+': push(TokenKind::Plus, at, 1); ++at; continue;
        case '-': push(TokenKind::Minus, at, 1); ++at; continue;
        default: break;
        }
        const auto byte = static_cast<unsigned char>(c);
        std::string shown = (byte >= 0x20 && byte < 0x7f) ? "\"" + std::string(1, c) + "\"" : [&] {
            static const char *hex = "0123456789ABCDEF";
            return std::string("byte 0x") + hex[byte >> 4] + hex[byte & 15];
        }();
        return fail(at, "Encountered: " + shown + ".");
    }
    out.tokens.push_back(Token{TokenKind::End, in.size(), {}});
    return out;
}

} // namespace mqdesk::filter
