#include "ui/overview/broker_table_model.h"

#include "ui/widgets/row_merge.h"

#include <algorithm>
#include <tuple>

#include <QBrush>
#include <QLocale>
#include <QPalette>

#include <limits>

namespace mqdesk::ui {

namespace {

QString optionalNumber(const std::optional<double> &value)
{
    return value ? QLocale().toString(*value, 'f', 1) : QString();
}

QString optionalCount(const std::optional<int64_t> &value)
{
    return value ? QLocale().toString(static_cast<qlonglong>(*value)) : QString();
}

} // namespace

QString uptimeText(qint64 millis)
{
    const qint64 seconds = std::max<qint64>(0, millis / 1000);
    const qint64 days = seconds / 86400;
    const qint64 hours = seconds % 86400 / 3600;
    const qint64 minutes = seconds % 3600 / 60;
    if (days > 0)
        return BrokerTableModel::tr("%1 d %2 h").arg(days).arg(hours);
    if (hours > 0)
        return BrokerTableModel::tr("%1 h %2 min").arg(hours).arg(minutes);
    if (minutes > 0)
        return BrokerTableModel::tr("%1 min %2 s").arg(minutes).arg(seconds % 60);
    return BrokerTableModel::tr("%1 s").arg(seconds);
}

BrokerTableModel::BrokerTableModel(QObject *parent) : QAbstractTableModel(parent) {}

int BrokerTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int BrokerTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void BrokerTableModel::setRows(std::vector<BrokerRow> rows)
{
    // In place (by cluster, broker name, id, address), so the 5 s refresh keeps the selection.
    const auto key = [](const BrokerRow &row) { return std::tie(row.cluster, row.brokerName, row.brokerId, row.address); };
    const auto byKey = [&key](const BrokerRow &a, const BrokerRow &b) { return key(a) < key(b); };
    std::sort(rows.begin(), rows.end(), byKey);
    const bool unique = std::adjacent_find(rows.begin(), rows.end(), [&key](const BrokerRow &a, const BrokerRow &b) {
                            return key(a) == key(b);
                        }) == rows.end();
    if (!unique || !std::is_sorted(rows_.begin(), rows_.end(), byKey)) {
        beginResetModel();
        rows_ = std::move(rows);
        endResetModel();
        return;
    }
    struct Ops
    {
        BrokerTableModel *model;
        void beginRemove(int first, int last) { model->beginRemoveRows({}, first, last); }
        void endRemove() { model->endRemoveRows(); }
        void beginInsert(int first, int last) { model->beginInsertRows({}, first, last); }
        void endInsert() { model->endInsertRows(); }
    };
    mergeSortedRows(
        rows_, std::move(rows), key, Ops{this},
        [](BrokerRow &current, BrokerRow &&fresh) {
            current = std::move(fresh); // the numbers change every time
            return true;
        },
        [this](int row) { emit dataChanged(index(row, 0), index(row, ColumnCount - 1)); });
}

QVariant BrokerTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ClusterColumn: return tr("Cluster");
    case BrokerColumn: return tr("Broker");
    case RoleColumn: return tr("ID / role");
    case AddressColumn: return tr("Address");
    case VersionColumn: return tr("Version");
    case FlushColumn: return tr("Flush mode");
    case PutTpsColumn: return tr("Put TPS");
    case GetTpsColumn: return tr("Get TPS");
    case DiskColumn: return tr("Disk use");
    case UptimeColumn: return tr("Uptime");
    case PutTodayColumn: return tr("Put today");
    case GetTodayColumn: return tr("Get today");
    case ConnectionsColumn: return tr("Connections");
    }
    return {};
}

QVariant BrokerTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size()))
        return {};
    const BrokerRow &row = rows_[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case SortRole: return sortKey(row, index.column());
    case Qt::ToolTipRole:
        if (!row.error.isEmpty())
            return tr("%1 did not answer GET_BROKER_RUNTIME_INFO: %2").arg(row.address, row.error);
        if (index.column() == DiskColumn)
            return QString::fromStdString(row.runtime.commitLogDirCapacity);
        if (index.column() == ConnectionsColumn)
            return connectionsToolTip(row.runtime);
        return {};
    case Qt::ForegroundRole:
        if (!row.error.isEmpty() && index.column() == VersionColumn)
            return QBrush(QColor(192, 57, 43));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() >= PutTpsColumn && index.column() != UptimeColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

QVariant BrokerTableModel::display(const BrokerRow &row, int column) const
{
    const client::BrokerRuntime &r = row.runtime;
    switch (column) {
    case ClusterColumn: return row.cluster;
    case BrokerColumn: return row.brokerName;
    case RoleColumn: return row.brokerId == 0 ? tr("0 (master)") : tr("%1 (slave)").arg(row.brokerId);
    case AddressColumn: return row.address;
    case VersionColumn:
        // A broker that did not answer says why where its version would be.
        return row.error.isEmpty() ? QString::fromStdString(r.version) : tr("not answering: %1").arg(row.error);
    case FlushColumn: return row.flushMode;
    case PutTpsColumn: return optionalNumber(r.putTps);
    case GetTpsColumn: return optionalNumber(r.getTps);
    case DiskColumn: {
        if (!r.commitLogDiskRatio)
            return QString();
        const QString percent = tr("%1 %").arg(QLocale().toString(*r.commitLogDiskRatio * 100, 'f', 1));
        // "Total : 252.0 GiB, Free : 80.1 GiB." → "of 252.0 GiB"; the whole text is the tooltip.
        const QString capacity = QString::fromStdString(r.commitLogDirCapacity);
        const QString total = capacity.section(QStringLiteral("Total : "), 1).section(QLatin1Char(','), 0, 0);
        return total.isEmpty() ? percent : tr("%1 of %2").arg(percent, total);
    }
    case UptimeColumn: return r.bootTimestamp ? uptimeText(row.fetchedAt - *r.bootTimestamp) : QString();
    case PutTodayColumn: return optionalCount(r.putToday);
    case GetTodayColumn: return optionalCount(r.getToday);
    case ConnectionsColumn:
        if (!r.clientConnections)
            return QString(); // a Java broker does not count them
        return QLocale().toString(static_cast<qlonglong>(*r.clientConnections + r.grpcConnections.value_or(0)));
    }
    return {};
}

// What the limits did about clients (README, Limits), for the connections cell.
QString BrokerTableModel::connectionsToolTip(const client::BrokerRuntime &r)
{
    if (!r.clientConnections)
        return tr("This broker does not count its connections (a Java broker)");
    const QLocale locale;
    return tr("%1 remoting and %2 gRPC connections open.\nSince start: %3 closed to make room for a new "
              "client at a limit, %4 refused, %5 closed for what the client did (did not read, never "
              "finished a frame, flooded the HTTP/2 layer).")
        .arg(locale.toString(static_cast<qlonglong>(*r.clientConnections)),
             locale.toString(static_cast<qlonglong>(r.grpcConnections.value_or(0))),
             locale.toString(static_cast<qlonglong>(r.connectionsShed)),
             locale.toString(static_cast<qlonglong>(r.connectionsRefused)),
             locale.toString(static_cast<qlonglong>(r.connectionsClosedForAbuse)));
}

QVariant BrokerTableModel::sortKey(const BrokerRow &row, int column) const
{
    const client::BrokerRuntime &r = row.runtime;
    // Unknown numbers sort below every known one.
    constexpr double kUnknown = -std::numeric_limits<double>::max();
    switch (column) {
    case RoleColumn: return row.brokerId;
    case PutTpsColumn: return r.putTps.value_or(kUnknown);
    case GetTpsColumn: return r.getTps.value_or(kUnknown);
    case DiskColumn: return r.commitLogDiskRatio.value_or(kUnknown);
    case UptimeColumn: return r.bootTimestamp ? static_cast<double>(row.fetchedAt - *r.bootTimestamp) : kUnknown;
    case PutTodayColumn: return r.putToday ? static_cast<double>(*r.putToday) : kUnknown;
    case GetTodayColumn: return r.getToday ? static_cast<double>(*r.getToday) : kUnknown;
    case ConnectionsColumn:
        return r.clientConnections ? static_cast<double>(*r.clientConnections + r.grpcConnections.value_or(0)) : kUnknown;
    default: return display(row, column);
    }
}

} // namespace mqdesk::ui
