// HistoryDatabase: opening (and replacing a corrupt or locked file), the schema, rollups and
// retention. Reads and writes are in history_queries.cpp.

#include "ui/history/history_database.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSet>
#include <QSqlQuery>

#include <algorithm>
#include <atomic>

namespace mqdesk::ui {

namespace {

constexpr int kSqliteBusy = 5;
constexpr int kSqliteLocked = 6;
constexpr int64_t kMinuteMillis = 60 * 1000;
// Minutes re-rolled on every maintenance run, as late samples may still change them: the flush
// monitor's first poll after a start brings the broker's last 17 minutes (one row a second per
// broker, cheap to re-roll); topic and group samples are written as they are taken, and there
// can be thousands a second, so only the last minutes are rolled again.
constexpr int64_t kFlushRerollMillis = 20 * kMinuteMillis;
constexpr int64_t kSeriesRerollMillis = 2 * kMinuteMillis;
const QString kRolledUntil = QStringLiteral("rolled_until");

bool isLockError(const QSqlError &error)
{
    const int code = error.nativeErrorCode().toInt() & 0xff; // extended codes keep the primary in the low byte
    return code == kSqliteBusy || code == kSqliteLocked;
}

QString describe(const QSqlError &error)
{
    QString text = error.databaseText().isEmpty() ? error.text() : error.databaseText();
    if (!error.nativeErrorCode().isEmpty())
        text += QStringLiteral(" (SQLite code %1)").arg(error.nativeErrorCode());
    return text;
}

// "<dir>/<name><suffix>" that does not exist yet ("-2", "-3", … appended when it does).
QString unusedPath(const QString &path)
{
    QString candidate = path;
    for (int i = 2; QFileInfo::exists(candidate); ++i)
        candidate = path + QStringLiteral("-%1").arg(i);
    return candidate;
}

QString stamp(int64_t now)
{
    return QDateTime::fromMSecsSinceEpoch(now).toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

// The flush measures: per second one column each, per minute an average and a maximum.
const char *const kFlushMeasures[] = {"flush_p50", "flush_p99",     "flush_max",    "ack_p50",
                                      "ack_p99",   "bytes_flushed", "data_at_risk", "put_tps"};

QStringList schemaStatements()
{
    QString secondColumns, minuteColumns;
    for (const char *measure : kFlushMeasures) {
        secondColumns += QStringLiteral("%1 INTEGER NOT NULL, ").arg(QLatin1String(measure));
        minuteColumns += QStringLiteral("%1_avg REAL NOT NULL, %1_max INTEGER NOT NULL, ").arg(QLatin1String(measure));
    }
    QStringList statements = {
        QStringLiteral("CREATE TABLE flush_second(broker TEXT NOT NULL, ts INTEGER NOT NULL, %1"
                       "flush_disk_type TEXT NOT NULL, pool INTEGER NOT NULL, PRIMARY KEY(broker, ts)) WITHOUT ROWID")
            .arg(secondColumns),
        QStringLiteral("CREATE TABLE flush_minute(broker TEXT NOT NULL, ts INTEGER NOT NULL, %1"
                       "flush_disk_type TEXT NOT NULL, pool INTEGER NOT NULL, PRIMARY KEY(broker, ts)) WITHOUT ROWID")
            .arg(minuteColumns),
        QStringLiteral("CREATE INDEX flush_second_ts ON flush_second(ts)"),
        QStringLiteral("CREATE INDEX flush_minute_ts ON flush_minute(ts)"),
        QStringLiteral("CREATE TABLE events(ts INTEGER NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, "
                       "name TEXT NOT NULL)"),
        QStringLiteral("CREATE INDEX events_ts ON events(ts)"),
        QStringLiteral("CREATE TABLE connections(position INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                       "namesrv TEXT NOT NULL, access_key TEXT NOT NULL DEFAULT '', tls INTEGER NOT NULL DEFAULT 0, "
                       "tls_pin TEXT NOT NULL DEFAULT '')"),
        QStringLiteral("CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
    };
    for (const QString &series : {QStringLiteral("topic_tps"), QStringLiteral("group_lag")}) {
        statements << QStringLiteral("CREATE TABLE %1_second(cluster TEXT NOT NULL, name TEXT NOT NULL, "
                                     "ts INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY(cluster, name, ts)) "
                                     "WITHOUT ROWID")
                          .arg(series)
                   << QStringLiteral("CREATE TABLE %1_minute(cluster TEXT NOT NULL, name TEXT NOT NULL, "
                                     "ts INTEGER NOT NULL, avg REAL NOT NULL, max REAL NOT NULL, "
                                     "PRIMARY KEY(cluster, name, ts)) WITHOUT ROWID")
                          .arg(series)
                   << QStringLiteral("CREATE INDEX %1_second_ts ON %1_second(ts)").arg(series)
                   << QStringLiteral("CREATE INDEX %1_minute_ts ON %1_minute(ts)").arg(series);
    }
    return statements;
}

} // namespace

HistoryDatabase::HistoryDatabase(QString path, int busyTimeoutMillis)
    : path_(std::move(path)), busyTimeoutMillis_(busyTimeoutMillis)
{
    static std::atomic<int> counter{0};
    connectionName_ = QStringLiteral("mqdesk-history-%1").arg(++counter);
}

HistoryDatabase::~HistoryDatabase()
{
    closeConnection();
}

void HistoryDatabase::closeConnection()
{
    if (db_.isValid())
        db_.close();
    db_ = QSqlDatabase();
    if (QSqlDatabase::contains(connectionName_))
        QSqlDatabase::removeDatabase(connectionName_);
}

void HistoryDatabase::open(int64_t now)
{
    report_ = {};
    report_.path = path_;
    report_.usedPath = path_;
    QDir().mkpath(QFileInfo(path_).absolutePath());
    QString detail;
    OpenResult result = tryOpen(path_, &detail);
    if (result == OpenResult::Corrupt) {
        report_.outcome = HistoryOpenReport::Outcome::ReplacedCorrupt;
        report_.detail = detail;
        closeConnection();
        const QString aside = unusedPath(path_ + QStringLiteral(".corrupt-") + stamp(now));
        if (QFile::rename(path_, aside)) {
            report_.movedTo = aside;
            // A stale WAL beside a replaced file would be replayed into the new one.
            for (const QString &suffix : {QStringLiteral("-wal"), QStringLiteral("-shm")})
                if (QFileInfo::exists(path_ + suffix))
                    QFile::rename(path_ + suffix, aside + suffix);
            result = tryOpen(path_, &detail);
        }
    }
    if (result != OpenResult::Ok) {
        if (report_.outcome == HistoryOpenReport::Outcome::Opened) {
            report_.outcome = HistoryOpenReport::Outcome::BesideLocked;
            report_.detail = detail;
        }
        closeConnection();
        // Never take a file from under the process that holds it: this session uses another.
        const QFileInfo info(path_);
        report_.usedPath = unusedPath(info.absolutePath() + QLatin1Char('/') + info.completeBaseName()
                                      + QLatin1Char('-') + stamp(now) + QLatin1Char('.') + info.suffix());
        result = tryOpen(report_.usedPath, &detail);
    }
    if (result != OpenResult::Ok) {
        closeConnection();
        report_.outcome = HistoryOpenReport::Outcome::InMemory;
        report_.usedPath = QStringLiteral(":memory:");
        report_.detail += QStringLiteral("; ") + detail;
        tryOpen(report_.usedPath, &detail);
    }
    writeEvent({HistoryEvent::Kind::AppStart, now, {}, {}});
    maintenance(now);
}

HistoryDatabase::OpenResult HistoryDatabase::tryOpen(const QString &path, QString *detail)
{
    closeConnection();
    db_ = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connectionName_);
    db_.setDatabaseName(path);
    db_.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(busyTimeoutMillis_));
    if (!db_.open()) {
        *detail = describe(db_.lastError());
        return isLockError(db_.lastError()) ? OpenResult::Locked : OpenResult::Corrupt;
    }
    QSqlQuery check(db_);
    if (!check.exec(QStringLiteral("PRAGMA quick_check"))) {
        *detail = describe(check.lastError());
        return isLockError(check.lastError()) ? OpenResult::Locked : OpenResult::Corrupt;
    }
    if (!check.next() || check.value(0).toString() != QStringLiteral("ok")) {
        *detail = QStringLiteral("quick_check: %1").arg(check.value(0).toString());
        return OpenResult::Corrupt;
    }
    check.finish();
    QSqlQuery wal(db_);
    if (!wal.exec(QStringLiteral("PRAGMA journal_mode=WAL"))) {
        *detail = describe(wal.lastError());
        return isLockError(wal.lastError()) ? OpenResult::Locked : OpenResult::Corrupt;
    }
    wal.finish();
    // A write lock now tells a file another process is writing from one we may use.
    QSqlQuery begin(db_);
    if (!begin.exec(QStringLiteral("BEGIN IMMEDIATE"))) {
        *detail = describe(begin.lastError());
        return isLockError(begin.lastError()) ? OpenResult::Locked : OpenResult::Corrupt;
    }
    const bool created = createSchema(detail);
    exec(created ? QStringLiteral("COMMIT") : QStringLiteral("ROLLBACK"));
    return created ? OpenResult::Ok : OpenResult::Corrupt;
}

// Requires: inside a transaction.
bool HistoryDatabase::createSchema(QString *detail)
{
    QSqlQuery query(db_);
    if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next()) {
        *detail = describe(query.lastError());
        return false;
    }
    const int version = query.value(0).toInt();
    query.finish();
    if (version == kSchemaVersion)
        return true;
    if (version < 0 || version > kSchemaVersion) {
        // Written by a newer MQDesk: not ours to change, so it is treated as unusable.
        *detail = QStringLiteral("schema version %1, this MQDesk knows %2").arg(version).arg(kSchemaVersion);
        return false;
    }
    // Version 1 → 2: the saved connections' access keys (their secrets live in the keyring);
    // 2 → 3: whether they use TLS, and the certificate trusted on first use.
    // Each column is added only where it is missing, so a migration cut short and run again (or
    // a file that has some of them) still ends at the current schema.
    QStringList statements;
    if (version == 0) {
        statements = schemaStatements();
    } else {
        QSet<QString> columns;
        if (!query.exec(QStringLiteral("PRAGMA table_info(connections)"))) {
            *detail = describe(query.lastError());
            return false;
        }
        while (query.next())
            columns.insert(query.value(1).toString());
        query.finish();
        const std::pair<const char *, const char *> added[] = {{"access_key", "TEXT NOT NULL DEFAULT ''"},
                                                               {"tls", "INTEGER NOT NULL DEFAULT 0"},
                                                               {"tls_pin", "TEXT NOT NULL DEFAULT ''"}};
        for (const auto &[column, type] : added) {
            if (!columns.contains(QLatin1String(column)))
                statements << QStringLiteral("ALTER TABLE connections ADD COLUMN %1 %2")
                                  .arg(QLatin1String(column), QLatin1String(type));
        }
    }
    for (const QString &statement : statements) {
        if (!query.exec(statement)) {
            *detail = describe(query.lastError()) + QStringLiteral(" in: ") + statement;
            return false;
        }
    }
    if (!query.exec(QStringLiteral("PRAGMA user_version = %1").arg(kSchemaVersion))) {
        *detail = describe(query.lastError());
        return false;
    }
    return true;
}

bool HistoryDatabase::exec(const QString &sql)
{
    QSqlQuery query(db_);
    if (query.exec(sql))
        return true;
    lastError_ = describe(query.lastError()) + QStringLiteral(" in: ") + sql;
    return false;
}

void HistoryDatabase::maintenance(int64_t now)
{
    const int64_t nowMinute = now / kMinuteMillis * kMinuteMillis;
    QSqlQuery query(db_);
    int64_t rolledUntil = -1; // never: everything is rolled up
    query.prepare(QStringLiteral("SELECT value FROM settings WHERE key = ?"));
    query.addBindValue(kRolledUntil);
    if (query.exec() && query.next())
        rolledUntil = query.value(0).toLongLong();
    query.finish();
    const auto rollFrom = [&](int64_t reroll) {
        return rolledUntil < 0 ? int64_t{0} : std::min<int64_t>(rolledUntil, nowMinute - reroll);
    };

    QString flushColumns, flushAggregates;
    for (const char *measure : kFlushMeasures) {
        const QLatin1String name(measure);
        flushColumns += QStringLiteral("%1_avg, %1_max, ").arg(name);
        flushAggregates += QStringLiteral("avg(%1), max(%1), ").arg(name);
    }
    // The minute's mode is the greatest name: SYNC_FLUSH when it was synchronous at all.
    const std::pair<QString, int64_t> rollups[] = {
        {QStringLiteral("INSERT OR REPLACE INTO flush_minute(broker, ts, %1flush_disk_type, pool) "
                       "SELECT broker, ts / 60000 * 60000 AS minute, %2max(flush_disk_type), max(pool) "
                       "FROM flush_second WHERE ts >= :from AND ts < :to GROUP BY broker, minute")
             .arg(flushColumns, flushAggregates),
         rollFrom(kFlushRerollMillis)},
        {QStringLiteral("INSERT OR REPLACE INTO topic_tps_minute(cluster, name, ts, avg, max) "
                       "SELECT cluster, name, ts / 60000 * 60000 AS minute, avg(value), max(value) "
                       "FROM topic_tps_second WHERE ts >= :from AND ts < :to GROUP BY cluster, name, minute"),
         rollFrom(kSeriesRerollMillis)},
        {QStringLiteral("INSERT OR REPLACE INTO group_lag_minute(cluster, name, ts, avg, max) "
                       "SELECT cluster, name, ts / 60000 * 60000 AS minute, avg(value), max(value) "
                       "FROM group_lag_second WHERE ts >= :from AND ts < :to GROUP BY cluster, name, minute"),
         rollFrom(kSeriesRerollMillis)},
    };
    if (!db_.transaction())
        lastError_ = describe(db_.lastError());
    for (const auto &[rollup, from] : rollups) {
        query.prepare(rollup);
        query.bindValue(QStringLiteral(":from"), static_cast<qint64>(from));
        query.bindValue(QStringLiteral(":to"), static_cast<qint64>(nowMinute));
        if (!query.exec())
            lastError_ = describe(query.lastError());
    }
    query.prepare(QStringLiteral("INSERT OR REPLACE INTO settings(key, value) VALUES (?, ?)"));
    query.addBindValue(kRolledUntil);
    query.addBindValue(QString::number(nowMinute));
    query.exec();

    const struct
    {
        const char *table;
        int64_t keep;
    } prunes[] = {{"flush_second", kSecondRetentionMillis},  {"topic_tps_second", kSecondRetentionMillis},
                  {"group_lag_second", kSecondRetentionMillis}, {"flush_minute", kMinuteRetentionMillis},
                  {"topic_tps_minute", kMinuteRetentionMillis}, {"group_lag_minute", kMinuteRetentionMillis},
                  {"events", kMinuteRetentionMillis}};
    for (const auto &prune : prunes) {
        query.prepare(QStringLiteral("DELETE FROM %1 WHERE ts < ?").arg(QLatin1String(prune.table)));
        query.addBindValue(static_cast<qint64>(now - prune.keep));
        if (!query.exec())
            lastError_ = describe(query.lastError());
    }
    if (!db_.commit())
        lastError_ = describe(db_.lastError());
}

} // namespace mqdesk::ui
