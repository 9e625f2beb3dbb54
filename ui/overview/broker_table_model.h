#pragma once

// The Overview's brokers table: one row per broker of the cluster the views show, as
// fetchBrokerRows() (broker_data.h) returned them; the model only shows them.

#include "broker/client/broker_runtime.h"
#include "broker/client/client_types.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace mqdesk::ui {

struct BrokerRow
{
    QString cluster;
    QString brokerName;
    qint64 brokerId = 0;
    QString address;
    QString error; // why the broker did not answer; empty when it did
    client::BrokerRuntime runtime;
    QString flushMode; // "ASYNC_FLUSH", "SYNC_FLUSH + pool"; empty when unknown
    qint64 fetchedAt = 0; // ms since epoch, for the uptime
};

// "3 d 4 h", "5 h 12 min", "42 s".
QString uptimeText(qint64 millis);

class BrokerTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        ClusterColumn, BrokerColumn, RoleColumn, AddressColumn, VersionColumn, FlushColumn, PutTpsColumn,
        GetTpsColumn, DiskColumn, UptimeColumn, PutTodayColumn, GetTodayColumn,
        ConnectionsColumn, ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit BrokerTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRows(std::vector<BrokerRow> rows);
    const std::vector<BrokerRow> &rows() const { return rows_; }

private:
    QVariant display(const BrokerRow &row, int column) const;
    QVariant sortKey(const BrokerRow &row, int column) const;
    static QString connectionsToolTip(const client::BrokerRuntime &runtime);

    std::vector<BrokerRow> rows_;
};

} // namespace mqdesk::ui
