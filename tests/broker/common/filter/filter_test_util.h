#pragma once

// Shared by the SQL92 filter suites: a property map as the evaluation context and the outcome of
// one expression over it as a word ("true", "false", "unknown", "error", or "compile: <error>").

#include "broker/common/filter/sql_parser.h"

#include <map>
#include <string>

namespace mqdesk::test {

class MapContext : public filter::EvaluationContext
{
public:
    // "a=1;b=x y" → {a: "1", b: "x y"}; an empty text is no properties.
    explicit MapContext(const std::string &spec)
    {
        size_t at = 0;
        while (at < spec.size()) {
            size_t end = spec.find(';', at);
            if (end == std::string::npos)
                end = spec.size();
            const std::string item = spec.substr(at, end - at);
            const size_t eq = item.find('=');
            properties_[item.substr(0, eq)] = eq == std::string::npos ? std::string() : item.substr(eq + 1);
            at = end + 1;
        }
    }
    std::optional<std::string_view> get(std::string_view name) const override
    {
        const auto it = properties_.find(std::string(name));
        if (it == properties_.end())
            return std::nullopt;
        return std::string_view(it->second);
    }

private:
    std::map<std::string, std::string> properties_;
};

inline std::string outcome(const std::string &sql, const std::string &properties)
{
    const filter::CompileResult compiled = filter::compileSql(sql);
    if (!compiled.ok())
        return "compile: " + compiled.error;
    const filter::Value value = compiled.expression->evaluate(MapContext(properties));
    switch (value.kind) {
    case filter::Value::Kind::Bool: return value.b ? "true" : "false";
    case filter::Value::Kind::Null: return "unknown";
    case filter::Value::Kind::Error: return "error";
    default: return "non-boolean " + value.toString();
    }
}

} // namespace mqdesk::test
