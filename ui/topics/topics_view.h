#pragma once

// Topics: every topic of the connected cluster in a sortable table (name, kind, 5.x message
// type, queues, perm, stored messages) on a TablePage (ui/widgets/table_page.h: find, F5, copy,
// CSV, empty state, banner), filtered as you type, by kind and by type; refreshed with F5,
// whenever the connection changes and live (every 5 s while shown, never while a fetch is still
// under way, rows updated in place); create, edit and delete topics; the selected topic's
// queues, route and consumer groups below. The list takes one GET_ALL_TOPIC_CONFIG per master;
// message counts are fetched only for the rows on screen.

#include "ui/topics/topic_table_model.h"
#include "ui/widgets/serial_fetch.h"
#include "ui/widgets/table_page.h"

#include <QSet>

class QComboBox;
class QLabel;
class QPushButton;
class QTimer;

namespace mqdesk::ui {

class ClusterConnection;
class TopicDetailPane;

class TopicsView : public TablePage
{
    Q_OBJECT

public:
    explicit TopicsView(ClusterConnection &connection, QWidget *parent = nullptr);

    // Fetches the topic list again (F5).
    void refresh();
    // F5 and the Refresh button: the list and the selected topic's pane.
    void refreshOnScreen();
    // The live refresh: fetches the list quietly (no loading state, no topicsLoaded) unless the
    // view is hidden, its window minimised or a list fetch is under way.
    void refreshIfShown();
    static constexpr int kLiveRefreshMillis = 5000;
    // Opens the create dialog / the edit dialog of the selected topic / the delete confirmation.
    void createTopic();
    void editSelectedTopic();
    void deleteSelectedTopic();
    // Selects `topic` in the table when it is shown; false otherwise.
    bool selectTopic(const QString &topic);
    QString selectedTopic() const;

    bool isLoading() const { return loading_; }
    QString bannerText() const;
    QString emptyStateText() const { return emptyText(); }
    TopicTableModel *topicModel() const { return model_; }
    TopicFilterModel *filterModel() const { return filter_; }
    QLineEdit *searchField() const { return findField(); }
    QComboBox *kindFilter() const { return kindCombo_; }
    QComboBox *messageTypeFilter() const { return typeCombo_; }
    TopicDetailPane *detailPane() const { return detail_; }

signals:
    // A list fetch finished (ok or not); not emitted by live refreshes.
    void topicsLoaded();
    // A create, edit or delete finished.
    void changeFinished(bool ok);

private:
    static Options pageOptions();
    void fetchList(bool live);
    void startFetch(bool live);
    // `attributes`: the 5.x modifications to send ("+message.type=FIFO"), may be empty.
    void applyTopicConfig(const remoting::TopicConfigData &config, bool creating, const std::string &attributes);
    void showBanner(const QString &text, bool error);
    void updateEmptyState();
    void updateActions();
    void onCurrentChanged();
    void scheduleVisibleCounts();
    void fetchVisibleCounts();

    ClusterConnection &connection_;
    TopicTableModel *model_ = nullptr;
    TopicFilterModel *filter_ = nullptr;
    QComboBox *kindCombo_ = nullptr;
    QComboBox *typeCombo_ = nullptr;
    QPushButton *createButton_ = nullptr;
    QPushButton *editButton_ = nullptr;
    QPushButton *deleteButton_ = nullptr;
    QLabel *countLabel_ = nullptr;
    TopicDetailPane *detail_ = nullptr;
    QTimer *countTimer_ = nullptr;

    bool loading_ = false; // a fetch asked for (F5, a change, a new connection)
    SerialFetch listFetch_; // every list fetch, live ones too: one at a time, the latest wins
    QString loadError_;
    QSet<QString> countsRequested_;
    QString topicToSelect_;
};

} // namespace mqdesk::ui
