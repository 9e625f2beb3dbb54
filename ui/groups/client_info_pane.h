#pragma once

// The Consumer groups page's "Clients" tab: the selected group's online clients (ID, address,
// language, version) and, for the client selected in that list, its own view of itself — what
// the RocketMQ Dashboard calls the client's running info (GET_CONSUMER_RUNNING_INFO, forwarded by
// a broker to the client): its settings (consume type, thread pool, where it starts), its
// subscriptions, each queue's processing state (committed offset, messages cached, lock, last
// pull and consume), its rates per topic, and for a Java client on request its thread stacks.
// "Consume directly…" has the selected client run its listener on one message (by offset
// message id), as the Dashboard's resend does. Everything is fetched through
// ClusterConnection::run; answers to an earlier selection are dropped.

#include "ui/connection/cluster_connection.h"

#include "broker/client/rocketmq5_stats.h"
#include "broker/remoting/protocol/client_data.h"
#include "broker/remoting/protocol/consumer_running_info.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTreeWidget;

namespace mqdesk::ui {

class ClientListModel;

class ClientInfoPane : public QWidget
{
    Q_OBJECT

public:
    explicit ClientInfoPane(ClusterConnection &connection, QWidget *parent = nullptr);

    // The group's online clients (none when `clients` is empty); the first one is selected. A lite
    // group's clients come with their lite topics, shown beside each client's running info.
    void setClients(const QString &group, const std::optional<remoting::ConsumerConnection> &clients,
                    std::vector<client::LiteClientTopics> liteTopics = {});

    // For tests and screenshots.
    QTableView *clientTable() const { return clientTable_; }
    QCheckBox *stacksCheck() const { return stacks_; }
    QPushButton *refreshButton() const { return refresh_; }
    QTreeWidget *detailTree() const { return detail_; }
    QPlainTextEdit *stacksText() const { return stacksText_; }
    QLineEdit *directMessageEdit() const { return directId_; }
    QLineEdit *directTopicEdit() const { return directTopic_; }
    QPushButton *consumeDirectlyButton() const { return consumeDirectly_; }
    QString statusText() const;
    QString directResultText() const;

signals:
    void runningInfoLoaded();
    void consumedDirectly();

private:
    QString selectedClientId() const;
    void loadRunningInfo();
    void showRunningInfo(const remoting::ConsumerRunningInfo &info);
    void showLiteTopics(const QString &clientId);
    void runConsumeDirectly();

    ClusterConnection &connection_;
    QString group_;
    std::vector<client::LiteClientTopics> liteTopics_;
    ClientListModel *clients_ = nullptr;
    QTableView *clientTable_ = nullptr;
    QLabel *status_ = nullptr;
    QCheckBox *stacks_ = nullptr;
    QPushButton *refresh_ = nullptr;
    QTreeWidget *detail_ = nullptr;
    QPlainTextEdit *stacksText_ = nullptr;
    QLineEdit *directId_ = nullptr;
    QLineEdit *directTopic_ = nullptr;
    QPushButton *consumeDirectly_ = nullptr;
    QLabel *directResult_ = nullptr;
    int generation_ = 0;
};

} // namespace mqdesk::ui
