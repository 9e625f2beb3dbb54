#pragma once

// BrokersPanel: the Overview's table of every broker of the cluster the views show (the
// embedded broker's, or a saved connection's) — version, address, flush mode, TPS, disk use,
// uptime, today's totals — on a TablePage (ui/widgets/table_page.h), refreshed every 5 s while
// shown and on F5, fetched off the GUI thread.
// A broker that does not answer keeps its row with the error; an empty or unreachable cluster
// says so in place of the table.

#include "ui/widgets/table_page.h"

class QLabel;
class QSortFilterProxyModel;

namespace mqdesk::ui {

class BrokerTableModel;
class ClusterConnection;

class BrokersPanel : public TablePage
{
    Q_OBJECT

public:
    explicit BrokersPanel(ClusterConnection &connection, QWidget *parent = nullptr);

    void refresh();
    // For tests and screenshots.
    BrokerTableModel *model() const { return model_; }
    QString emptyStateText() const { return emptyText(); }
    QString bannerText() const;

signals:
    // A refresh finished (its rows or its error are shown).
    void refreshed();

private:
    void updateEmptyState();
    void showBanner(const QString &text);

    ClusterConnection &connection_;
    BrokerTableModel *model_ = nullptr;
    QSortFilterProxyModel *sorter_ = nullptr;
    QLabel *heading_ = nullptr;
    bool loading_ = false;
    QString loadError_;
    quint64 generation_ = 0;
};

} // namespace mqdesk::ui
