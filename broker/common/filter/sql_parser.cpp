#include "broker/common/filter/sql_parser.h"

#include "broker/common/filter/sql_lexer.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <initializer_list>
#include <limits>

namespace mqdesk::filter {

namespace {

using Kind = TokenKind;

class Parser
{
public:
    Parser(std::string_view text, LexResult lexed)
        : text_(text), tokens_(std::move(lexed.tokens)), lexError_(std::move(lexed.error))
    {
    }

    // Like JavaCC's JmsSelector(), which does not ask for <EOF>: the first complete expression is
    // the selector and whatever follows it is ignored ("a = 1) b" filters by a = 1); only the
    // tokens the grammar looks at are lexed.
    NodePtr parseSelector()
    {
        NodePtr root = orExpr();
        if (!root || !error_.empty())
            return nullptr;
        return asBoolean(root, tokens_.front().offset);
    }

    const std::string &error() const { return error_; }
    size_t errorOffset() const { return errorOffset_; }

private:
    // Looking at a token past a lexical error is that error (JavaCC's TokenMgrError).
    const Token &peek(size_t ahead = 0)
    {
        const Token &token = tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
        if (token.kind == Kind::Invalid && error_.empty()) {
            error_ = lexError_;
            errorOffset_ = token.offset;
        }
        return token;
    }
    const Token &next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }

    NodePtr fail(size_t offset, std::string what)
    {
        if (error_.empty()) {
            error_ = std::move(what) + " (at " + describePosition(text_, offset) + ")";
            errorOffset_ = offset;
        }
        return nullptr;
    }

    NodePtr unexpected(std::string_view expected)
    {
        const Token &token = peek();
        const std::string shown = token.kind == Kind::End ? "<EOF>" : std::string(token.image);
        if (error_.empty()) {
            error_ = "Encountered \"" + shown + "\" at " + describePosition(text_, token.offset)
                     + ". Was expecting " + std::string(expected) + ".";
            errorOffset_ = token.offset;
        }
        return nullptr;
    }

    bool expect(Kind kind)
    {
        if (peek().kind != kind) {
            unexpected("\"" + std::string(tokenKindName(kind)) + "\"");
            return false;
        }
        next();
        return true;
    }

    NodePtr make(Node node, size_t offset)
    {
        int depth = 0;
        for (const NodePtr &child : node.children)
            depth = std::max(depth, child->depth);
        node.depth = depth + 1;
        if (node.depth > kMaxNestingDepth)
            return fail(offset, "Expression nested deeper than " + std::to_string(kMaxNestingDepth) + " levels");
        return std::make_shared<const Node>(std::move(node));
    }

    NodePtr binary(Node::Kind kind, NodePtr left, NodePtr right, size_t offset)
    {
        Node node;
        node.kind = kind;
        node.children = {std::move(left), std::move(right)};
        return make(std::move(node), offset);
    }

    // SelectorParser.asBooleanExpression.
    NodePtr asBoolean(const NodePtr &value, size_t offset)
    {
        if (value->isBoolean())
            return value;
        if (value->kind == Node::Kind::Property) {
            Node cast;
            cast.kind = Node::Kind::BooleanCast;
            cast.children = {value};
            return make(std::move(cast), offset);
        }
        return fail(offset, "Expression will not result in a boolean value: " + value->toString());
    }

    NodePtr logicChain(Node::Kind kind, Kind separator, NodePtr (Parser::*operand)())
    {
        const size_t start = peek().offset;
        NodePtr first = (this->*operand)();
        if (!first || peek().kind != separator)
            return first;
        Node node;
        node.kind = kind;
        if (!(first = asBoolean(first, start)))
            return nullptr;
        node.children.push_back(std::move(first));
        while (peek().kind == separator) {
            next();
            const size_t at = peek().offset;
            NodePtr right = (this->*operand)();
            if (!right || !(right = asBoolean(right, at)))
                return nullptr;
            node.children.push_back(std::move(right));
        }
        return make(std::move(node), start);
    }

    NodePtr orExpr() { return logicChain(Node::Kind::Or, Kind::Or, &Parser::andExpr); }
    NodePtr andExpr() { return logicChain(Node::Kind::And, Kind::And, &Parser::equalityExpr); }

    // ComparisonExpression.checkEqualOperand / checkEqualOperandCompatability.
    NodePtr createEqual(NodePtr left, NodePtr right, size_t offset)
    {
        for (const NodePtr *side : {&left, &right})
            if ((*side)->kind == Node::Kind::Constant && (*side)->value.isNull())
                return fail(offset, "'" + (*side)->toString() + "' cannot be compared.");
        if (left->kind == Node::Kind::Constant && right->kind == Node::Kind::Constant && left->booleanLiteral
            && !right->booleanLiteral)
            return fail(offset, "'" + left->toString() + "' cannot be compared with '" + right->toString() + "'");
        return binary(Node::Kind::Equal, std::move(left), std::move(right), offset);
    }

    NodePtr createNot(NodePtr operand, size_t offset)
    {
        Node node;
        node.kind = Node::Kind::Not;
        node.children = {std::move(operand)};
        return make(std::move(node), offset);
    }

    NodePtr equalityExpr()
    {
        NodePtr left = comparisonExpr();
        while (left) {
            const Token &op = peek();
            const size_t at = op.offset;
            if (op.kind == Kind::Equal || op.kind == Kind::NotEqual) {
                const bool notEqual = op.kind == Kind::NotEqual;
                next();
                NodePtr right = comparisonExpr();
                if (!right)
                    return nullptr;
                left = createEqual(std::move(left), std::move(right), at);
                if (left && notEqual)
                    left = createNot(std::move(left), at);
            } else if (op.kind == Kind::Is) {
                next();
                const bool isNot = peek().kind == Kind::Not;
                if (isNot)
                    next();
                if (!expect(Kind::Null))
                    return nullptr;
                Node null;
                null.kind = Node::Kind::Constant;
                null.booleanLiteral = true;
                left = binary(Node::Kind::Equal, std::move(left), std::make_shared<const Node>(std::move(null)), at);
                if (left && isNot)
                    left = createNot(std::move(left), at);
            } else {
                break;
            }
        }
        return left;
    }

    // ComparisonExpression.checkLessThanOperand.
    bool checkOrderable(const NodePtr &operand, size_t offset)
    {
        const bool constant = operand->kind == Node::Kind::Constant;
        if ((constant && !operand->value.isNumber()) || (!constant && operand->isBoolean())) {
            fail(offset, "Value '" + operand->toString() + "' cannot be compared.");
            return false;
        }
        return true;
    }

    NodePtr createOrdering(Node::CompareOp op, NodePtr left, NodePtr right, size_t offset)
    {
        if (!checkOrderable(left, offset) || !checkOrderable(right, offset))
            return nullptr;
        Node node;
        node.kind = Node::Kind::Compare;
        node.compareOp = op;
        node.children = {std::move(left), std::move(right)};
        return make(std::move(node), offset);
    }

    NodePtr logic2(Node::Kind kind, NodePtr a, NodePtr b, size_t offset)
    {
        if (!a || !b)
            return nullptr;
        return binary(kind, std::move(a), std::move(b), offset);
    }

    NodePtr createBetween(bool negated, const NodePtr &value, const NodePtr &low, const NodePtr &high, size_t offset)
    {
        if (!negated && low->kind == Node::Kind::Constant && high->kind == Node::Kind::Constant) {
            if (low->value.isNull() || high->value.isNull())
                return fail(offset, "Illegal values of between, values can not be null!");
            const CompareResult order = compareValues(high->value, low->value);
            if (order.error)
                return fail(offset, *order.error);
            if (order.sign < 0)
                return fail(offset, "Illegal values of between, left value(" + javaText(low->value)
                                        + ") must less than or equal to right value(" + javaText(high->value) + ")");
        }
        // Java builds the low comparison first: its refusal is the one reported.
        NodePtr lowSide = createOrdering(negated ? Node::CompareOp::Less : Node::CompareOp::GreaterEqual, value, low, offset);
        if (!lowSide)
            return nullptr;
        NodePtr highSide = createOrdering(negated ? Node::CompareOp::Greater : Node::CompareOp::LessEqual, value, high, offset);
        return logic2(negated ? Node::Kind::Or : Node::Kind::And, std::move(lowSide), std::move(highSide), offset);
    }

    static std::string javaText(const Value &value)
    {
        // String.format("%s", value): strings unquoted, booleans lower case.
        if (value.kind == Value::Kind::String)
            return value.s;
        if (value.kind == Value::Kind::Bool)
            return value.b ? "true" : "false";
        return value.toString();
    }

    bool stringLiteral(std::string &out)
    {
        if (peek().kind != Kind::String) {
            unexpected("<STRING_LITERAL>");
            return false;
        }
        const std::string_view image = next().image;
        out.clear();
        for (size_t i = 1; i + 1 < image.size(); ++i) {
            out.push_back(image[i]);
            if (image[i] == '\'')
                ++i; // '' is one quote
        }
        return true;
    }

    NodePtr inList(bool negated, NodePtr left, size_t offset)
    {
        if (!expect(Kind::LeftParen))
            return nullptr;
        Node node;
        node.kind = Node::Kind::In;
        node.negated = negated;
        do {
            std::string item;
            if (!stringLiteral(item))
                return nullptr;
            node.strings.push_back(std::move(item));
        } while (peek().kind == Kind::Comma && (next(), true));
        if (!expect(Kind::RightParen))
            return nullptr;
        if (left->kind != Node::Kind::Property)
            return fail(offset, "Expected a property for In expression, got: " + left->toString());
        std::sort(node.strings.begin(), node.strings.end());
        node.children = {std::move(left)};
        return make(std::move(node), offset);
    }

    NodePtr stringMatch(Node::MatchOp op, bool negated, NodePtr left)
    {
        Node node;
        node.kind = Node::Kind::StringMatch;
        node.matchOp = op;
        node.negated = negated;
        std::string search;
        if (!stringLiteral(search))
            return nullptr;
        node.strings = {std::move(search)};
        const size_t at = peek().offset;
        node.children = {std::move(left)};
        return make(std::move(node), at);
    }

    NodePtr comparisonExpr()
    {
        NodePtr left = unaryExpr();
        while (left) {
            const Token &op = peek();
            const size_t at = op.offset;
            bool negated = false;
            Kind kind = op.kind;
            if (kind == Kind::Not) {
                // NOT after an operand must be NOT CONTAINS / STARTSWITH / ENDSWITH / BETWEEN / IN.
                const Kind after = peek(1).kind;
                if (after != Kind::Contains && after != Kind::StartsWith && after != Kind::EndsWith
                    && after != Kind::Between && after != Kind::In)
                    return unexpected("one of \"BETWEEN\", \"IN\", \"CONTAINS\", \"STARTSWITH\", \"ENDSWITH\", "
                                      "\">\", \">=\", \"<\", \"<=\"");
                negated = true;
                next();
                kind = after;
            }
            switch (kind) {
            case Kind::Greater:
            case Kind::GreaterEqual:
            case Kind::Less:
            case Kind::LessEqual: {
                next();
                NodePtr right = unaryExpr();
                if (!right)
                    return nullptr;
                const Node::CompareOp compareOp = kind == Kind::Greater        ? Node::CompareOp::Greater
                                                  : kind == Kind::GreaterEqual ? Node::CompareOp::GreaterEqual
                                                  : kind == Kind::Less         ? Node::CompareOp::Less
                                                                               : Node::CompareOp::LessEqual;
                left = createOrdering(compareOp, std::move(left), std::move(right), at);
                break;
            }
            case Kind::Contains:
            case Kind::StartsWith:
            case Kind::EndsWith:
                next();
                left = stringMatch(kind == Kind::Contains     ? Node::MatchOp::Contains
                                   : kind == Kind::StartsWith ? Node::MatchOp::StartsWith
                                                              : Node::MatchOp::EndsWith,
                                   negated, std::move(left));
                break;
            case Kind::Between: {
                next();
                NodePtr low = unaryExpr();
                if (!low || !expect(Kind::And))
                    return nullptr;
                NodePtr high = unaryExpr();
                if (!high)
                    return nullptr;
                left = createBetween(negated, left, low, high, at);
                break;
            }
            case Kind::In:
                next();
                left = inList(negated, std::move(left), at);
                break;
            default: return left;
            }
        }
        return left;
    }

    NodePtr unaryExpr()
    {
        const Token &token = peek();
        const size_t at = token.offset;
        if (token.kind == Kind::Plus || token.kind == Kind::Minus || token.kind == Kind::Not) {
            if (++nesting_ > kMaxNestingDepth)
                return fail(at, "Expression nested deeper than " + std::to_string(kMaxNestingDepth) + " levels");
            const Kind kind = next().kind;
            NodePtr operand = unaryExpr();
            --nesting_;
            if (!operand)
                return nullptr;
            if (kind == Kind::Plus)
                return operand;
            if (kind == Kind::Minus) {
                Node node;
                node.kind = Node::Kind::Negate;
                node.children = {std::move(operand)};
                return make(std::move(node), at);
            }
            if (!(operand = asBoolean(operand, at)))
                return nullptr;
            return createNot(std::move(operand), at);
        }
        return primaryExpr();
    }

    NodePtr constant(Value value, bool booleanLiteral = false)
    {
        Node node;
        node.kind = Node::Kind::Constant;
        node.value = std::move(value);
        node.booleanLiteral = booleanLiteral;
        return std::make_shared<const Node>(std::move(node));
    }

    NodePtr primaryExpr()
    {
        const Token &token = peek();
        const size_t at = token.offset;
        switch (token.kind) {
        case Kind::String: {
            std::string text;
            stringLiteral(text);
            return constant(Value::string(std::move(text)));
        }
        case Kind::Decimal: {
            // ConstantExpression.createFromDecimal: a Long, an Integer when it fits.
            std::string_view image = next().image;
            if (image.ends_with('l') || image.ends_with('L'))
                image.remove_suffix(1);
            const auto value = parseJavaLong(image);
            if (!value)
                return fail(at, "java.lang.NumberFormatException: For input string: \"" + std::string(image) + "\"");
            if (*value >= INT32_MIN && *value <= INT32_MAX)
                return constant(Value::int32(static_cast<int32_t>(*value)));
            return constant(Value::int64(*value));
        }
        case Kind::Floating: {
            // ConstantExpression.createFloat: Double.MIN_VALUE is the smallest positive double, so
            // Java refuses 0.0 as well as overflow.
            const std::string image(next().image);
            const auto value = parseJavaDouble(image);
            if (!value)
                return fail(at, "java.lang.NumberFormatException: For input string: \"" + image + "\"");
            if (*value > DBL_MAX)
                return fail(at, image + " is greater than " + javaDoubleString(DBL_MAX));
            if (*value < std::numeric_limits<double>::denorm_min())
                return fail(at, image + " is less than 4.9E-324"); // Double.MIN_VALUE as Java prints it
            return constant(Value::real(*value));
        }
        case Kind::True: next(); return constant(Value::boolean(true), true);
        case Kind::False: next(); return constant(Value::boolean(false), true);
        case Kind::Null: next(); return constant(Value::null(), true);
        case Kind::Identifier: {
            Node node;
            node.kind = Node::Kind::Property;
            node.name = std::string(next().image);
            return std::make_shared<const Node>(std::move(node));
        }
        case Kind::LeftParen: {
            if (++nesting_ > kMaxNestingDepth)
                return fail(at, "Expression nested deeper than " + std::to_string(kMaxNestingDepth) + " levels");
            next();
            NodePtr inner = orExpr();
            --nesting_;
            if (!inner || !expect(Kind::RightParen))
                return nullptr;
            return inner;
        }
        default:
            return unexpected("a literal, a property name, \"(\", \"NOT\", \"+\" or \"-\"");
        }
    }

    std::string_view text_;
    std::vector<Token> tokens_;
    std::string lexError_;
    size_t pos_ = 0;
    int nesting_ = 0;
    std::string error_;
    size_t errorOffset_ = 0;
};

} // namespace

CompileResult compileSql(std::string_view text)
{
    CompileResult result;
    if (text.size() > kMaxExpressionLength) {
        result.error = "Expression of " + std::to_string(text.size()) + " bytes is longer than the "
                       + std::to_string(kMaxExpressionLength) + " allowed";
        result.errorOffset = kMaxExpressionLength;
        return result;
    }
    Parser parser(text, tokenize(text));
    NodePtr root = parser.parseSelector();
    if (!root) {
        result.error = parser.error();
        result.errorOffset = parser.errorOffset();
        return result;
    }
    result.expression = std::make_shared<const SqlExpression>(std::string(text), std::move(root));
    return result;
}

} // namespace mqdesk::filter
