#pragma once

// What the history database holds and hands back, as plain values that cross threads.

#include <QString>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mqdesk::ui {

// Per-second rows are kept a day, per-minute rollups a week.
enum class HistoryResolution { Second, Minute };

// One point of a series: per-second rows have value == max; a per-minute row holds the minute's
// average and maximum. `time` is ms since epoch (the start of the minute for rollups).
struct HistoryPoint
{
    int64_t time = 0;
    double value = 0;
    double max = 0;
};

// Things charts mark on their time axis.
struct HistoryEvent
{
    enum class Kind { AppStart, OffsetReset };
    Kind kind = Kind::AppStart;
    int64_t time = 0;  // ms since epoch
    QString source;    // the cluster's NameServer address for resets; empty for app starts
    QString name;      // the group for resets
};

// Measured values of one second (or a minute's rollup) of a broker's flush behaviour.
using NamedCounts = std::map<std::string, int64_t>;
using NamedRates = std::map<std::string, double>;

// How the database at the path asked for was opened, for the one report the user sees.
struct HistoryOpenReport
{
    enum class Outcome { Opened, ReplacedCorrupt, BesideLocked, InMemory };
    Outcome outcome = Outcome::Opened;
    QString path;      // the database asked for
    QString usedPath;  // the database in use (the fresh one beside a locked file; ":memory:")
    QString movedTo;   // where a corrupt file went
    QString detail;    // SQLite's words for what was wrong
};

} // namespace mqdesk::ui
