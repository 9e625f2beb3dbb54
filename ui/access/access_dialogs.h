#pragma once

// The Access control page's editors: UserDialog (create a user, or edit one's password, type and
// status) and PolicyEntryDialog (one entry of a user's Custom or Default policy: resource type,
// name or prefix, actions, source IPs, Allow/Deny). Each checks its fields as Java's broker
// would and says what is wrong inline before it lets OK through.

#include "broker/acl/auth_model.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace mqdesk::ui {

class UserDialog : public QDialog
{
    Q_OBJECT

public:
    // `existing`: edit that user (the name fixed, a blank password keeps theirs); else create.
    explicit UserDialog(const acl::User *existing, QWidget *parent = nullptr);
    acl::User user() const;

private:
    void check();

    bool editing_ = false;
    QLineEdit *name_ = nullptr;
    QLineEdit *password_ = nullptr;
    QComboBox *type_ = nullptr;
    QComboBox *status_ = nullptr;
    QLabel *error_ = nullptr;
    QDialogButtonBox *buttons_ = nullptr;
};

class PolicyEntryDialog : public QDialog
{
    Q_OBJECT

public:
    // `existing`: edit that entry (of the Default policy when `isDefault`); else a new one.
    PolicyEntryDialog(const QString &username, const acl::PolicyEntry *existing, bool isDefault,
                      QWidget *parent = nullptr);
    // The entry as an Acl of one policy with one entry, ready for AUTH_UPDATE_ACL.
    acl::Acl acl() const;
    bool isDefaultPolicy() const;

private:
    void check();
    bool readEntry(acl::PolicyEntry &entry, QString &error) const;

    QString username_;
    QComboBox *policy_ = nullptr;
    QComboBox *resourceType_ = nullptr;
    QLineEdit *resourceName_ = nullptr;
    std::vector<std::pair<uint16_t, QCheckBox *>> actions_;
    QLineEdit *sourceIps_ = nullptr;
    QComboBox *decision_ = nullptr;
    QLabel *error_ = nullptr;
    QDialogButtonBox *buttons_ = nullptr;
};

} // namespace mqdesk::ui
