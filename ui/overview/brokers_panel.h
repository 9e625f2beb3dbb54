#pragma once

// BrokersPanel: the Overview's table of every broker of the cluster the views show (the
// embedded broker's, or a saved connection's) — version, address, flush mode, TPS, disk use,
// uptime, today's totals — refreshed every 5 s while shown and on F5, fetched off the GUI thread.
// A broker that does not answer keeps its row with the error; an empty or unreachable cluster
// says so in place of the table.

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTimer;

namespace mqdesk::ui {

class BrokerTableModel;
class ClusterConnection;

class BrokersPanel : public QWidget
{
    Q_OBJECT

public:
    explicit BrokersPanel(ClusterConnection &connection, QWidget *parent = nullptr);

    void refresh();
    // For tests and screenshots.
    BrokerTableModel *model() const { return model_; }
    QTableView *table() const { return table_; }
    QString emptyStateText() const;
    QString bannerText() const;

signals:
    // A refresh finished (its rows or its error are shown).
    void refreshed();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void updateEmptyState();
    void showBanner(const QString &text);

    ClusterConnection &connection_;
    BrokerTableModel *model_ = nullptr;
    QSortFilterProxyModel *sorter_ = nullptr;
    QTableView *table_ = nullptr;
    QLabel *heading_ = nullptr;
    QLabel *emptyState_ = nullptr;
    QLabel *banner_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    QTimer *timer_ = nullptr;
    bool loading_ = false;
    QString loadError_;
    quint64 generation_ = 0;
};

} // namespace mqdesk::ui
