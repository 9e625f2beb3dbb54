#pragma once

// Access control: ACL 2.0's users and policies of the shown cluster (RocketMQ 5.3+, MQDesk or
// Java), on a TablePage — the users (AUTH_LIST_USER) in the table; under it the selected user's
// policy entries (AUTH_LIST_ACL) and "What may this user do?" for a topic, group or cluster,
// answered from those policies the way the broker decides. Users and entries are created,
// edited and deleted through dialogs (AUTH_CREATE/UPDATE/DELETE_USER, AUTH_UPDATE/DELETE_ACL);
// every change goes to each master of the cluster, as Java's mqadmin does (Java keeps them per
// broker), and the lists are read from the first master. Fetched when the page is shown, when
// the connection changes and on F5; not live.
//
// The cluster must be reached as a Super user (the saved connection's credentials: Connections
// ▸ Credentials…); a refusal or a cluster without ACL 2.0 is said in the banner with what to do.

#include "ui/widgets/table_page.h"

#include <functional>
#include <string>

class QComboBox;
class QLineEdit;
class QPushButton;
class QTableView;
class QTableWidget;

namespace mqdesk::client {
class MQClientAPI;
struct Status;
} // namespace mqdesk::client

namespace mqdesk::ui {

class ClusterConnection;
class PolicyEntryModel;
class UserTableModel;

class AccessView : public TablePage
{
    Q_OBJECT

public:
    explicit AccessView(ClusterConnection &connection, QWidget *parent = nullptr);

    void refresh();
    bool isLoading() const { return loading_; }
    QString bannerText() const;
    UserTableModel *userModel() const { return users_; }
    PolicyEntryModel *entryModel() const { return entries_; }
    QTableView *entryTable() const { return entryTable_; }
    QTableWidget *answerTable() const { return answers_; }

signals:
    // A list fetch finished (ok or not).
    void accessLoaded();
    // A change finished (ok or not) and the lists were fetched again.
    void changeFinished(bool ok);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void buildDetail();
    QString selectedUsername() const;
    void onUserChanged();
    void updateActions();
    void createUser();
    void editUser();
    void deleteUser();
    void createEntry();
    void editEntry();
    void deleteEntry();
    void answerQuestion();
    // Runs `change` on every master, then says `done` (or the failure) and fetches again.
    void applyChange(const QString &done,
                     std::function<client::Status(client::MQClientAPI &, const std::string &)> change);
    // `what` failed: the broker's words, and what to do about a refusal or a cluster without ACL 2.0.
    static QString failureText(const client::Status &status, const QString &what);

    ClusterConnection &connection_;
    UserTableModel *users_ = nullptr;
    PolicyEntryModel *entries_ = nullptr;
    QTableView *entryTable_ = nullptr;
    QPushButton *newUser_ = nullptr;
    QPushButton *editUser_ = nullptr;
    QPushButton *deleteUser_ = nullptr;
    QPushButton *newEntry_ = nullptr;
    QPushButton *editEntry_ = nullptr;
    QPushButton *deleteEntry_ = nullptr;
    QComboBox *questionType_ = nullptr;
    QLineEdit *questionName_ = nullptr;
    QLineEdit *questionHost_ = nullptr;
    QPushButton *askButton_ = nullptr;
    QTableWidget *answers_ = nullptr;
    QString source_; // "read from 127.0.0.1:10911, one of 2 masters"
    QString changeOutcome_; // the last change's report, shown after the listing it triggered
    bool changeFailed_ = false;
    bool loading_ = false;
    bool stale_ = true; // fetch when next shown
    int generation_ = 0;
};

} // namespace mqdesk::ui
