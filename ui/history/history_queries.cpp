// HistoryDatabase: writing samples and events, reading series back, the saved connections.

#include "ui/connection/connection_manager.h"
#include "ui/history/history_database.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace mqdesk::ui {

namespace {

constexpr int64_t kMinuteMillis = 60 * 1000;

QString eventKindName(HistoryEvent::Kind kind)
{
    return kind == HistoryEvent::Kind::OffsetReset ? QStringLiteral("offset_reset") : QStringLiteral("app_start");
}

QString errorText(const QSqlQuery &query)
{
    return query.lastError().text() + QStringLiteral(" (SQLite code %1)").arg(query.lastError().nativeErrorCode());
}

} // namespace

bool HistoryDatabase::changed(const QString &key, int64_t time, double value)
{
    const int64_t minute = time / kMinuteMillis;
    auto it = lastStored_.find(key);
    if (it != lastStored_.end() && it->minute == minute && it->value == value)
        return false;
    lastStored_.insert(key, {minute, value});
    return true;
}

void HistoryDatabase::writeFlushSamples(const QString &broker, const std::vector<client::FlushSample> &samples)
{
    if (samples.empty())
        return;
    db_.transaction();
    QSqlQuery query(db_);
    query.prepare(QStringLiteral("INSERT OR REPLACE INTO flush_second(broker, ts, flush_p50, flush_p99, flush_max, "
                                 "ack_p50, ack_p99, bytes_flushed, data_at_risk, put_tps, flush_disk_type, pool) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const client::FlushSample &s : samples) {
        query.addBindValue(broker);
        for (int64_t value : {s.timestamp, s.flushP50Micros, s.flushP99Micros, s.flushMaxMicros, s.putToAckP50Micros,
                              s.putToAckP99Micros, s.bytesFlushed, s.dataAtRiskBytes, s.putTps})
            query.addBindValue(static_cast<qint64>(value));
        query.addBindValue(QString::fromStdString(s.flushDiskType));
        query.addBindValue(s.transientStorePoolEnable ? 1 : 0);
        if (!query.exec())
            lastError_ = errorText(query);
    }
    db_.commit();
}

void HistoryDatabase::writeTopicTps(const QString &cluster, int64_t time, const NamedRates &tps)
{
    db_.transaction();
    QSqlQuery query(db_);
    query.prepare(QStringLiteral("INSERT OR REPLACE INTO topic_tps_second(cluster, name, ts, value) VALUES (?, ?, ?, ?)"));
    for (const auto &[topic, value] : tps) {
        const QString name = QString::fromStdString(topic);
        if (!changed(QStringLiteral("t\x1f") + cluster + QLatin1Char('\x1f') + name, time, value))
            continue;
        query.addBindValue(cluster);
        query.addBindValue(name);
        query.addBindValue(static_cast<qint64>(time));
        query.addBindValue(value);
        if (!query.exec())
            lastError_ = errorText(query);
    }
    db_.commit();
}

void HistoryDatabase::writeGroupLag(const QString &cluster, int64_t time, const NamedCounts &lag)
{
    db_.transaction();
    QSqlQuery query(db_);
    query.prepare(QStringLiteral("INSERT OR REPLACE INTO group_lag_second(cluster, name, ts, value) VALUES (?, ?, ?, ?)"));
    for (const auto &[group, value] : lag) {
        const QString name = QString::fromStdString(group);
        if (!changed(QStringLiteral("g\x1f") + cluster + QLatin1Char('\x1f') + name, time, static_cast<double>(value)))
            continue;
        query.addBindValue(cluster);
        query.addBindValue(name);
        query.addBindValue(static_cast<qint64>(time));
        query.addBindValue(static_cast<qint64>(value));
        if (!query.exec())
            lastError_ = errorText(query);
    }
    db_.commit();
}

void HistoryDatabase::writeEvent(const HistoryEvent &event)
{
    QSqlQuery query(db_);
    // A null QString binds as NULL: app starts have no source or name.
    query.prepare(QStringLiteral("INSERT INTO events(ts, kind, source, name) VALUES (?, ?, coalesce(?, ''), coalesce(?, ''))"));
    query.addBindValue(static_cast<qint64>(event.time));
    query.addBindValue(eventKindName(event.kind));
    query.addBindValue(event.source);
    query.addBindValue(event.name);
    if (!query.exec())
        lastError_ = errorText(query);
}

std::vector<client::FlushSample> HistoryDatabase::flushSamples(const QString &broker, int64_t from, int64_t to,
                                                               HistoryResolution resolution)
{
    const bool minutes = resolution == HistoryResolution::Minute;
    QSqlQuery query(db_);
    query.setForwardOnly(true);
    query.prepare(minutes ? QStringLiteral("SELECT ts, flush_p50_avg, flush_p99_max, flush_max_max, ack_p50_avg, "
                                           "ack_p99_max, bytes_flushed_avg, data_at_risk_max, put_tps_avg, "
                                           "flush_disk_type, pool FROM flush_minute "
                                           "WHERE broker = ? AND ts >= ? AND ts <= ? ORDER BY ts")
                          : QStringLiteral("SELECT ts, flush_p50, flush_p99, flush_max, ack_p50, ack_p99, "
                                           "bytes_flushed, data_at_risk, put_tps, flush_disk_type, pool "
                                           "FROM flush_second WHERE broker = ? AND ts >= ? AND ts <= ? ORDER BY ts"));
    query.addBindValue(broker);
    query.addBindValue(static_cast<qint64>(from));
    query.addBindValue(static_cast<qint64>(to));
    std::vector<client::FlushSample> samples;
    if (!query.exec()) {
        lastError_ = errorText(query);
        return samples;
    }
    while (query.next()) {
        client::FlushSample s;
        auto number = [&query](int column) { return static_cast<int64_t>(query.value(column).toDouble()); };
        s.timestamp = number(0);
        s.epochSecond = s.timestamp / 1000;
        s.flushP50Micros = number(1);
        s.flushP99Micros = number(2);
        s.flushMaxMicros = number(3);
        s.putToAckP50Micros = number(4);
        s.putToAckP99Micros = number(5);
        s.bytesFlushed = number(6);
        s.dataAtRiskBytes = number(7);
        s.putTps = number(8);
        s.puts = s.putTps;
        s.flushDiskType = query.value(9).toString().toStdString();
        s.transientStorePoolEnable = query.value(10).toInt() != 0;
        samples.push_back(std::move(s));
    }
    return samples;
}

std::vector<HistoryPoint> HistoryDatabase::series(const QString &table, const QString &source, const QString &name,
                                                  int64_t from, int64_t to, HistoryResolution resolution)
{
    const bool minutes = resolution == HistoryResolution::Minute;
    QSqlQuery query(db_);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT ts, %1 FROM %2_%3 WHERE cluster = ? AND name = ? AND ts >= ? AND ts <= ? "
                                 "ORDER BY ts")
                      .arg(minutes ? QStringLiteral("avg, max") : QStringLiteral("value, value"), table,
                           minutes ? QStringLiteral("minute") : QStringLiteral("second")));
    query.addBindValue(source);
    query.addBindValue(name);
    query.addBindValue(static_cast<qint64>(from));
    query.addBindValue(static_cast<qint64>(to));
    std::vector<HistoryPoint> points;
    if (!query.exec()) {
        lastError_ = errorText(query);
        return points;
    }
    while (query.next())
        points.push_back({query.value(0).toLongLong(), query.value(1).toDouble(), query.value(2).toDouble()});
    return points;
}

std::vector<HistoryPoint> HistoryDatabase::groupLag(const QString &cluster, const QString &group, int64_t from,
                                                    int64_t to, HistoryResolution resolution)
{
    return series(QStringLiteral("group_lag"), cluster, group, from, to, resolution);
}

std::vector<HistoryPoint> HistoryDatabase::topicTps(const QString &cluster, const QString &topic, int64_t from,
                                                    int64_t to, HistoryResolution resolution)
{
    return series(QStringLiteral("topic_tps"), cluster, topic, from, to, resolution);
}

std::vector<HistoryEvent> HistoryDatabase::events(const QString &source, int64_t from, int64_t to)
{
    QSqlQuery query(db_);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT ts, kind, source, name FROM events WHERE ts >= ? AND ts <= ? "
                                 "AND (kind = 'app_start' OR source = ?) ORDER BY ts"));
    query.addBindValue(static_cast<qint64>(from));
    query.addBindValue(static_cast<qint64>(to));
    query.addBindValue(source);
    std::vector<HistoryEvent> events;
    if (!query.exec()) {
        lastError_ = errorText(query);
        return events;
    }
    while (query.next()) {
        HistoryEvent event;
        event.time = query.value(0).toLongLong();
        event.kind = query.value(1).toString() == QStringLiteral("offset_reset") ? HistoryEvent::Kind::OffsetReset
                                                                               : HistoryEvent::Kind::AppStart;
        event.source = query.value(2).toString();
        event.name = query.value(3).toString();
        events.push_back(std::move(event));
    }
    return events;
}

std::vector<SavedConnection> HistoryDatabase::savedConnections(QString *selectedName)
{
    std::vector<SavedConnection> connections;
    QSqlQuery query(db_);
    if (!query.exec(QStringLiteral("SELECT name, namesrv, access_key, tls, tls_pin FROM connections ORDER BY position"))) {
        lastError_ = errorText(query);
        return connections;
    }
    while (query.next())
        connections.push_back({query.value(0).toString(), query.value(1).toString(), query.value(2).toString(),
                               query.value(3).toInt() != 0, query.value(4).toString()});
    query.prepare(QStringLiteral("SELECT value FROM settings WHERE key = 'selected_connection'"));
    if (selectedName && query.exec() && query.next())
        *selectedName = query.value(0).toString();
    return connections;
}

void HistoryDatabase::saveConnections(const std::vector<SavedConnection> &connections, const QString &selectedName)
{
    db_.transaction();
    QSqlQuery query(db_);
    query.exec(QStringLiteral("DELETE FROM connections"));
    query.prepare(QStringLiteral("INSERT INTO connections(position, name, namesrv, access_key, tls, tls_pin) "
                                 "VALUES (?, ?, ?, ?, ?, ?)"));
    for (size_t i = 0; i < connections.size(); ++i) {
        query.addBindValue(static_cast<int>(i));
        query.addBindValue(connections[i].name);
        query.addBindValue(connections[i].namesrvAddress);
        // A null QString binds as SQL NULL, which the NOT NULL column refuses.
        query.addBindValue(connections[i].accessKey.isEmpty() ? QStringLiteral("") : connections[i].accessKey);
        query.addBindValue(connections[i].tls ? 1 : 0);
        query.addBindValue(connections[i].tlsPin.isEmpty() ? QStringLiteral("") : connections[i].tlsPin);
        if (!query.exec())
            lastError_ = errorText(query);
    }
    query.prepare(QStringLiteral("INSERT OR REPLACE INTO settings(key, value) VALUES ('selected_connection', ?), "
                                 "('connections_saved', '1')"));
    query.addBindValue(selectedName);
    if (!query.exec())
        lastError_ = errorText(query);
    db_.commit();
}

bool HistoryDatabase::connectionsInitialised()
{
    QSqlQuery query(db_);
    return query.exec(QStringLiteral("SELECT value FROM settings WHERE key = 'connections_saved'")) && query.next();
}

} // namespace mqdesk::ui
