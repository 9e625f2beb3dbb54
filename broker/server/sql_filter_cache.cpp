#include "broker/server/sql_filter_cache.h"

#include "broker/common/filter/sql_parser.h"

namespace mqdesk::server {

SqlFilterCache::Compiled compileFilterExpression(const std::string &expressionType, const std::string &expression)
{
    SqlFilterCache::Compiled out;
    if (expressionType != kExpressionSql92) {
        out.error = "The filter type " + expressionType + " is not supported (only TAG and SQL92)";
        return out;
    }
    filter::CompileResult result = filter::compileSql(expression);
    if (!result.ok()) {
        out.error = "Invalid MessageSelector. " + result.error;
        return out;
    }
    out.expression = std::move(result.expression);
    return out;
}

SqlFilterCache::Compiled SqlFilterCache::get(const std::string &group, const std::string &topic, int64_t version,
                                             const std::string &expressionType, const std::string &expression)
{
    const std::string key = group + '\n' + topic;
    {
        std::lock_guard lock(mutex_);
        const auto it = entries_.find(key);
        if (it != entries_.end() && it->second.version == version && it->second.expressionType == expressionType
            && it->second.text == expression)
            return it->second.compiled;
    }
    Entry entry;
    entry.version = version;
    entry.expressionType = expressionType;
    entry.text = expression;
    entry.compiled = compileFilterExpression(expressionType, expression);
    Compiled compiled = entry.compiled;
    std::lock_guard lock(mutex_);
    ++compilations_;
    if (entries_.size() >= kMaxEntries && !entries_.contains(key))
        entries_.clear();
    entries_[key] = std::move(entry);
    return compiled;
}

size_t SqlFilterCache::size() const
{
    std::lock_guard lock(mutex_);
    return entries_.size();
}

uint64_t SqlFilterCache::compilations() const
{
    std::lock_guard lock(mutex_);
    return compilations_;
}

} // namespace mqdesk::server
