#include "broker/common/filter/sql_expression.h"

namespace mqdesk::filter {

namespace {

Value compareNode(const Node &node, const EvaluationContext &context)
{
    // ComparisonExpression.evaluate: unknown if either side is; two strings compared as doubles.
    Value left = evaluate(*node.children[0], context);
    if (left.isError() || left.isNull())
        return left;
    Value right = evaluate(*node.children[1], context);
    if (right.isError() || right.isNull())
        return right;
    if (left.kind == Value::Kind::String && right.kind == Value::Kind::String) {
        const auto l = parseJavaDouble(left.s);
        const auto r = parseJavaDouble(right.s);
        if (!l || !r)
            return Value::error("It's illegal to compare string by '>=', '>', '<', '<='. lv=" + left.s
                                + ", rv=" + right.s);
        left = Value::real(*l);
        right = Value::real(*r);
    }
    const CompareResult result = compareValues(left, right);
    if (result.error)
        return Value::error(*result.error);
    switch (node.compareOp) {
    case Node::CompareOp::Greater: return Value::boolean(result.sign > 0);
    case Node::CompareOp::GreaterEqual: return Value::boolean(result.sign >= 0);
    case Node::CompareOp::Less: return Value::boolean(result.sign < 0);
    case Node::CompareOp::LessEqual: return Value::boolean(result.sign <= 0);
    }
    return Value::boolean(false);
}

Value equalNode(const Node &node, const EvaluationContext &context)
{
    // doCreateEqual: both sides evaluated; left unknown → unknown, right unknown → FALSE, both → TRUE.
    const Value left = evaluate(*node.children[0], context);
    if (left.isError())
        return left;
    const Value right = evaluate(*node.children[1], context);
    if (right.isError())
        return right;
    if (left.isNull() != right.isNull())
        return left.isNull() ? Value::null() : Value::boolean(false);
    if (left.isNull() || javaEquals(left, right))
        return Value::boolean(true);
    const CompareResult result = compareValues(left, right);
    if (result.error)
        return Value::error(*result.error);
    return Value::boolean(result.sign == 0);
}

Value logicNode(const Node &node, const EvaluationContext &context, bool isAnd)
{
    // LogicExpression, left-associative: the first decisive operand (FALSE for AND, TRUE for OR)
    // ends it; otherwise unknown if any operand was.
    bool unknown = false;
    for (const NodePtr &child : node.children) {
        const Value value = evaluate(*child, context);
        if (value.isError())
            return value;
        if (value.kind == Value::Kind::Bool) {
            if (value.b != isAnd)
                return Value::boolean(!isAnd);
        } else if (value.isNull()) {
            unknown = true;
        } else {
            return Value::error("java.lang.ClassCastException: not a Boolean: " + value.toString());
        }
    }
    return unknown ? Value::null() : Value::boolean(isAnd);
}

Value stringMatchNode(const Node &node, const EvaluationContext &context)
{
    const std::string &search = node.strings[0];
    if (search.empty())
        return Value::boolean(false);
    const Value value = evaluate(*node.children[0], context);
    if (value.isError())
        return value;
    if (value.kind != Value::Kind::String)
        return Value::boolean(false);
    const std::string_view text = value.s;
    bool found = false;
    switch (node.matchOp) {
    case Node::MatchOp::Contains: found = text.find(search) != std::string_view::npos; break;
    case Node::MatchOp::StartsWith: found = text.starts_with(search); break;
    case Node::MatchOp::EndsWith: found = text.ends_with(search); break;
    }
    return Value::boolean(found != node.negated);
}

} // namespace

bool Node::isBoolean() const
{
    switch (kind) {
    case Kind::Constant: return booleanLiteral;
    case Kind::Property:
    case Kind::Negate: return false;
    default: return true;
    }
}

std::string Node::toString() const
{
    const auto child = [&](size_t i) { return children[i]->toString(); };
    switch (kind) {
    case Kind::Constant: return value.toString();
    case Kind::Property: return name;
    case Kind::Negate: return "(- " + child(0) + ")";
    case Kind::Not: return "(NOT " + child(0) + ")";
    case Kind::BooleanCast: return child(0);
    case Kind::And:
    case Kind::Or: {
        std::string out = "(" + child(0);
        for (size_t i = 1; i < children.size(); ++i)
            out += (kind == Kind::And ? " && " : " || ") + child(i);
        return out + ")";
    }
    case Kind::Equal: return "(" + child(0) + " == " + child(1) + ")";
    case Kind::Compare: {
        static const char *ops[] = {">", ">=", "<", "<="};
        return "(" + child(0) + " " + ops[static_cast<int>(compareOp)] + " " + child(1) + ")";
    }
    case Kind::In: {
        std::string out = child(0) + (negated ? " NOT IN ( " : " IN ( ");
        for (size_t i = 0; i < strings.size(); ++i)
            out += (i ? ", " : "") + strings[i];
        return out + " )";
    }
    case Kind::StringMatch: {
        static const char *ops[] = {"CONTAINS", "STARTSWITH", "ENDSWITH"};
        return "(" + std::string(negated ? "NOT " : "") + ops[static_cast<int>(matchOp)] + " " + child(0) + ")";
    }
    }
    return {};
}

Value evaluate(const Node &node, const EvaluationContext &context)
{
    switch (node.kind) {
    case Node::Kind::Constant: return node.value;
    case Node::Kind::Property: {
        const auto found = context.get(node.name);
        return found ? Value::string(std::string(*found)) : Value::null();
    }
    case Node::Kind::Negate: {
        Value value = evaluate(*node.children[0], context);
        switch (value.kind) {
        case Value::Kind::Error: return value;
        case Value::Kind::Int: return Value::int32(static_cast<int32_t>(0u - static_cast<uint32_t>(value.i)));
        case Value::Kind::Long: return Value::int64(static_cast<int64_t>(0ull - static_cast<uint64_t>(value.i)));
        case Value::Kind::Double: return Value::real(-value.d);
        default: return Value::null(); // not a number: unknown
        }
    }
    case Node::Kind::Not: {
        const Value value = evaluate(*node.children[0], context);
        if (value.isError() || value.isNull())
            return value;
        if (value.kind != Value::Kind::Bool)
            return Value::error("java.lang.ClassCastException: not a Boolean: " + value.toString());
        return Value::boolean(!value.b);
    }
    case Node::Kind::BooleanCast: {
        const Value value = evaluate(*node.children[0], context);
        if (value.isError() || value.isNull())
            return value;
        return Value::boolean(value.kind == Value::Kind::Bool && value.b);
    }
    case Node::Kind::And: return logicNode(node, context, true);
    case Node::Kind::Or: return logicNode(node, context, false);
    case Node::Kind::Equal: return equalNode(node, context);
    case Node::Kind::Compare: return compareNode(node, context);
    case Node::Kind::In: {
        const Value value = evaluate(*node.children[0], context);
        if (value.isError())
            return value;
        if (value.kind != Value::Kind::String)
            return Value::null();
        bool found = false;
        for (const std::string &item : node.strings)
            found = found || item == value.s;
        return Value::boolean(found != node.negated);
    }
    case Node::Kind::StringMatch: return stringMatchNode(node, context);
    }
    return Value::null();
}

} // namespace mqdesk::filter
