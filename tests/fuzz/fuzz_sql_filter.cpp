// libFuzzer target: the SQL92 filter (broker/common/filter), the expression a consumer sends in a
// heartbeat, CHECK_CLIENT_CONFIG or a pull header. Input: the expression, then optionally a NUL
// byte and message properties (name\x01value\x02...). Compiling is deterministic and an error
// names an offset inside the input; a compiled expression evaluates to the same value twice.

#include "broker/common/filter/sql_parser.h"
#include "broker/common/message_properties.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace mqdesk;

namespace {

class Properties : public filter::EvaluationContext
{
public:
    explicit Properties(const common::MessageProperties &properties) : properties_(properties) {}
    std::optional<std::string_view> get(std::string_view name) const override { return properties_.get(name); }

private:
    const common::MessageProperties &properties_;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const size_t nul = input.find('\0');
    const std::string_view sql = input.substr(0, nul);
    const std::string_view encoded = nul == std::string_view::npos ? std::string_view() : input.substr(nul + 1);

    const filter::CompileResult first = filter::compileSql(sql);
    const filter::CompileResult second = filter::compileSql(sql);
    if (first.ok() != second.ok() || first.error != second.error)
        std::abort();
    if (!first.ok()) {
        if (first.error.empty() || first.errorOffset > sql.size())
            std::abort();
        return 0;
    }
    const common::MessageProperties properties = common::MessageProperties::decode(encoded);
    const Properties context(properties);
    const filter::Value a = first.expression->evaluate(context);
    const filter::Value b = second.expression->evaluate(context);
    if (a.kind != b.kind || a.isTrue() != b.isTrue())
        std::abort();
    // A condition is TRUE, FALSE, unknown or an evaluation error, never a number or a string.
    if (a.kind != filter::Value::Kind::Bool && a.kind != filter::Value::Kind::Null && !a.isError())
        std::abort();
    return 0;
}
