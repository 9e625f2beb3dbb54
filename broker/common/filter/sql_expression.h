#pragma once

// A compiled SQL92 selector and its evaluation over one message's properties, with the semantics
// of RocketMQ's filter module (LogicExpression, ComparisonExpression, UnaryExpression,
// UnaryInExpression, BooleanConstantExpression, ConstantExpression):
//  - every property is a string; a missing one is NULL ("unknown");
//  - AND / OR are three-valued: FALSE AND unknown = FALSE, TRUE OR unknown = TRUE, otherwise an
//    unknown operand makes the result unknown; NOT unknown stays unknown;
//  - = and <> compare a string property with a number literal by converting the property to the
//    literal's class (Integer, Long or Double), with TRUE/FALSE by Boolean.valueOf; > >= < <= also
//    convert two strings to doubles; a property that does not convert throws in Java — here an
//    Error value that ends the evaluation, and the message does not match;
//  - a comparison with a missing property is unknown (x = NULL is refused when parsing; IS NULL
//    asks for a missing property);
//  - IN / NOT IN on a missing property is unknown; CONTAINS, STARTSWITH, ENDSWITH and their NOT
//    forms are FALSE for a missing property or an empty search string;
//  - a bare property used as a condition is unknown when missing and FALSE otherwise.
// A message matches only when the whole expression evaluates to TRUE.
//
// Contract: an SqlExpression is immutable after compile and safe to evaluate from many threads
// at once. Evaluation recursion is bounded by the parser's depth limit (sql_parser.h).

#include "broker/common/filter/sql_value.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mqdesk::filter {

// What a property name resolves to for one message (RocketMQ's MessageEvaluationContext).
class EvaluationContext
{
public:
    virtual ~EvaluationContext() = default;
    virtual std::optional<std::string_view> get(std::string_view name) const = 0;
};

struct Node;
using NodePtr = std::shared_ptr<const Node>;

struct Node
{
    enum class Kind {
        Constant,    // value; `booleanLiteral` for TRUE / FALSE / NULL
        Property,    // name
        Negate,      // -children[0]
        Not,         // NOT children[0]
        BooleanCast, // a property used as a condition
        And,         // children, n-ary (a chain of ANDs flattened)
        Or,          // children, n-ary
        Equal,       // children[0] = children[1] (also IS NULL)
        Compare,     // children[0] op children[1], op one of > >= < <=
        In,          // children[0] (a property) [NOT] IN strings
        StringMatch, // children[0] [NOT] CONTAINS / STARTSWITH / ENDSWITH search
    };
    enum class CompareOp { Greater, GreaterEqual, Less, LessEqual };
    enum class MatchOp { Contains, StartsWith, EndsWith };

    Kind kind = Kind::Constant;
    Value value;                 // Constant
    bool booleanLiteral = false; // Constant: TRUE, FALSE or NULL (a BooleanExpression in Java)
    std::string name;            // Property
    CompareOp compareOp = CompareOp::Greater;
    MatchOp matchOp = MatchOp::Contains;
    bool negated = false;             // In, StringMatch: the NOT form
    std::vector<std::string> strings; // In: the list; StringMatch: strings[0] is the search
    std::vector<NodePtr> children;
    int depth = 1; // of the subtree

    // A BooleanExpression in Java's class hierarchy (what the grammar accepts as a condition).
    bool isBoolean() const;
    // As Java's toString, for error messages.
    std::string toString() const;
};

Value evaluate(const Node &node, const EvaluationContext &context);

class SqlExpression
{
public:
    SqlExpression(std::string text, NodePtr root) : text_(std::move(text)), root_(std::move(root)) {}

    // TRUE only: FALSE, unknown and evaluation errors do not match.
    bool matches(const EvaluationContext &context) const { return evaluate(context).isTrue(); }
    Value evaluate(const EvaluationContext &context) const { return filter::evaluate(*root_, context); }
    const std::string &text() const { return text_; }
    const Node &root() const { return *root_; }

private:
    std::string text_;
    NodePtr root_;
};

} // namespace mqdesk::filter
