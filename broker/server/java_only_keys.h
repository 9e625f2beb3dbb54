#pragma once

// The broker.conf keys of RocketMQ 5.5 that MQDesk does not serve, each with Java's default and
// why. Java's broker reads every setter of BrokerConfig, MessageStoreConfig, NettyServerConfig,
// NettyClientConfig and AuthConfig from broker.conf (518 keys in 5.5.0); MQDesk serves about
// 120 of them. A Java broker.conf must still start MQDesk, and a setting MQDesk would ignore
// must never be silently dropped when it changes what clients see. So every other Java key is
// either
//   - accepted with no effect: it tunes something of Java's that MQDesk does its own way
//     (thread pools, Netty, metrics, RocksDB tuning, …) and no client can tell; or
//   - served only at Java's default: MQDesk behaves as Java does with the default (a master
//     without replicas, the file store, V1 retry topics, …); another value is refused at start
//     with the reason, instead of a broker that quietly does something else.
// A key in neither list nor MQDesk's own configs is not a RocketMQ 5.5 key: it is reported and
// ignored, as Java ignores it.
//
// tests/fixtures/java-5.5-broker-keys.tsv lists Java's keys with their defaults (made from the
// 5.5.0 jars by tests/fixtures/JavaBrokerKeys.java); tst_broker_server checks that every one is
// MQDesk's or in this table, and that docs/compatibility.md shows the table.

#include <span>
#include <string>
#include <string_view>

namespace mqdesk::server {

enum class JavaOnlyPolicy
{
    NoEffect,         // any value accepted; nothing changes
    OnlyJavasDefault, // Java's default (or a value that means the same) accepted, any other refused
};

struct JavaOnlyReason
{
    JavaOnlyPolicy policy;
    std::string_view what; // what the keys do in Java, and what MQDesk does instead
};

struct JavaOnlyKey
{
    std::string_view key;
    std::string_view javaDefault; // as Java 5.5.0 prints it; empty where it is the host's own
    const JavaOnlyReason *reason;
};

// Every key, in name order.
std::span<const JavaOnlyKey> javaOnlyKeys();
const JavaOnlyKey *findJavaOnlyKey(std::string_view key);

// Empty when `value` is accepted for `key`, else the sentence refusing it, naming the key, the
// value, the reason and Java's default.
std::string checkJavaOnlyValue(const JavaOnlyKey &key, std::string_view value);

// The table as docs/compatibility.md shows it (one table per reason).
std::string markdownOfJavaOnlyKeys();

} // namespace mqdesk::server
