#pragma once

// The Overview's brokers table: one row per broker of the cluster the views show, from one
// GET_BROKER_CLUSTER_INFO and one GET_BROKER_RUNTIME_INFO per broker (as mqadmin clusterList),
// plus GET_BROKER_CONFIG for a broker whose runtime info does not carry its flush mode (Java).
// fetchBrokerRows() blocks on the network (run it through ClusterConnection::run); the model
// only shows what it returned.

#include "broker/client/broker_runtime.h"
#include "broker/client/client_types.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace mqdesk::client {
class AdminClient;
}

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

struct BrokerListing
{
    client::Status status; // the cluster info's failure; a broker's failure is in its row
    std::vector<BrokerRow> rows; // by cluster, broker name, id
};

BrokerListing fetchBrokerRows(client::AdminClient &admin);

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
