#pragma once

// HistoryDatabase: the SQL behind the console's history, used only on HistoryStore's thread
// (a QSqlDatabase connection belongs to the thread that opened it). SQLite in WAL mode with a
// schema version (PRAGMA user_version):
//
//   flush_second / flush_minute        per broker address: flush p50/p99/max, put-to-ack p50/p99,
//                                      bytes flushed, data at risk, put TPS, flush mode
//   topic_tps_second / _minute         per cluster (NameServer address) and topic: put TPS
//   group_lag_second / _minute         per cluster and group: lag
//   events                             app starts, offset resets from the console (chart markers)
//   connections, settings              the saved connections and the one picked
//
// Per-second rows are kept 24 h, per-minute rollups (average and maximum of the minute) 7 days;
// maintenance() rolls up and prunes against the clock it is given. Topic and group series store
// a row only when the value changed or a new minute began, so thousands of idle groups cost a
// row a minute each, not one a second; a per-minute average is over the rows stored.
//
// open() never fails: a file that is not a database, fails quick_check or cannot be read is
// moved aside as <name>.corrupt-<time> and a fresh one started; a file another process holds a
// write lock on past the busy timeout is left alone and a fresh file beside it is used for this
// session; if no file works, the history lives in memory. report() says which happened.

#include "broker/client/flush_samples.h"
#include "ui/history/history_types.h"

#include <QSqlDatabase>
#include <QString>

#include <QHash>

namespace mqdesk::ui {

struct SavedConnection;

class HistoryDatabase
{
public:
    // 1: the first; 2: connections.access_key (a version-1 file is upgraded in place).
    static constexpr int kSchemaVersion = 3;
    static constexpr int64_t kSecondRetentionMillis = 24LL * 3600 * 1000;
    static constexpr int64_t kMinuteRetentionMillis = 7LL * 24 * 3600 * 1000;

    HistoryDatabase(QString path, int busyTimeoutMillis);
    ~HistoryDatabase();
    HistoryDatabase(const HistoryDatabase &) = delete;
    HistoryDatabase &operator=(const HistoryDatabase &) = delete;

    // Opens (or replaces, see above) the database and records an app start at `now`.
    void open(int64_t now);
    const HistoryOpenReport &report() const { return report_; }
    // The last write or read error ("" when none); writes go on after one.
    QString lastError() const { return lastError_; }

    void writeFlushSamples(const QString &broker, const std::vector<client::FlushSample> &samples);
    void writeTopicTps(const QString &cluster, int64_t time, const NamedRates &tps);
    void writeGroupLag(const QString &cluster, int64_t time, const NamedCounts &lag);
    void writeEvent(const HistoryEvent &event);

    // Rows in [from, to], oldest first. Minute flush rows hold averages for p50s, TPS and bytes
    // flushed and maxima for p99s, maxima and data at risk.
    std::vector<client::FlushSample> flushSamples(const QString &broker, int64_t from, int64_t to,
                                                  HistoryResolution resolution);
    std::vector<HistoryPoint> groupLag(const QString &cluster, const QString &group, int64_t from, int64_t to,
                                       HistoryResolution resolution);
    std::vector<HistoryPoint> topicTps(const QString &cluster, const QString &topic, int64_t from, int64_t to,
                                       HistoryResolution resolution);
    // App starts (any source) and the events of `source` in [from, to].
    std::vector<HistoryEvent> events(const QString &source, int64_t from, int64_t to);

    std::vector<SavedConnection> savedConnections(QString *selectedName);
    void saveConnections(const std::vector<SavedConnection> &connections, const QString &selectedName);
    // Whether connections were ever saved or imported (an import happens once).
    bool connectionsInitialised();

    // Rolls the per-second rows of complete minutes up (re-rolling the last few, which late
    // samples may still change) and prunes what is past retention at `now`.
    void maintenance(int64_t now);

private:
    enum class OpenResult { Ok, Corrupt, Locked };
    OpenResult tryOpen(const QString &path, QString *detail);
    bool createSchema(QString *detail);
    void closeConnection();
    bool exec(const QString &sql);
    // `table` is "group_lag" or "topic_tps".
    std::vector<HistoryPoint> series(const QString &table, const QString &source, const QString &name, int64_t from,
                                     int64_t to, HistoryResolution resolution);
    // Whether a (source, name) series has to store `value` at `time` (it changed, or a new minute).
    bool changed(const QString &key, int64_t time, double value);

    QString path_;
    int busyTimeoutMillis_;
    QString connectionName_;
    QSqlDatabase db_;
    HistoryOpenReport report_;
    QString lastError_;
    struct LastStored
    {
        int64_t minute = 0;
        double value = 0;
    };
    QHash<QString, LastStored> lastStored_;
};

} // namespace mqdesk::ui
