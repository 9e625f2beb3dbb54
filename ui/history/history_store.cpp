#include "ui/history/history_store.h"

#include <QDateTime>
#include <QStandardPaths>
#include <QTimer>

namespace mqdesk::ui {

HistoryStore::HistoryStore(QObject *parent) : HistoryStore(Options{}, parent) {}

HistoryStore::HistoryStore(Options options, QObject *parent) : QObject(parent)
{
    clock_ = options.clock ? std::move(options.clock) : Clock([] { return QDateTime::currentMSecsSinceEpoch(); });
    startedAt_ = clock_();
    const QString path = options.path.isEmpty() ? defaultPath() : options.path;
    db_ = std::make_unique<HistoryDatabase>(path, options.busyTimeoutMillis);
    worker_ = new QObject;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.setObjectName(QStringLiteral("history"));
    thread_.start(QThread::LowPriority);

    const int interval = options.maintenanceIntervalMillis;
    QPointer<HistoryStore> self(this);
    post([self, this, interval](HistoryDatabase &db) {
        db.open(startedAt_);
        const HistoryOpenReport report = db.report();
        if (interval > 0) {
            auto *timer = new QTimer(worker_);
            connect(timer, &QTimer::timeout, worker_, [this] {
                if (db_)
                    db_->maintenance(clock_());
            });
            timer->start(interval);
        }
        QMetaObject::invokeMethod(
            this, [this, report] { onOpened(report); }, Qt::QueuedConnection);
    });
}

HistoryStore::~HistoryStore()
{
    // The database closes on its own thread, after the writes already posted. The thread quits
    // from that same posted call: a quit() from here would end its event loop after the batch
    // of events it is running, dropping writes posted meanwhile (and db_.reset() with them, so
    // the connection would close on this thread).
    QMetaObject::invokeMethod(
        worker_,
        [this] {
            db_.reset();
            QThread::currentThread()->quit();
        },
        Qt::QueuedConnection);
    thread_.wait();
}

QString HistoryStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/history.sqlite");
}

void HistoryStore::post(std::function<void(HistoryDatabase &)> work)
{
    QMetaObject::invokeMethod(
        worker_,
        [this, work = std::move(work)] {
            if (db_)
                work(*db_);
        },
        Qt::QueuedConnection);
}

void HistoryStore::recordFlushSamples(const QString &broker, std::vector<client::FlushSample> samples)
{
    post([broker, samples = std::move(samples)](HistoryDatabase &db) { db.writeFlushSamples(broker, samples); });
}

void HistoryStore::recordTopicTps(const QString &cluster, int64_t time, NamedRates tps)
{
    post([cluster, time, tps = std::move(tps)](HistoryDatabase &db) { db.writeTopicTps(cluster, time, tps); });
}

void HistoryStore::recordGroupLag(const QString &cluster, int64_t time, NamedCounts lag)
{
    post([cluster, time, lag = std::move(lag)](HistoryDatabase &db) { db.writeGroupLag(cluster, time, lag); });
}

void HistoryStore::recordEvent(HistoryEvent event)
{
    post([event = std::move(event)](HistoryDatabase &db) { db.writeEvent(event); });
}

void HistoryStore::runMaintenance()
{
    post([this](HistoryDatabase &db) { db.maintenance(clock_()); });
}

void HistoryStore::waitForIdle()
{
    QMetaObject::invokeMethod(worker_, [] {}, Qt::BlockingQueuedConnection);
}

void HistoryStore::onOpened(const HistoryOpenReport &report)
{
    report_ = report;
    using Outcome = HistoryOpenReport::Outcome;
    switch (report.outcome) {
    case Outcome::Opened:
        break;
    case Outcome::ReplacedCorrupt:
        problem_ = report.movedTo.isEmpty()
                       ? tr("The history database %1 could not be read (%2) nor moved aside; this session records "
                            "into %3.")
                             .arg(report.path, report.detail, report.usedPath)
                       : tr("The history database %1 could not be read (%2): it was moved aside as %3 and a new one "
                            "started.")
                             .arg(report.path, report.detail, report.movedTo);
        break;
    case Outcome::BesideLocked:
        problem_ = tr("The history database %1 is locked by another process (%2): this session records into %3.")
                       .arg(report.path, report.detail, report.usedPath);
        break;
    case Outcome::InMemory:
        problem_ = tr("No history database could be opened at %1 (%2): history is kept in memory until the app "
                      "quits.")
                       .arg(report.path, report.detail);
        break;
    }
    emit opened(report);
    if (!problem_.isEmpty())
        emit problem(problem_);
}

} // namespace mqdesk::ui
