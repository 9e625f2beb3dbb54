#include "ui/access/access_view.h"

#include "ui/access/access_dialogs.h"
#include "ui/access/access_model.h"
#include "ui/connection/cluster_connection.h"
#include "ui/widgets/banner.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QScopeGuard>

namespace mqdesk::ui {

namespace {

QString q(const std::string &text) { return QString::fromStdString(text); }

TablePage::Options pageOptions()
{
    return {AccessView::tr("Find a user (Ctrl+F)"), AccessView::tr("Fetch the users and policies again (F5)"),
            AccessView::tr("users.csv"), QStringLiteral("access")};
}

QPushButton *button(const QString &text, const QString &objectName, QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setObjectName(objectName);
    return b;
}

} // namespace

AccessView::AccessView(ClusterConnection &connection, QWidget *parent)
    : TablePage(pageOptions(), parent), connection_(connection)
{
    users_ = new UserTableModel(this);
    auto *filter = new QSortFilterProxyModel(this);
    filter->setSourceModel(users_);
    filter->setFilterKeyColumn(UserTableModel::NameColumn);
    filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    setModel(filter);
    table()->sortByColumn(UserTableModel::NameColumn, Qt::AscendingOrder);
    table()->horizontalHeader()->setSectionResizeMode(UserTableModel::NameColumn, QHeaderView::Stretch);
    connect(findField(), &QLineEdit::textChanged, filter, &QSortFilterProxyModel::setFilterFixedString);

    newUser_ = button(tr("&New user…"), QStringLiteral("newUserButton"), this);
    editUser_ = button(tr("&Edit user…"), QStringLiteral("editUserButton"), this);
    deleteUser_ = button(tr("&Delete user…"), QStringLiteral("deleteUserButton"), this);
    addToolbarWidget(new QWidget(this), 1);
    addToolbarWidget(newUser_);
    addToolbarWidget(editUser_);
    addToolbarWidget(deleteUser_);
    buildDetail();

    connect(this, &TablePage::refreshRequested, this, &AccessView::refresh);
    connect(newUser_, &QPushButton::clicked, this, &AccessView::createUser);
    connect(editUser_, &QPushButton::clicked, this, &AccessView::editUser);
    connect(deleteUser_, &QPushButton::clicked, this, &AccessView::deleteUser);
    connect(table(), &QTableView::activated, this, &AccessView::editUser);
    connect(table()->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AccessView::onUserChanged);
    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, [this] {
        banner()->clearReport(); // about the previous cluster
        users_->setData({}, {});
        onUserChanged();
        stale_ = true;
        if (isVisible())
            refresh();
    });
    updateActions();
    setEmptyText(tr("Show this page to read the cluster's users."));
}

void AccessView::buildDetail()
{
    auto *detail = new QWidget(this);
    auto *layout = new QVBoxLayout(detail);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *policies = new QGroupBox(tr("Policy entries of the selected user"), detail);
    entries_ = new PolicyEntryModel(this);
    entryTable_ = new QTableView(policies);
    entryTable_->setObjectName(QStringLiteral("policyEntryTable"));
    configureListTable(entryTable_);
    entryTable_->setSortingEnabled(false); // Custom first, then Default: the order they apply in
    entryTable_->setModel(entries_);
    entryTable_->horizontalHeader()->setSectionResizeMode(PolicyEntryModel::ResourceColumn, QHeaderView::Stretch);
    newEntry_ = button(tr("New &entry…"), QStringLiteral("newEntryButton"), policies);
    editEntry_ = button(tr("Edit entry…"), QStringLiteral("editEntryButton"), policies);
    deleteEntry_ = button(tr("Delete entry"), QStringLiteral("deleteEntryButton"), policies);
    auto *entryButtons = new QVBoxLayout;
    entryButtons->addWidget(newEntry_);
    entryButtons->addWidget(editEntry_);
    entryButtons->addWidget(deleteEntry_);
    entryButtons->addStretch(1);
    auto *policyRow = new QHBoxLayout(policies);
    policyRow->addWidget(entryTable_, 1);
    policyRow->addLayout(entryButtons);

    auto *question = new QGroupBox(tr("What may the selected user do?"), detail);
    questionType_ = new QComboBox(question);
    questionType_->setObjectName(QStringLiteral("questionType"));
    for (acl::ResourceType type : {acl::ResourceType::Topic, acl::ResourceType::Group, acl::ResourceType::Cluster})
        questionType_->addItem(resourceTypeTitle(type), static_cast<int>(type));
    questionName_ = new QLineEdit(question);
    questionName_->setObjectName(QStringLiteral("questionName"));
    questionName_->setPlaceholderText(tr("topic, group or cluster name"));
    questionHost_ = new QLineEdit(question);
    questionHost_->setObjectName(QStringLiteral("questionHost"));
    questionHost_->setPlaceholderText(tr("from IP (optional)"));
    questionHost_->setToolTip(tr("Entries limited to source IPs apply only to requests from those addresses"));
    askButton_ = button(tr("Answer"), QStringLiteral("answerButton"), question);
    answers_ = new QTableWidget(0, 3, question);
    answers_->setObjectName(QStringLiteral("answerTable"));
    answers_->setHorizontalHeaderLabels({tr("Action"), tr("Decision"), tr("Why")});
    configureListTable(answers_);
    answers_->setSortingEnabled(false);
    answers_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    auto *askRow = new QHBoxLayout;
    askRow->addWidget(questionType_);
    askRow->addWidget(questionName_, 2);
    askRow->addWidget(questionHost_, 1);
    askRow->addWidget(askButton_);
    auto *questionLayout = new QVBoxLayout(question);
    questionLayout->addLayout(askRow);
    questionLayout->addWidget(answers_, 1);

    layout->addWidget(policies, 1);
    layout->addWidget(question, 1);
    setDetail(detail, 2, 3);

    connect(newEntry_, &QPushButton::clicked, this, &AccessView::createEntry);
    connect(editEntry_, &QPushButton::clicked, this, &AccessView::editEntry);
    connect(deleteEntry_, &QPushButton::clicked, this, &AccessView::deleteEntry);
    connect(entryTable_, &QTableView::activated, this, &AccessView::editEntry);
    connect(entryTable_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AccessView::updateActions);
    connect(askButton_, &QPushButton::clicked, this, &AccessView::answerQuestion);
    connect(questionName_, &QLineEdit::returnPressed, this, &AccessView::answerQuestion);
    connect(questionHost_, &QLineEdit::returnPressed, this, &AccessView::answerQuestion);
}

void AccessView::showEvent(QShowEvent *event)
{
    TablePage::showEvent(event);
    if (stale_)
        refresh();
}

QString AccessView::bannerText() const
{
    return banner()->isVisible() ? banner()->text() : QString();
}

void AccessView::refresh()
{
    stale_ = false;
    if (!connection_.isConnected()) {
        setEmptyText(tr("No cluster is connected."));
        return;
    }
    loading_ = true;
    const int generation = ++generation_;
    setEmptyText(tr("Reading the users and policies…"));
    connection_.run(
        this, [](client::AdminClient &admin) { return admin.authSnapshot(); },
        [this, generation](client::Result<client::AdminClient::AuthSnapshot> snapshot) {
            if (generation != generation_)
                return;
            loading_ = false;
            const QString selected = selectedUsername();
            const auto clearOutcome = qScopeGuard([this] { changeOutcome_.clear(); });
            if (!snapshot.ok) {
                users_->setData({}, {});
                const QString failure = failureText(snapshot, tr("The users could not be read"));
                banner()->report(changeOutcome_.isEmpty() ? failure : changeOutcome_ + u' ' + failure,
                                 Banner::Tone::Error);
                setEmptyText(tr("No users to show."));
            } else {
                source_ = snapshot.value.masters > 1
                              ? tr("Read from %1, one of %2 masters; changes go to every master.")
                                    .arg(q(snapshot.value.brokerAddr))
                                    .arg(snapshot.value.masters)
                              : tr("Read from %1.").arg(q(snapshot.value.brokerAddr));
                users_->setData(std::move(snapshot.value.users), std::move(snapshot.value.acls));
                setEmptyText(users_->rowCount() == 0 ? tr("The cluster has no ACL 2.0 users yet: add one with New user…")
                                                     : QString());
                // A change's outcome stays in view over the listing that follows it.
                if (!changeOutcome_.isEmpty())
                    banner()->report(changeOutcome_, changeFailed_ ? Banner::Tone::Error : Banner::Tone::Info);
                else
                    banner()->report(source_);
                const int row = users_->rowOf(selected);
                if (row >= 0) {
                    const QModelIndex index = static_cast<QSortFilterProxyModel *>(table()->model())
                                                  ->mapFromSource(users_->index(row, 0));
                    table()->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect
                                                                 | QItemSelectionModel::Rows);
                    table()->setCurrentIndex(index);
                }
            }
            onUserChanged();
            emit accessLoaded();
        });
}

QString AccessView::failureText(const client::Status &status, const QString &what)
{
    QString hint;
    if (status.isNotSupported())
        hint = tr("This cluster has no ACL 2.0 (RocketMQ 5.3 or later with authenticationEnabled / "
                  "authorizationEnabled); a 4.x cluster's ACL is its plain_acl.yml.");
    else if (status.isNoPermission())
        hint = tr("Reach the cluster as a Super user: set the connection's access key and secret key in "
                  "Connections ▸ Credentials….");
    return hint.isEmpty() ? tr("%1: %2").arg(what, q(status.error)) : tr("%1: %2. %3").arg(what, q(status.error), hint);
}

QString AccessView::selectedUsername() const
{
    const QModelIndexList rows = table()->selectionModel()->selectedRows(UserTableModel::NameColumn);
    return rows.isEmpty() ? QString() : rows.first().data().toString();
}

void AccessView::onUserChanged()
{
    entries_->setAcl(users_->aclOf(selectedUsername()));
    answers_->setRowCount(0);
    updateActions();
}

void AccessView::updateActions()
{
    const QString user = selectedUsername();
    const int row = users_->rowOf(user);
    const acl::User *selected = users_->user(row);
    const bool connected = connection_.isConnected();
    newUser_->setEnabled(connected);
    editUser_->setEnabled(selected);
    deleteUser_->setEnabled(selected);
    newEntry_->setEnabled(selected);
    const bool entry = entries_->entryAt(entryTable_->currentIndex().row())
                       && entryTable_->selectionModel()->hasSelection();
    editEntry_->setEnabled(selected && entry);
    deleteEntry_->setEnabled(selected && entry);
    askButton_->setEnabled(selected);
}

void AccessView::applyChange(const QString &done,
                             std::function<client::Status(client::MQClientAPI &, const std::string &)> change)
{
    connection_.run(
        this, [change = std::move(change)](client::AdminClient &admin) { return admin.onEveryMaster({}, change); },
        [this, done](client::Status status) {
            changeFailed_ = !status.ok;
            changeOutcome_ = status.ok ? done : failureText(status, tr("The change was refused"));
            connect(this, &AccessView::accessLoaded, this, [this, ok = status.ok] { emit changeFinished(ok); },
                    Qt::SingleShotConnection);
            refresh();
        });
}

void AccessView::createUser()
{
    UserDialog dialog(nullptr, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const acl::User user = dialog.user();
    applyChange(tr("Created user %1.").arg(q(user.username)),
                [user](client::MQClientAPI &api, const std::string &addr) { return api.createUser(addr, user); });
}

void AccessView::editUser()
{
    const acl::User *existing = users_->user(users_->rowOf(selectedUsername()));
    if (!existing)
        return;
    UserDialog dialog(existing, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const acl::User user = dialog.user();
    applyChange(tr("Updated user %1.").arg(q(user.username)),
                [user](client::MQClientAPI &api, const std::string &addr) { return api.updateUser(addr, user); });
}

void AccessView::deleteUser()
{
    const QString name = selectedUsername();
    if (name.isEmpty())
        return;
    QMessageBox box(QMessageBox::Warning, tr("Delete user"),
                    tr("Delete user %1 and the policies that name them from every master?").arg(name),
                    QMessageBox::NoButton, this);
    QPushButton *confirm = box.addButton(tr("Delete %1").arg(name), QMessageBox::DestructiveRole);
    confirm->setObjectName(QStringLiteral("confirmDeleteUser"));
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() != confirm)
        return;
    applyChange(tr("Deleted user %1.").arg(name), [user = name.toStdString()](client::MQClientAPI &api, const std::string &addr) {
        return api.deleteUser(addr, user);
    });
}

void AccessView::createEntry()
{
    const QString user = selectedUsername();
    if (user.isEmpty())
        return;
    PolicyEntryDialog dialog(user, nullptr, false, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const acl::Acl change = dialog.acl();
    applyChange(tr("Added %1 to the policies of %2.").arg(q(change.policies.front().entries.front().resourceKey()), user),
                [change](client::MQClientAPI &api, const std::string &addr) { return api.updateAcl(addr, change); });
}

void AccessView::editEntry()
{
    const QString user = selectedUsername();
    const PolicyEntryModel::Row *row = entries_->entryAt(entryTable_->currentIndex().row());
    if (user.isEmpty() || !row)
        return;
    PolicyEntryDialog dialog(user, &row->entry, row->isDefault, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const acl::Acl change = dialog.acl();
    const std::string subject = change.subject;
    const std::string oldResource = row->entry.resourceKey();
    const std::string oldPolicy = row->isDefault ? "Default" : "Custom";
    const bool moved = oldResource != change.policies.front().entries.front().resourceKey()
                       || row->isDefault != dialog.isDefaultPolicy();
    // An entry is keyed by its resource: one that names another resource (or policy) replaces
    // the old entry, which is deleted first.
    applyChange(tr("Changed %1 in the policies of %2.").arg(q(oldResource), user),
                [change, subject, oldResource, oldPolicy, moved](client::MQClientAPI &api, const std::string &addr) {
                    if (moved)
                        if (client::Status status = api.deleteAcl(addr, subject, oldPolicy, oldResource); !status.ok)
                            return status;
                    return api.updateAcl(addr, change);
                });
}

void AccessView::deleteEntry()
{
    const QString user = selectedUsername();
    const PolicyEntryModel::Row *row = entries_->entryAt(entryTable_->currentIndex().row());
    if (user.isEmpty() || !row)
        return;
    const std::string resource = row->entry.resourceKey();
    const std::string policy = row->isDefault ? "Default" : "Custom";
    applyChange(tr("Removed %1 from the policies of %2.").arg(q(resource), user),
                [subject = "User:" + user.toStdString(), policy, resource](client::MQClientAPI &api,
                                                                           const std::string &addr) {
                    return api.deleteAcl(addr, subject, policy, resource);
                });
}

void AccessView::answerQuestion()
{
    const acl::User *user = users_->user(users_->rowOf(selectedUsername()));
    if (!user)
        return;
    const auto type = static_cast<acl::ResourceType>(questionType_->currentData().toInt());
    const std::vector<AccessAnswer> answers = explainAccess(*user, users_->aclOf(q(user->username)), type,
                                                            questionName_->text().trimmed(),
                                                            questionHost_->text().trimmed());
    answers_->setRowCount(static_cast<int>(answers.size()));
    for (int i = 0; i < static_cast<int>(answers.size()); ++i) {
        const AccessAnswer &answer = answers[i];
        answers_->setItem(i, 0, new QTableWidgetItem(answer.action));
        auto *decision = new QTableWidgetItem(answer.allowed ? tr("allowed") : tr("denied"));
        decision->setForeground(answer.allowed ? QColor(0x1e, 0x6b, 0x2e) : QColor(0x8a, 0x1f, 0x11));
        answers_->setItem(i, 1, decision);
        answers_->setItem(i, 2, new QTableWidgetItem(answer.reason));
    }
}

} // namespace mqdesk::ui
