#pragma once

// Consumer groups: the groups of the connected cluster (name, online clients, total lag, topics
// consumed, consume mode) on a TablePage (ui/widgets/table_page.h) with a filter, live: fetched again every 5 s while the view is shown
// (and when it is shown; never while hidden, minimised or while a fetch is under way) with the
// rows updated in place, and for the selected group its queues (offsets, lag,
// last consume time) and its connected clients. Actions: reset offsets (earliest / latest / by
// time), skip accumulated, create and delete a group config. Everything is fetched through
// ClusterConnection::run; results and errors appear inline, destructive changes ask once in an
// inline bar that says what will change.

#include "ui/connection/cluster_connection.h"
#include "ui/groups/group_data.h"

#include "ui/widgets/serial_fetch.h"
#include "ui/widgets/table_page.h"

#include <functional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace mqdesk::ui {

class ClientInfoPane;
class TrafficChart;
class GroupQueueModel;
class GroupTableModel;
class HistoryRecorder;
class HistoryStore;
class LagChart;

class GroupsView : public TablePage
{
    Q_OBJECT

public:
    explicit GroupsView(ClusterConnection &connection, QWidget *parent = nullptr);

    // Adds the "Lag over time" tab to the detail pane: the selected group's lag from `history`,
    // followed live through `recorder`; offset resets are stored as chart markers.
    void setHistory(HistoryStore &history, HistoryRecorder &recorder);

    // F5: fetches the list again (and the selected group's detail).
    void refresh();
    // The live refresh: fetches the list quietly (no loading text, no groupsLoaded, the selected
    // group's detail left as it is) unless the view is hidden, its window minimised or a fetch of
    // the list or of its clients is under way.
    void refreshIfShown();
    static constexpr int kLiveRefreshMillis = 5000;
    bool isLoading() const { return loading_; }
    // Makes `name` the current group (when listed and not filtered out) and loads its detail,
    // again when it already was current; detailLoaded() follows.
    void selectGroup(const QString &name);
    QString selectedGroup() const;

    // The actions' code paths, as their buttons run them after their dialogs: each shows the
    // inline confirmation (reset, delete) or starts at once (create).
    void requestReset(ResetTarget target, int64_t timestampMillis = 0);
    void requestDelete();
    void createGroup(const client::SubscriptionGroupConfig &config);
    // What the confirmation bar's Confirm button does.
    void confirmPending();

    // For tests and screenshots.
    GroupTableModel *groupModel() const { return groups_; }
    QSortFilterProxyModel *groupProxy() const { return proxy_; }
    QTableView *groupTable() const { return table(); }
    QTableView *queueTable() const { return queueTable_; }
    GroupQueueModel *queueModel() const { return queues_; }
    QLineEdit *filterEdit() const { return findField(); }
    LagChart *lagChart() const { return lagChart_; }
    ClientInfoPane *clientPane() const { return clientPane_; }
    TrafficChart *trafficChart() const { return traffic_; }
    QTabWidget *detailTabs() const { return detailTabs_; }
    QString bannerText() const;
    QString confirmationText() const;
    QString clientsText() const;
    QString emptyStateText() const { return emptyText(); }
    // The selected rows as tab-separated text, without the column titles.
    QString copySelectedRows() const;

signals:
    // A list fetch finished; not emitted by live refreshes.
    void groupsLoaded();
    void detailLoaded();
    void actionFinished(bool ok);

private:
    static Options pageOptions();
    void addToolbarButtons();
    QWidget *buildConfirmBar();
    QWidget *buildDetailPane();
    void fetchList(bool live);
    void startFetch(bool live);
    void applySnapshot(GroupsSnapshot snapshot, bool live = false);
    void showGroups(bool live = false);
    void loadDetail();
    void showDetail(GroupDetail detail);
    void showTraffic(const GroupDetail &detail);
    void showPopFigures(const std::optional<client::PopStats> &pop);
    void showLiteFigures(const GroupDetail &detail);
    void updateActions();
    void updateEmptyState();
    void showBanner(const QString &text, bool error);
    void askConfirmation(const QString &text, std::function<void()> action);
    void finishAction(bool ok, const QString &text);
    void showLagOf(const QString &group);
    void recordReset(const QString &group);
    void openResetDialog();
    void openCreateDialog();

    ClusterConnection &connection_;
    GroupTableModel *groups_ = nullptr;
    QSortFilterProxyModel *proxy_ = nullptr;
    GroupQueueModel *queues_ = nullptr;
    QCheckBox *showSystem_ = nullptr;
    QPushButton *resetButton_ = nullptr;
    QPushButton *skipButton_ = nullptr;
    QPushButton *deleteButton_ = nullptr;
    QLabel *status_ = nullptr;
    QWidget *confirmBar_ = nullptr;
    QLabel *confirmLabel_ = nullptr;
    QLabel *detailTitle_ = nullptr;
    QTableView *queueTable_ = nullptr;
    QLabel *clients_ = nullptr;
    QLabel *pop_ = nullptr;
    QLabel *lite_ = nullptr;
    QTabWidget *detailTabs_ = nullptr;
    LagChart *lagChart_ = nullptr;
    ClientInfoPane *clientPane_ = nullptr;
    TrafficChart *traffic_ = nullptr;
    HistoryStore *history_ = nullptr;
    HistoryRecorder *recorder_ = nullptr;
    QString watchedGroup_;

    GroupsSnapshot snapshot_;
    std::function<void()> pendingAction_;
    QString selectAfterLoad_;
    bool loading_ = false;
    SerialFetch listFetch_;         // every list fetch, live ones too: one at a time, the latest wins
    bool presenceInFlight_ = false; // the clients column's pass after it (for listFetch_.latest())
    int detailGeneration_ = 0;
};

} // namespace mqdesk::ui
