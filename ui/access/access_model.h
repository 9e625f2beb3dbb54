#pragma once

// The Access control page's data: ACL 2.0's users and, for the selected user, the entries of
// their policies, as thin table models over what AUTH_LIST_USER / AUTH_LIST_ACL answered
// (acl/auth_model.h holds the types); and the answer to "what may this user do on this
// resource?" decided the way the broker decides it (acl::decidingEntry: Super users may do
// everything, disabled users nothing, else the Custom policy's best-matching entry, then the
// Default policy's, else denied).

#include "broker/acl/auth_model.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace mqdesk::ui {

class UserTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, TypeColumn, StatusColumn, EntriesColumn, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    // Replaces the users and their ACLs (any order; shown sorted by name).
    void setData(std::vector<acl::User> users, std::vector<acl::Acl> acls);
    const acl::User *user(int row) const;
    const acl::Acl *aclOf(const QString &username) const; // nullptr: the user has none
    int rowOf(const QString &username) const;              // -1 when absent

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<acl::User> users_;
    std::vector<acl::Acl> acls_;
};

// One row per entry of a user's policies: Custom first, then Default.
class PolicyEntryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { PolicyColumn, ResourceColumn, ActionsColumn, SourceIpsColumn, DecisionColumn, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setAcl(const acl::Acl *acl); // nullptr: no entries
    struct Row
    {
        bool isDefault = false;
        acl::PolicyEntry entry;
    };
    const Row *entryAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<Row> rows_;
};

// A resource type as the console names it ("Topic", "Any resource"), translated.
QString resourceTypeTitle(acl::ResourceType type);

// "Pub, Sub" for the entry's actions ("All" for the All bit).
QString actionsText(uint16_t actions);

// One action of a "what may this user do?" answer.
struct AccessAnswer
{
    QString action;  // "Pub"
    bool allowed = false;
    QString reason;  // "Custom policy: Topic:orders* Allow", "Super user", "no policy entry matches"
};

// The actions a resource of `type` takes (Java's: Topic Pub/Sub/Create/Update/Delete/Get/List,
// Group Sub/Create/Update/Delete/Get/List, Cluster Create/Update/Delete/Get/List).
std::vector<uint16_t> actionsFor(acl::ResourceType type);

// What `user` may do on `type:name` from `host` (an IP; empty: from an address no entry names).
std::vector<AccessAnswer> explainAccess(const acl::User &user, const acl::Acl *acl, acl::ResourceType type,
                                        const QString &name, const QString &host);

} // namespace mqdesk::ui
