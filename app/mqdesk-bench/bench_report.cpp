#include "app/mqdesk-bench/bench_report.h"

#include "broker/common/json.h"

#include <cstdarg>
#include <cstdio>
#include <ctime>

namespace mqdesk::bench {

namespace {

__attribute__((format(printf, 1, 2))) std::string printfString(const char *format, ...)
{
    char buffer[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    return buffer;
}

unsigned long long ull(uint64_t value) { return static_cast<unsigned long long>(value); }

// 0 rather than inf or nan when the reference is missing, so the JSON stays valid.
double ratio(double value, double reference)
{
    return reference > 0 ? value / reference : 0.0;
}

// RocketMQ's UtilAll.timeMillisToHumanString2 form: yyyy-MM-dd HH:mm:ss,SSS, local time.
std::string humanTime(std::chrono::system_clock::time_point at)
{
    const std::time_t seconds = std::chrono::system_clock::to_time_t(at);
    const auto sinceEpoch = at.time_since_epoch();
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(sinceEpoch).count() % 1000;
    std::tm local{};
    localtime_r(&seconds, &local);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", &local);
    return printfString("%s,%03d", date, static_cast<int>(millis));
}

std::string flushDiskTypeName(FlushMode mode)
{
    switch (mode) {
    case FlushMode::Sync: return "SYNC_FLUSH";
    case FlushMode::Async: return "ASYNC_FLUSH";
    case FlushMode::AsyncPool: return "ASYNC_FLUSH + transientStorePool";
    }
    return "ASYNC_FLUSH";
}

// How close the store came to the bare disk: bandwidth, and a put's wait against one fsync.
double bandwidthRatio(const StoreBenchResult &result, const DiskBaseline &baseline)
{
    return ratio(result.mbPerSecond(), baseline.seqWriteMbPerSecond);
}

double latencyRatio(const StoreBenchResult &result, const DiskBaseline &baseline)
{
    return ratio(result.put.p50, static_cast<double>(baseline.fdatasyncP50Micros));
}

std::string latencyJson(const LatencySummary &latency, bool withP999)
{
    std::string text = printfString("{\"p50\": %.3f, \"p99\": %.3f", latency.p50, latency.p99);
    if (withP999)
        text += printfString(", \"p999\": %.3f", latency.p999);
    return text + printfString(", \"max\": %.3f}", latency.max);
}

} // namespace

std::string formatProgressLine(const ProgressWindow &window)
{
    const auto &latency = window.latency;
    const double tps = window.seconds > 0 ? static_cast<double>(latency.count()) / window.seconds : 0.0;
    return printfString("Current Time: %s | %s TPS: %llu | Max RT(ms): %llu | Average RT(ms): %7.3f"
                        " | Send Failed: %llu | Response Failed: %llu"
                        " | Put p50(us): %.1f | p99(us): %.1f | p999(us): %.1f",
                        humanTime(window.end).c_str(), window.what, static_cast<unsigned long long>(tps + 0.5),
                        ull(latency.max() / 1000000), latency.mean() / 1e6, ull(window.sendFailed),
                        ull(window.responseFailed), static_cast<double>(latency.percentile(0.5)) / 1000.0,
                        static_cast<double>(latency.percentile(0.99)) / 1000.0,
                        static_cast<double>(latency.percentile(0.999)) / 1000.0);
}

LatencySummary LatencySummary::of(const common::Histogram::Snapshot &snapshot, double unitsPerMicro)
{
    const auto micros = [unitsPerMicro](uint64_t value) { return static_cast<double>(value) / unitsPerMicro; };
    return {micros(snapshot.percentile(0.5)), micros(snapshot.percentile(0.99)),
            micros(snapshot.percentile(0.999)), micros(snapshot.max())};
}

double StoreBenchResult::tps() const
{
    return elapsedSeconds > 0 ? static_cast<double>(stored) / elapsedSeconds : 0.0;
}

double StoreBenchResult::mbPerSecond() const
{
    return elapsedSeconds > 0 ? static_cast<double>(storedBytes) / elapsedSeconds / 1e6 : 0.0;
}

std::string formatSummary(const StoreBenchOptions &options, const StoreBenchResult &result,
                          const DiskBaseline &baseline)
{
    std::string text;
    text += printfString("Flush: %s (%s) | Threads: %d | Size: %lld | Count: %lld | File size: %lld"
                         " | Topics: %d | Queues: %d\n",
                         std::string(toString(options.flush)).c_str(), flushDiskTypeName(options.flush).c_str(),
                         options.threads, static_cast<long long>(options.size),
                         static_cast<long long>(options.count), static_cast<long long>(options.fileSize),
                         options.topics, options.queues);
    if (!options.settings.empty()) {
        text += "Settings:";
        for (const std::string &setting : options.settings)
            text += " " + setting;
        text += "\n";
    }
    text += printfString("Stored: %llu messages, %.1f MB in %.3f s (final flush %.3f s%s)"
                         " | Send Failed: %llu | Response Failed: %llu\n",
                         ull(result.stored), static_cast<double>(result.storedBytes) / 1e6,
                         result.elapsedSeconds, result.finalFlushSeconds,
                         result.finalFlushComplete ? "" : ", INCOMPLETE", ull(result.sendFailed),
                         ull(result.responseFailed));
    text += printfString("TPS: %.0f | MB/s: %.1f\n", result.tps(), result.mbPerSecond());
    text += printfString("Put latency (us): p50 %.1f | p99 %.1f | p999 %.1f | max %.1f\n",
                         result.put.p50, result.put.p99, result.put.p999, result.put.max);
    text += printfString("Flush latency (us): p50 %.0f | p99 %.0f | max %.0f | flushes %llu\n",
                         result.flush.p50, result.flush.p99, result.flush.max, ull(result.flushes));
    text += printfString("Dispatch (consume queues, index): max behind %lld bytes | caught up %.1f ms after the last put\n",
                         static_cast<long long>(result.dispatchBehindBytesMax), result.dispatchCatchUpMillis);
    text += printfString("Disk baseline: 4 KiB append + fdatasync p50 %llu us | p99 %llu us"
                         " | sequential write %.1f MB/s (%lld MiB)\n",
                         ull(baseline.fdatasyncP50Micros), ull(baseline.fdatasyncP99Micros),
                         baseline.seqWriteMbPerSecond, static_cast<long long>(baseline.seqWriteBytes >> 20));
    text += printfString("Ratios: store MB/s / disk sequential MB/s = %.3f | put p50 / fdatasync p50 = %.3f\n",
                         bandwidthRatio(result, baseline), latencyRatio(result, baseline));
    return text;
}

std::string formatJson(const StoreBenchOptions &options, const StoreBenchResult &result,
                       const DiskBaseline &baseline)
{
    std::string text = "{";
    text += printfString("\"flush\": \"%s\", \"threads\": %d, \"size\": %lld, \"count\": %lld, "
                         "\"file_size\": %lld, \"topics\": %d, \"queues\": %d, \"keys\": %s, ",
                         std::string(toString(options.flush)).c_str(), options.threads,
                         static_cast<long long>(options.size), static_cast<long long>(options.count),
                         static_cast<long long>(options.fileSize), options.topics, options.queues,
                         options.keys ? "true" : "false");
    text += "\"settings\": [";
    for (size_t i = 0; i < options.settings.size(); ++i)
        text += (i ? ", " : "") + common::toJsonCompact(common::JsonValue(options.settings[i]));
    text += "], ";
    text += printfString("\"stored\": %llu, \"stored_bytes\": %llu, \"tps\": %.1f, \"mb_per_s\": %.3f, ",
                         ull(result.stored), ull(result.storedBytes), result.tps(), result.mbPerSecond());
    text += "\"put_latency_us\": " + latencyJson(result.put, true) + ", ";
    text += "\"flush_latency_us\": " + latencyJson(result.flush, false) + ", ";
    text += printfString("\"baseline\": {\"fdatasync_us_p50\": %llu, \"fdatasync_us_p99\": %llu, "
                         "\"seq_write_mb_per_s\": %.3f, \"seq_write_bytes\": %lld}, ",
                         ull(baseline.fdatasyncP50Micros), ull(baseline.fdatasyncP99Micros),
                         baseline.seqWriteMbPerSecond, static_cast<long long>(baseline.seqWriteBytes));
    text += printfString("\"dispatch_behind_bytes\": %lld, \"dispatch_catchup_ms\": %.3f, ",
                         static_cast<long long>(result.dispatchBehindBytesMax), result.dispatchCatchUpMillis);
    text += printfString("\"send_failed\": %llu, \"response_failed\": %llu, \"flushes\": %llu, "
                         "\"final_flush_s\": %.6f, \"final_flush_complete\": %s, \"elapsed_s\": %.6f, ",
                         ull(result.sendFailed), ull(result.responseFailed), ull(result.flushes),
                         result.finalFlushSeconds, result.finalFlushComplete ? "true" : "false",
                         result.elapsedSeconds);
    text += printfString("\"ratio_mb_per_s_to_seq_write\": %.4f, \"ratio_put_p50_to_fdatasync_p50\": %.4f",
                         bandwidthRatio(result, baseline), latencyRatio(result, baseline));
    return text + "}\n";
}

} // namespace mqdesk::bench
