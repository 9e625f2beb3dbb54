#include "ui/flush/flush_series.h"

#include <QFile>
#include <QTextStream>

#include <algorithm>
#include <limits>

namespace mqdesk::ui {

QString FlushSeries::modeName(const std::string &flushDiskType, bool transientStorePool)
{
    QString name = QString::fromStdString(flushDiskType);
    if (transientStorePool)
        name += QStringLiteral(" + pool");
    return name;
}

std::vector<client::FlushSample> FlushSeries::take(const client::FlushSamples &answer, int64_t requestedSince,
                                                   bool *needsFullReload)
{
    newMarkers_.clear();
    if (needsFullReload)
        *needsFullReload = false;
    const bool restarted = bootTimestamp_ != 0 && answer.bootTimestamp != bootTimestamp_;
    if (restarted && requestedSince != 0) {
        // Sequences began again at 1: only a full answer is sure to hold every new sample.
        nextSequence_ = 0;
        if (needsFullReload)
            *needsFullReload = true;
        return {};
    }
    currentMode_ = modeName(answer.flushDiskType, answer.transientStorePoolEnable);

    std::vector<client::FlushSample> fresh;
    const int64_t lastTimestamp = samples_.empty() ? 0 : samples_.back().timestamp;
    for (const client::FlushSample &sample : answer.samples) {
        // After a restart the keys go on from the old broker's last one; a sample is never
        // taken twice (a same-boot answer holds only newer sequences).
        if (!restarted && sample.sequence <= requestedSince)
            continue;
        if (sample.timestamp < lastTimestamp || (sample.timestamp <= seededUntil_ && holds(sample)))
            continue;
        const QString mode = modeName(sample.flushDiskType, sample.transientStorePoolEnable);
        const double time = static_cast<double>(sample.timestamp) / 1000.0;
        if (restarted && fresh.empty())
            newMarkers_.push_back({Marker::Kind::Restart, time, mode});
        else if (!lastSampleMode_.isEmpty() && mode != lastSampleMode_)
            newMarkers_.push_back({Marker::Kind::ModeChange, time, mode});
        if (!(restarted && fresh.empty()) && sample.writePathKnown && lastWritePath_ >= 0
            && int(sample.writeWithoutMmap) != lastWritePath_)
            newMarkers_.push_back({Marker::Kind::WritePathChange, time, writePathName(sample.writeWithoutMmap)});
        lastSampleMode_ = mode;
        if (sample.writePathKnown)
            lastWritePath_ = sample.writeWithoutMmap ? 1 : 0;
        fresh.push_back(sample);
        samples_.push_back(sample);
    }
    while (samples_.size() > maxSamples_)
        samples_.pop_front();
    markers_.insert(markers_.end(), newMarkers_.begin(), newMarkers_.end());
    bootTimestamp_ = answer.bootTimestamp;
    nextSequence_ = answer.nextSequence;
    return fresh;
}

void FlushSeries::seed(const std::vector<client::FlushSample> &stored, double appStartSeconds)
{
    newMarkers_.clear();
    if (stored.empty())
        return;
    std::vector<client::FlushSample> fresh;
    for (const client::FlushSample &sample : stored)
        if (!holds(sample))
            fresh.push_back(sample);
    samples_.insert(samples_.begin(), fresh.begin(), fresh.end());
    std::stable_sort(samples_.begin(), samples_.end(),
                     [](const client::FlushSample &a, const client::FlushSample &b) { return a.timestamp < b.timestamp; });
    while (samples_.size() > maxSamples_)
        samples_.pop_front();
    seededUntil_ = std::max(seededUntil_, stored.back().timestamp);
    const client::FlushSample &last = stored.back();
    lastSampleMode_ = modeName(last.flushDiskType, last.transientStorePoolEnable);
    newMarkers_.push_back({Marker::Kind::AppStart, appStartSeconds, lastSampleMode_});
    markers_.insert(markers_.end(), newMarkers_.begin(), newMarkers_.end());
}

bool FlushSeries::holds(const client::FlushSample &sample) const
{
    return std::any_of(samples_.begin(), samples_.end(), [&sample](const client::FlushSample &held) {
        // The fields the history keeps (ui/history/history_queries.cpp), so a stored sample and
        // its live original compare equal.
        return held.timestamp == sample.timestamp && held.putTps == sample.putTps
               && held.bytesFlushed == sample.bytesFlushed && held.dataAtRiskBytes == sample.dataAtRiskBytes;
    });
}

QString FlushSeries::writePathName(bool writeWithoutMmap)
{
    return writeWithoutMmap ? QStringLiteral("pwrite") : QStringLiteral("mmap");
}

namespace {

int64_t median(std::vector<int64_t> values)
{
    if (values.empty())
        return 0;
    auto middle = values.begin() + static_cast<ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

} // namespace

std::vector<FlushSeries::WritePathCost> FlushSeries::writePathCosts() const
{
    struct Group
    {
        WritePathCost cost;
        std::vector<int64_t> tps, ackP50, ackP99, flushP50;
    };
    std::vector<Group> groups;
    for (const client::FlushSample &s : samples_) {
        if (!s.writePathKnown)
            continue;
        const QString mode = modeName(s.flushDiskType, s.transientStorePoolEnable);
        auto group = std::find_if(groups.begin(), groups.end(), [&](const Group &g) {
            return g.cost.flushMode == mode && g.cost.writeWithoutMmap == s.writeWithoutMmap;
        });
        if (group == groups.end()) {
            groups.push_back({});
            group = groups.end() - 1;
            group->cost.flushMode = mode;
            group->cost.writeWithoutMmap = s.writeWithoutMmap;
        }
        // The figures come from a broker: a hostile one must not overflow the sums.
        const auto add = [](int64_t &sum, int64_t value) {
            if (value > 0 && __builtin_add_overflow(sum, value, &sum))
                sum = std::numeric_limits<int64_t>::max();
        };
        add(group->cost.warmUps, s.warmUps);
        add(group->cost.warmedBytes, s.warmedBytes);
        add(group->cost.warmMicros, s.warmMicros);
        if (s.puts <= 0)
            continue;
        ++group->cost.busySeconds;
        group->tps.push_back(s.putTps);
        group->ackP50.push_back(s.putToAckP50Micros);
        group->ackP99.push_back(s.putToAckP99Micros);
        if (s.flushP50Micros > 0) // an ASYNC second may have had no flush
            group->flushP50.push_back(s.flushP50Micros);
    }
    std::vector<WritePathCost> costs;
    costs.reserve(groups.size());
    for (Group &g : groups) {
        if (g.cost.busySeconds == 0 && g.cost.warmUps == 0)
            continue; // nothing to tell about this path yet
        g.cost.putTps = median(std::move(g.tps));
        g.cost.putToAckP50Micros = median(std::move(g.ackP50));
        g.cost.putToAckP99Micros = median(std::move(g.ackP99));
        g.cost.flushP50Micros = median(std::move(g.flushP50));
        costs.push_back(g.cost);
    }
    return costs;
}

bool FlushSeries::writeCsv(const QString &path, QString *error) const
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    QTextStream out(&file);
    out << "sequence,timestamp,epochSecond,flushDiskType,transientStorePoolEnable,puts,putTps,putBytes,"
           "flushes,bytesFlushed,flushTimeouts,flushP50Micros,flushP99Micros,flushMaxMicros,"
           "putToAckP50Micros,putToAckP99Micros,putToAckMaxMicros,dataAtRiskBytes,writeWithoutMmap,warmUps,"
           "warmedBytes,warmMicros\n";
    for (const client::FlushSample &s : samples_) {
        out << s.sequence << ',' << s.timestamp << ',' << s.epochSecond << ','
            << QString::fromStdString(s.flushDiskType) << ',' << (s.transientStorePoolEnable ? "true" : "false")
            << ',' << s.puts << ',' << s.putTps << ',' << s.putBytes << ',' << s.flushes << ',' << s.bytesFlushed
            << ',' << s.flushTimeouts << ',' << s.flushP50Micros << ',' << s.flushP99Micros << ','
            << s.flushMaxMicros << ',' << s.putToAckP50Micros << ',' << s.putToAckP99Micros << ','
            << s.putToAckMaxMicros << ',' << s.dataAtRiskBytes << ','
            << (s.writePathKnown ? (s.writeWithoutMmap ? "true" : "false") : "") << ',' << s.warmUps << ','
            << s.warmedBytes << ',' << s.warmMicros << '\n';
    }
    out.flush();
    if (file.error() != QFileDevice::NoError) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace mqdesk::ui
