#include "ui/access/access_model.h"

#include <algorithm>

namespace mqdesk::ui {

namespace {

QString q(const std::string &text) { return QString::fromStdString(text); }

QString policyName(bool isDefault)
{
    return isDefault ? UserTableModel::tr("Default") : UserTableModel::tr("Custom");
}

size_t entryCount(const acl::Acl *acl)
{
    size_t count = 0;
    if (acl)
        for (const acl::Policy &policy : acl->policies)
            count += policy.entries.size();
    return count;
}

} // namespace

QString resourceTypeTitle(acl::ResourceType type)
{
    switch (type) {
    case acl::ResourceType::Topic: return UserTableModel::tr("Topic");
    case acl::ResourceType::Group: return UserTableModel::tr("Group");
    case acl::ResourceType::Cluster: return UserTableModel::tr("Cluster");
    case acl::ResourceType::Namespace: return UserTableModel::tr("Namespace");
    case acl::ResourceType::Any: return UserTableModel::tr("Any resource");
    case acl::ResourceType::Unknown: break;
    }
    return q(std::string(acl::resourceTypeName(type)));
}

QString actionsText(uint16_t actions)
{
    return q(acl::actionNames(actions)).replace(QLatin1Char(','), QStringLiteral(", "));
}

// ---- UserTableModel ----

void UserTableModel::setData(std::vector<acl::User> users, std::vector<acl::Acl> acls)
{
    std::sort(users.begin(), users.end(), [](const acl::User &a, const acl::User &b) { return a.username < b.username; });
    beginResetModel();
    users_ = std::move(users);
    acls_ = std::move(acls);
    endResetModel();
}

const acl::User *UserTableModel::user(int row) const
{
    return row >= 0 && row < static_cast<int>(users_.size()) ? &users_[row] : nullptr;
}

const acl::Acl *UserTableModel::aclOf(const QString &username) const
{
    const std::string subject = "User:" + username.toStdString();
    for (const acl::Acl &acl : acls_)
        if (acl.subject == subject)
            return &acl;
    return nullptr;
}

int UserTableModel::rowOf(const QString &username) const
{
    for (size_t i = 0; i < users_.size(); ++i)
        if (q(users_[i].username) == username)
            return static_cast<int>(i);
    return -1;
}

int UserTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(users_.size());
}

int UserTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant UserTableModel::data(const QModelIndex &index, int role) const
{
    const acl::User *row = user(index.row());
    if (!row || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    switch (index.column()) {
    case NameColumn: return q(row->username);
    case TypeColumn: return row->super ? tr("Super") : tr("Normal");
    case StatusColumn: return row->enabled ? tr("enabled") : tr("disabled");
    case EntriesColumn:
        if (row->super)
            return tr("— (may do everything)");
        return static_cast<qulonglong>(entryCount(aclOf(q(row->username))));
    }
    return {};
}

QVariant UserTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("User");
    case TypeColumn: return tr("Type");
    case StatusColumn: return tr("Status");
    case EntriesColumn: return tr("Policy entries");
    }
    return {};
}

// ---- PolicyEntryModel ----

void PolicyEntryModel::setAcl(const acl::Acl *acl)
{
    beginResetModel();
    rows_.clear();
    if (acl) {
        for (bool isDefault : {false, true})
            if (const acl::Policy *policy = acl->policy(isDefault))
                for (const acl::PolicyEntry &entry : policy->entries)
                    rows_.push_back({isDefault, entry});
    }
    endResetModel();
}

const PolicyEntryModel::Row *PolicyEntryModel::entryAt(int row) const
{
    return row >= 0 && row < static_cast<int>(rows_.size()) ? &rows_[row] : nullptr;
}

int PolicyEntryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PolicyEntryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PolicyEntryModel::data(const QModelIndex &index, int role) const
{
    const Row *row = entryAt(index.row());
    if (!row || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    switch (index.column()) {
    case PolicyColumn: return policyName(row->isDefault);
    case ResourceColumn: return q(row->entry.resourceKey());
    case ActionsColumn: return actionsText(row->entry.actions);
    case SourceIpsColumn: {
        QStringList ips;
        for (const std::string &ip : row->entry.sourceIps)
            ips << q(ip);
        return ips.isEmpty() ? tr("any") : ips.join(QStringLiteral(", "));
    }
    case DecisionColumn: return row->entry.allow ? tr("Allow") : tr("Deny");
    }
    return {};
}

QVariant PolicyEntryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PolicyColumn: return tr("Policy");
    case ResourceColumn: return tr("Resource");
    case ActionsColumn: return tr("Actions");
    case SourceIpsColumn: return tr("Source IPs");
    case DecisionColumn: return tr("Decision");
    }
    return {};
}

// ---- explainAccess ----

std::vector<uint16_t> actionsFor(acl::ResourceType type)
{
    using namespace acl::action;
    switch (type) {
    case acl::ResourceType::Topic: return {kPub, kSub, kCreate, kUpdate, kDelete, kGet, kList};
    case acl::ResourceType::Group: return {kSub, kCreate, kUpdate, kDelete, kGet, kList};
    default: return {kCreate, kUpdate, kDelete, kGet, kList};
    }
}

std::vector<AccessAnswer> explainAccess(const acl::User &user, const acl::Acl *acl, acl::ResourceType type,
                                        const QString &name, const QString &host)
{
    std::vector<AccessAnswer> answers;
    const acl::Check base{type, name.toStdString(), 0};
    for (uint16_t action : actionsFor(type)) {
        AccessAnswer answer;
        answer.action = q(acl::actionNames(action));
        if (!user.enabled) {
            answer.reason = UserTableModel::tr("the user is disabled: every request is refused");
        } else if (user.super) {
            answer.allowed = true;
            answer.reason = UserTableModel::tr("a Super user may do everything");
        } else {
            acl::Check check = base;
            check.actions = action;
            bool fromDefault = false;
            const acl::PolicyEntry *entry = acl::decidingEntry(acl, check, host.toStdString(), &fromDefault);
            if (!entry) {
                answer.reason = UserTableModel::tr("no policy entry matches: denied");
            } else {
                answer.allowed = entry->allow;
                answer.reason = UserTableModel::tr("%1 policy: %2 %3 %4")
                                    .arg(policyName(fromDefault), q(entry->resourceKey()), actionsText(entry->actions),
                                         entry->allow ? UserTableModel::tr("Allow") : UserTableModel::tr("Deny"));
            }
        }
        answers.push_back(std::move(answer));
    }
    return answers;
}

} // namespace mqdesk::ui
