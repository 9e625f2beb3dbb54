#pragma once

// Compiles an SQL92 selector (MessageSelector.bySql) as RocketMQ's broker does
// (SelectorParser.parse: the grammar of SelectorParser.jj plus the checks its expression factories
// make while building):
//   expr       := and (OR and)*
//   and        := equality (AND equality)*
//   equality   := comparison ( = comparison | <> comparison | IS NULL | IS NOT NULL )*
//   comparison := unary ( > unary | >= unary | < unary | <= unary
//                       | [NOT] BETWEEN unary AND unary | [NOT] IN ( 'str' (, 'str')* )
//                       | [NOT] CONTAINS 'str' | [NOT] STARTSWITH 'str' | [NOT] ENDSWITH 'str' )*
//   unary      := + unary | - unary | NOT unary | literal | property | ( expr )
//   literal    := 'string' | integer | decimal | TRUE | FALSE | NULL
// Like Java, the first complete expression is the selector and what follows it is ignored
// ("a = 1) b" filters by a = 1; only the token right after it is read, so "a = 1 #" is refused).
// It refuses what Java refuses when building: a non-boolean where a condition is needed ("3",
// "NOT 'x'"), x = NULL, ordering comparisons with a string / boolean / NULL literal or a condition,
// BETWEEN with literal bounds that are NULL or reversed, IN on something not a property, integer
// literals past a long, decimal literals that are 0 or overflow (Java: "is less than 4.9E-324").
//
// Contract: bounded work on any input. Inputs longer than kMaxExpressionLength bytes and nesting
// (parentheses, prefix operators, left-deep = chains) deeper than kMaxNestingDepth are refused
// before anything recurses past the limit; the parser's recursion and the compiled tree's depth
// stay below it. Every error names its position ("line 1, column 7", 1-based bytes) and
// `errorOffset` holds the byte offset.

#include "broker/common/filter/sql_expression.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace mqdesk::filter {

inline constexpr size_t kMaxExpressionLength = 65536;
inline constexpr int kMaxNestingDepth = 100;

struct CompileResult
{
    std::shared_ptr<const SqlExpression> expression; // null on error
    std::string error;
    size_t errorOffset = 0;

    bool ok() const { return expression != nullptr; }
};

CompileResult compileSql(std::string_view text);

} // namespace mqdesk::filter
