#include "app/mqdesk-bench/timer_bench.h"

#include "broker/common/clock.h"
#include "broker/common/histogram.h"
#include "broker/store/message_store.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>

namespace mqdesk::bench {

namespace {

constexpr const char *kTimerTopic = "BenchTimer";
constexpr const char *kPlainTopic = "BenchPlain";

common::BrokerMessage benchMessage(const char *topic, int64_t seq, const std::string &body)
{
    common::BrokerMessage m;
    m.topic = topic;
    m.queueId = static_cast<int32_t>(seq % 4);
    m.setBody(std::to_string(seq) + ";" + body);
    m.bornTimestamp = common::wallMillis();
    m.bornHost = common::HostAddress::ipv4(127, 0, 0, 1, 40000);
    return m;
}

// Puts `count` messages (timer ones when `spreadMs` > 0); returns puts per second, or −1 when
// a put failed.
double putAll(store::MessageStore &store, const TimerBenchOptions &options, bool timer,
              std::unordered_map<int64_t, int64_t> &dueAt)
{
    std::mt19937_64 random(42);
    std::uniform_int_distribution<int64_t> spread(1000, std::max<int64_t>(1000, options.spreadMs));
    const std::string body(static_cast<size_t>(options.size), 'b');
    const int64_t start = common::steadyMicros();
    for (int64_t seq = 0; seq < options.count; ++seq) {
        common::BrokerMessage m = benchMessage(timer ? kTimerTopic : kPlainTopic, seq, body);
        if (timer) {
            const int64_t at = common::wallMillis() + spread(random);
            m.properties.set("TIMER_DELIVER_MS", std::to_string(at));
            dueAt[seq] = at;
        }
        const store::PutMessageResult result = store.putMessage(m);
        if (!result.stored()) {
            std::fprintf(stderr, "put %lld failed: %s %s\n", static_cast<long long>(seq),
                         std::string(store::putStatusName(result.status)).c_str(), result.error.c_str());
            return -1;
        }
    }
    const double seconds = static_cast<double>(common::steadyMicros() - start) / 1e6;
    return static_cast<double>(options.count) / std::max(seconds, 1e-9);
}

struct Delivery
{
    common::Histogram lateness;
    int64_t delivered = 0; // distinct messages
    int64_t duplicates = 0;
    int64_t early = 0;
};

// Reads the timer topic's queues from `next` on into `delivery`.
void collect(store::MessageStore &store, const std::unordered_map<int64_t, int64_t> &dueAt, int64_t (&next)[4],
             std::unordered_map<int64_t, bool> &seen, Delivery &delivery)
{
    for (int32_t queue = 0; queue < 4; ++queue) {
        for (;;) {
            const auto got = store.getMessage(kTimerTopic, queue, next[queue], 256);
            if (got.messages.empty())
                break;
            next[queue] = got.nextBeginOffset;
            for (const auto &message : got.messages) {
                const std::string text = message.bodyText();
                const int64_t seq = std::stoll(text.substr(0, text.find(';')));
                const auto due = dueAt.find(seq);
                if (due == dueAt.end())
                    continue;
                if (seen[seq]) {
                    ++delivery.duplicates;
                    continue;
                }
                seen[seq] = true;
                ++delivery.delivered;
                const int64_t late = message.storeTimestamp - due->second;
                if (late < 0)
                    ++delivery.early;
                delivery.lateness.record(static_cast<uint64_t>(std::max<int64_t>(late, 0)));
            }
        }
    }
}

} // namespace

int runTimerBench(const TimerBenchOptions &options)
{
    spdlog::set_default_logger(spdlog::stderr_color_mt("mqdesk-timer")); // stdout is for figures
    const std::string root = options.dir + "/store";
    std::error_code ec;
    std::filesystem::remove_all(root, ec);
    store::MessageStoreConfig config;
    config.storePathRootDir = root;
    config.timerPrecisionMs = options.precisionMs;
    config.messageIndexEnable = false;
    store::MessageStore store(config);
    std::string error;
    if (!store.open(error)) {
        std::fprintf(stderr, "cannot open %s: %s\n", root.c_str(), error.c_str());
        return 1;
    }
    std::unordered_map<int64_t, int64_t> dueAt;
    std::fprintf(stderr, "putting %lld plain messages, then %lld timer messages due over %lld ms...\n",
                 static_cast<long long>(options.count), static_cast<long long>(options.count),
                 static_cast<long long>(options.spreadMs));
    const double plainRate = putAll(store, options, false, dueAt);
    const double timerRate = plainRate < 0 ? -1 : putAll(store, options, true, dueAt);
    if (plainRate < 0 || timerRate < 0)
        return 1;

    Delivery delivery;
    std::unordered_map<int64_t, bool> seen;
    int64_t next[4] = {0, 0, 0, 0};
    const int64_t deadline = common::wallMillis() + options.spreadMs + 60000;
    while (delivery.delivered < options.count && common::wallMillis() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        collect(store, dueAt, next, seen, delivery);
        std::fprintf(stderr, "\rdelivered %lld / %lld", static_cast<long long>(delivery.delivered),
                     static_cast<long long>(options.count));
    }
    std::fprintf(stderr, "\n");
    const auto late = delivery.lateness.snapshot();
    if (options.json) {
        std::printf("{\"count\":%lld,\"precisionMs\":%d,\"spreadMs\":%lld,\"plainPutsPerSec\":%.0f,"
                    "\"timerPutsPerSec\":%.0f,\"delivered\":%lld,\"duplicates\":%lld,\"early\":%lld,"
                    "\"latenessP50Ms\":%llu,\"latenessP99Ms\":%llu,\"latenessMaxMs\":%llu}\n",
                    static_cast<long long>(options.count), options.precisionMs, static_cast<long long>(options.spreadMs),
                    plainRate, timerRate, static_cast<long long>(delivery.delivered),
                    static_cast<long long>(delivery.duplicates), static_cast<long long>(delivery.early),
                    static_cast<unsigned long long>(late.percentile(0.5)),
                    static_cast<unsigned long long>(late.percentile(0.99)), static_cast<unsigned long long>(late.max()));
    } else {
        std::printf("Timer | count %lld spread %lld ms precision %d ms\n", static_cast<long long>(options.count),
                    static_cast<long long>(options.spreadMs), options.precisionMs);
        std::printf("Put   | plain %.0f msg/s, timer %.0f msg/s (%.0f%%)\n", plainRate, timerRate,
                    100.0 * timerRate / std::max(plainRate, 1e-9));
        std::printf("Late  | p50 %llu ms, p99 %llu ms, max %llu ms (precision %d ms); early %lld, delivered %lld, "
                    "twice %lld\n",
                    static_cast<unsigned long long>(late.percentile(0.5)),
                    static_cast<unsigned long long>(late.percentile(0.99)), static_cast<unsigned long long>(late.max()),
                    options.precisionMs, static_cast<long long>(delivery.early),
                    static_cast<long long>(delivery.delivered), static_cast<long long>(delivery.duplicates));
    }
    store.shutdown();
    return delivery.delivered == options.count ? 0 : 2;
}

} // namespace mqdesk::bench
