#pragma once

// FlushSeries: the flush monitor's data, independent of any widget. It takes the answers of
// GET_FLUSH_SAMPLES (broker/client/flush_samples.h) in order, keeps the samples (each exactly
// once, oldest first), the sequence to ask for next, and the markers the graph shows: where the
// flush mode changed (from the samples' own mode fields) and where the broker restarted (its
// bootTimestamp changed). It can start from samples an earlier run stored (seed). Exports CSV.

#include "broker/client/flush_samples.h"

#include <QString>

#include <cstdint>
#include <deque>
#include <vector>

namespace mqdesk::ui {

class FlushSeries
{
public:
    struct Marker
    {
        enum class Kind { ModeChange, WritePathChange, Restart, AppStart };
        Kind kind = Kind::ModeChange;
        double time = 0; // seconds since epoch, the graph's key
        QString mode;    // the mode from here on ("SYNC_FLUSH", "ASYNC_FLUSH + pool"; "pwrite"/"mmap")
    };

    // What one write path cost under one flush mode, over the held seconds that had puts:
    // medians of the per-second figures, so one slow second does not decide. Warm-ups count
    // every held second of the group, busy or not.
    struct WritePathCost
    {
        QString flushMode;            // modeName()
        bool writeWithoutMmap = false;
        int busySeconds = 0;
        int64_t putTps = 0;           // medians over the busy seconds
        int64_t putToAckP50Micros = 0;
        int64_t putToAckP99Micros = 0;
        int64_t flushP50Micros = 0;
        int64_t warmUps = 0;          // sums over every second of the group
        int64_t warmedBytes = 0;
        int64_t warmMicros = 0;
    };

    // `maxSamples` bounds memory: older samples are dropped (an hour by default).
    static constexpr size_t kDefaultMaxSamples = 3600;
    explicit FlushSeries(size_t maxSamples = kDefaultMaxSamples) : maxSamples_(maxSamples) {}

    // The sinceSequence for the next request.
    int64_t nextSequence() const { return nextSequence_; }

    // Takes the answer to a request sent with `requestedSince`. Returns the samples that are new
    // (to be drawn), oldest first. When the broker restarted and the request was not already a
    // full one (sinceSequence 0), the answer may lack the new broker's first samples: nothing is
    // taken, nextSequence() becomes 0 and `needsFullReload` is set, so the caller asks again.
    std::vector<client::FlushSample> take(const client::FlushSamples &answer, int64_t requestedSince,
                                          bool *needsFullReload = nullptr);

    // Merges samples stored by an earlier run (oldest first) with those held, in time order, with
    // an AppStart marker at `appStartSeconds` when there are any. A sample is held once: a stored
    // one the live stream already delivered is not added, and answers taken later skip the stored
    // ones they repeat. "The same sample" is the same second with the same put TPS, bytes flushed and data at risk: a
    // broker restarted within the second its predecessor last reported keeps its own sample.
    void seed(const std::vector<client::FlushSample> &stored, double appStartSeconds);

    const std::deque<client::FlushSample> &samples() const { return samples_; }
    const std::vector<Marker> &markers() const { return markers_; }
    // Markers added by the last take() (to draw them).
    const std::vector<Marker> &newMarkers() const { return newMarkers_; }
    // The broker's mode now, from the last answer ("" before the first).
    QString currentMode() const { return currentMode_; }
    int64_t bootTimestamp() const { return bootTimestamp_; }

    // "SYNC_FLUSH", "ASYNC_FLUSH" or "ASYNC_FLUSH + pool".
    static QString modeName(const std::string &flushDiskType, bool transientStorePool);

    // One entry per (flush mode, write path) among the held samples that report their write path
    // (the history's do not) and had puts or a warm-up, in the order each first appears.
    std::vector<WritePathCost> writePathCosts() const;
    // "pwrite" or "mmap": how a sample's appends reached the file.
    static QString writePathName(bool writeWithoutMmap);

    // Writes every held sample as CSV (header = the wire's member names); false with `error`.
    bool writeCsv(const QString &path, QString *error) const;

private:
    size_t maxSamples_;
    int64_t nextSequence_ = 0;
    int64_t bootTimestamp_ = 0;
    int64_t seededUntil_ = 0; // ms: samples at or before this may repeat a stored one
    bool holds(const client::FlushSample &sample) const;
    QString currentMode_;
    QString lastSampleMode_;
    int lastWritePath_ = -1; // -1 unknown, else the last known sample's writeWithoutMmap
    std::deque<client::FlushSample> samples_;
    std::vector<Marker> markers_;
    std::vector<Marker> newMarkers_;
};

} // namespace mqdesk::ui
