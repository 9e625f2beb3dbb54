#pragma once

// Tokens of RocketMQ's SQL92 selector grammar (filter/parser/SelectorParser.jj), read the way
// its JavaCC token manager reads them: longest match, keywords and identifiers case-insensitive
// (a word equal to a keyword is the keyword: NOT, AND, OR, BETWEEN, IN, TRUE, FALSE, NULL, IS,
// CONTAINS, STARTSWITH, ENDSWITH), identifiers [A-Za-z_$][A-Za-z0-9_$]*, decimal literals
// 0 | [1-9][0-9]* with an optional l/L, floating literals (5.5, 5., .5, 5E10, 5.5E-3), strings in
// single quotes with '' for a quote, the operators = <> > >= < <= ( , ) + -, white space
// " \t\n\r\f", "--" comments up to a line end and "/* */" comments.
//
// Contract: tokenize() is linear in the input and never recurses; every token carries the byte
// offset where it starts. A character no token starts with, an unterminated string or comment
// gives an error naming its line and column (1-based, in bytes); the tokens before it are kept and
// an Invalid token stands at its offset, because JavaCC lexes lazily: a fault past the end of
// what the parser reads is never seen ("a = 1) #" compiles in Java).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::filter {

enum class TokenKind {
    End,
    Invalid, // a lexical error: LexResult::error
    // keywords
    Not, And, Or, Between, In, True, False, Null, Is, Contains, StartsWith, EndsWith,
    // literals and names
    Decimal, Floating, String, Identifier,
    // operators
    Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual, LeftParen, Comma, RightParen, Plus, Minus,
};

struct Token
{
    TokenKind kind = TokenKind::End;
    size_t offset = 0;      // first byte in the input
    std::string_view image; // the bytes as written (for strings: with the quotes)
};

struct LexResult
{
    std::vector<Token> tokens; // ends with End at the input's length, or Invalid at a lexical error
    bool ok = true;
    std::string error;
    size_t errorOffset = 0;
};

LexResult tokenize(std::string_view input);

// "line L, column C" of a byte offset (1-based; lines end at \n, \r or \r\n).
std::string describePosition(std::string_view input, size_t offset);

// What a token is called in messages: the keyword or operator, or a description.
std::string_view tokenKindName(TokenKind kind);

} // namespace mqdesk::filter
