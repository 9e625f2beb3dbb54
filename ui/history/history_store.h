#pragma once

// HistoryStore: the console's history (flush samples, TPS per topic, lag per group, markers,
// saved connections) in SQLite, at <AppDataLocation>/history.sqlite. Every statement runs on a
// thread of its own with its own connection (HistoryDatabase); the GUI thread posts writes and
// gets query results through run()'s callback, and never waits on the disk. A corrupt or locked
// file is replaced at open (see HistoryDatabase) and reported once through problem().

#include "ui/history/history_database.h"
#include "ui/connection/queued_result.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>
#include <memory>

namespace mqdesk::ui {

class HistoryStore : public QObject
{
    Q_OBJECT

public:
    using Clock = std::function<int64_t()>; // ms since epoch

    struct Options
    {
        QString path;                        // empty: defaultPath()
        Clock clock;                         // empty: the wall clock; tests inject their own
        int busyTimeoutMillis = 2000;        // how long a write lock held elsewhere is waited for
        int maintenanceIntervalMillis = 60000; // rollup and pruning; 0: only at open and on request
    };

    explicit HistoryStore(QObject *parent = nullptr);
    explicit HistoryStore(Options options, QObject *parent = nullptr);
    ~HistoryStore() override; // finishes the writes already posted

    static QString defaultPath();
    int64_t now() const { return clock_(); }
    // When this store opened (an app start marker is stored at that time).
    int64_t startedAt() const { return startedAt_; }

    // Runs `work(HistoryDatabase &)` on the history thread; `done(result)` runs on the GUI
    // thread unless `context` was destroyed meanwhile. Calls run in the order they are made.
    template <typename Work, typename Done>
    void run(QObject *context, Work work, Done done)
    {
        QPointer<QObject> guard(context);
        post([guard, work = std::move(work), done = std::move(done)](HistoryDatabase &db) mutable {
            deliverQueued(guard, std::move(done), work(db));
        });
    }
    // Runs `work(HistoryDatabase &)` on the history thread; nothing comes back.
    void post(std::function<void(HistoryDatabase &)> work);

    void recordFlushSamples(const QString &broker, std::vector<client::FlushSample> samples);
    void recordTopicTps(const QString &cluster, int64_t time, NamedRates tps);
    void recordGroupLag(const QString &cluster, int64_t time, NamedCounts lag);
    void recordEvent(HistoryEvent event);
    // Rolls up and prunes now (it also runs at open and every maintenance interval).
    void runMaintenance();

    // The report of the open, once it is known (empty problem text when all was well).
    const HistoryOpenReport &openReport() const { return report_; }
    QString problemText() const { return problem_; }
    // Blocks until everything posted so far ran (tests only; the GUI never waits on disk).
    void waitForIdle();

signals:
    void opened(const mqdesk::ui::HistoryOpenReport &report);
    // A corrupt or locked database was replaced: what happened and where (shown once).
    void problem(const QString &text);

private:
    void onOpened(const HistoryOpenReport &report);

    Clock clock_;
    int64_t startedAt_ = 0;
    QThread thread_;
    QObject *worker_ = nullptr; // lives on thread_; the target of posted work
    std::unique_ptr<HistoryDatabase> db_; // touched only on thread_
    HistoryOpenReport report_;
    QString problem_;
};

} // namespace mqdesk::ui
