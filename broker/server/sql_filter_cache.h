#pragma once

// SQL92 subscriptions on the broker (RocketMQ's ConsumerFilterManager, without the bloom filter):
// one compiled expression per (consumer group, topic), kept while the subscription's version and
// text stay the same, so pulls never re-parse. Failures are cached too: a bad expression is parsed
// once per version, not per pull.
//
// Contract: thread-safe (a mutex held only for the lookup; compiling happens outside it); the
// expressions handed out are immutable and outlive their entry. At most kMaxEntries entries —
// past that the table is emptied and refilled on demand (only compile time is lost).

#include "broker/common/filter/sql_expression.h"
#include "broker/common/message_properties.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace mqdesk::server {

inline constexpr const char *kExpressionSql92 = "SQL92";

// What an SQL92 expression reads for one stored message: its properties (TAGS among them).
class MessagePropertiesContext : public filter::EvaluationContext
{
public:
    explicit MessagePropertiesContext(const common::MessageProperties &properties) : properties_(properties) {}
    std::optional<std::string_view> get(std::string_view name) const override { return properties_.get(name); }

private:
    const common::MessageProperties &properties_;
};

class SqlFilterCache
{
public:
    static constexpr size_t kMaxEntries = 10000;

    struct Compiled
    {
        std::shared_ptr<const filter::SqlExpression> expression; // null: `error` says why
        std::string error;
    };

    // The compiled form of `expression` (of `expressionType`; only SQL92 compiles) for the group's
    // subscription to `topic` at `version`.
    Compiled get(const std::string &group, const std::string &topic, int64_t version,
                 const std::string &expressionType, const std::string &expression);

    size_t size() const;
    // Compilations done (tests: a pull must not re-parse).
    uint64_t compilations() const;

private:
    struct Entry
    {
        int64_t version = 0;
        std::string expressionType;
        std::string text;
        Compiled compiled;
    };
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_; // "group\ntopic" (neither may hold a newline)
    uint64_t compilations_ = 0;
};

// Compiles one expression of `expressionType` as CHECK_CLIENT_CONFIG and the pull path do.
SqlFilterCache::Compiled compileFilterExpression(const std::string &expressionType, const std::string &expression);

} // namespace mqdesk::server
