#include "ui/access/access_dialogs.h"

#include "ui/access/access_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <tuple>

namespace mqdesk::ui {

namespace {

// Lays `dialog` out as both editors are: the form, the inline error (`errorName`) under it, then
// OK / Cancel. Returns the error label and the button box.
std::pair<QLabel *, QDialogButtonBox *> layOut(QDialog *dialog, QFormLayout *form, const QString &errorName)
{
    auto *error = new QLabel(dialog);
    error->setObjectName(errorName);
    error->setWordWrap(true);
    error->setStyleSheet(QStringLiteral("color: #8a1f11;"));
    error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    auto *layout = new QVBoxLayout(dialog);
    layout->addLayout(form);
    layout->addWidget(error);
    layout->addWidget(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    return {error, buttons};
}

void showError(QLabel *label, QDialogButtonBox *buttons, const QString &text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
    buttons->button(QDialogButtonBox::Ok)->setEnabled(text.isEmpty());
}

} // namespace

// ---- UserDialog ----

UserDialog::UserDialog(const acl::User *existing, QWidget *parent) : QDialog(parent), editing_(existing != nullptr)
{
    setObjectName(QStringLiteral("userDialog"));
    setWindowTitle(editing_ ? tr("Edit user %1").arg(QString::fromStdString(existing->username)) : tr("New user"));
    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("userName"));
    password_ = new QLineEdit(this);
    password_->setObjectName(QStringLiteral("userPassword"));
    password_->setEchoMode(QLineEdit::Password);
    type_ = new QComboBox(this);
    type_->setObjectName(QStringLiteral("userType"));
    type_->addItem(tr("Normal: what its policies allow"));
    type_->addItem(tr("Super: everything, no policies needed"));
    status_ = new QComboBox(this);
    status_->setObjectName(QStringLiteral("userStatus"));
    status_->addItem(tr("enabled"));
    status_->addItem(tr("disabled: every request refused"));
    if (editing_) {
        name_->setText(QString::fromStdString(existing->username));
        name_->setReadOnly(true);
        password_->setPlaceholderText(tr("unchanged"));
        type_->setCurrentIndex(existing->super ? 1 : 0);
        status_->setCurrentIndex(existing->enabled ? 0 : 1);
    } else {
        password_->setPlaceholderText(tr("the user's secret key"));
    }
    auto *form = new QFormLayout;
    form->addRow(tr("Username (access key):"), name_);
    form->addRow(tr("Password (secret key):"), password_);
    form->addRow(tr("Type:"), type_);
    form->addRow(tr("Status:"), status_);
    std::tie(error_, buttons_) = layOut(this, form, QStringLiteral("userError"));
    connect(name_, &QLineEdit::textChanged, this, &UserDialog::check);
    connect(password_, &QLineEdit::textChanged, this, &UserDialog::check);
    check();
}

void UserDialog::check()
{
    QString error;
    const QString name = name_->text().trimmed();
    if (name.isEmpty())
        error = tr("Give the username");
    else if (name.contains(QLatin1Char(' ')) || name.contains(QLatin1Char(':')))
        error = tr("A username has no blanks or ':'");
    else if (!editing_ && password_->text().isEmpty())
        error = tr("Give the password: clients sign their requests with it");
    showError(error_, buttons_, error);
}

acl::User UserDialog::user() const
{
    acl::User user;
    user.username = name_->text().trimmed().toStdString();
    user.password = password_->text().toStdString();
    user.super = type_->currentIndex() == 1;
    user.enabled = status_->currentIndex() == 0;
    return user;
}

// ---- PolicyEntryDialog ----

PolicyEntryDialog::PolicyEntryDialog(const QString &username, const acl::PolicyEntry *existing, bool isDefault,
                                     QWidget *parent)
    : QDialog(parent), username_(username)
{
    setObjectName(QStringLiteral("policyEntryDialog"));
    setWindowTitle(existing ? tr("Edit a policy entry of %1").arg(username) : tr("New policy entry for %1").arg(username));
    policy_ = new QComboBox(this);
    policy_->setObjectName(QStringLiteral("entryPolicy"));
    policy_->addItem(tr("Custom"));
    policy_->addItem(tr("Default (applies when no Custom entry matches)"));
    policy_->setCurrentIndex(isDefault ? 1 : 0);
    resourceType_ = new QComboBox(this);
    resourceType_->setObjectName(QStringLiteral("entryResourceType"));
    for (acl::ResourceType type : {acl::ResourceType::Topic, acl::ResourceType::Group, acl::ResourceType::Cluster,
                                   acl::ResourceType::Namespace, acl::ResourceType::Any})
        resourceType_->addItem(resourceTypeTitle(type), static_cast<int>(type));
    resourceName_ = new QLineEdit(this);
    resourceName_->setObjectName(QStringLiteral("entryResourceName"));
    resourceName_->setPlaceholderText(tr("a name, a prefix ending in *, or * for every one"));
    auto *actionRow = new QHBoxLayout;
    for (uint16_t bit : {acl::action::kAll, acl::action::kPub, acl::action::kSub, acl::action::kCreate,
                         acl::action::kUpdate, acl::action::kDelete, acl::action::kGet, acl::action::kList}) {
        auto *box = new QCheckBox(QString::fromStdString(acl::actionNames(bit)), this);
        box->setObjectName(QStringLiteral("entryAction") + box->text());
        actionRow->addWidget(box);
        actions_.emplace_back(bit, box);
    }
    actionRow->addStretch(1);
    sourceIps_ = new QLineEdit(this);
    sourceIps_->setObjectName(QStringLiteral("entrySourceIps"));
    sourceIps_->setPlaceholderText(tr("any; or addresses and CIDR blocks, e.g. 10.0.0.0/8, 192.168.1.7"));
    decision_ = new QComboBox(this);
    decision_->setObjectName(QStringLiteral("entryDecision"));
    decision_->addItem(tr("Allow"));
    decision_->addItem(tr("Deny (wins over an Allow of the same resource)"));
    if (existing) {
        resourceType_->setCurrentIndex(resourceType_->findData(static_cast<int>(existing->type)));
        if (existing->type != acl::ResourceType::Any)
            resourceName_->setText(existing->pattern == acl::ResourcePattern::Any
                                       ? QStringLiteral("*")
                                       : QString::fromStdString(existing->name)
                                             + (existing->pattern == acl::ResourcePattern::Prefixed ? QStringLiteral("*")
                                                                                                    : QString()));
        for (auto &[bit, box] : actions_)
            box->setChecked(existing->actions & bit);
        QStringList ips;
        for (const std::string &ip : existing->sourceIps)
            ips << QString::fromStdString(ip);
        sourceIps_->setText(ips.join(QStringLiteral(", ")));
        decision_->setCurrentIndex(existing->allow ? 0 : 1);
    }
    auto *form = new QFormLayout;
    form->addRow(tr("Policy:"), policy_);
    form->addRow(tr("Resource type:"), resourceType_);
    form->addRow(tr("Resource:"), resourceName_);
    form->addRow(tr("Actions:"), actionRow);
    form->addRow(tr("Source IPs:"), sourceIps_);
    form->addRow(tr("Decision:"), decision_);
    std::tie(error_, buttons_) = layOut(this, form, QStringLiteral("entryError"));
    // Connected once every field holds its value: check() reads them all.
    for (const auto &[bit, box] : actions_)
        connect(box, &QCheckBox::toggled, this, &PolicyEntryDialog::check);
    connect(resourceName_, &QLineEdit::textChanged, this, &PolicyEntryDialog::check);
    connect(sourceIps_, &QLineEdit::textChanged, this, &PolicyEntryDialog::check);
    connect(resourceType_, &QComboBox::currentIndexChanged, this, [this] {
        resourceName_->setEnabled(resourceType_->currentData().toInt() != static_cast<int>(acl::ResourceType::Any));
        check();
    });
    check();
}

bool PolicyEntryDialog::readEntry(acl::PolicyEntry &entry, QString &error) const
{
    const auto type = static_cast<acl::ResourceType>(resourceType_->currentData().toInt());
    std::string key = "*";
    if (type != acl::ResourceType::Any) {
        const QString name = resourceName_->text().trimmed();
        if (name.isEmpty()) {
            error = tr("Give the resource's name, a prefix ending in *, or *");
            return false;
        }
        key = std::string(acl::resourceTypeName(type)) + ":" + name.toStdString();
    }
    std::string why;
    if (!acl::parseResource(key, entry, why)) {
        error = tr("The resource %1 is not valid: %2").arg(QString::fromStdString(key), QString::fromStdString(why));
        return false;
    }
    entry.actions = 0;
    for (const auto &[bit, box] : actions_)
        if (box->isChecked())
            entry.actions |= bit;
    if (entry.actions == 0) {
        error = tr("Tick at least one action");
        return false;
    }
    entry.sourceIps.clear();
    for (const QString &part : sourceIps_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        if (!acl::validSourceIp(part.toStdString())) {
            error = tr("\"%1\" is not an IP address or a CIDR block").arg(part);
            return false;
        }
        entry.sourceIps.push_back(part.toStdString());
    }
    entry.allow = decision_->currentIndex() == 0;
    return true;
}

void PolicyEntryDialog::check()
{
    acl::PolicyEntry entry;
    QString error;
    readEntry(entry, error);
    showError(error_, buttons_, error);
}

bool PolicyEntryDialog::isDefaultPolicy() const
{
    return policy_->currentIndex() == 1;
}

acl::Acl PolicyEntryDialog::acl() const
{
    acl::PolicyEntry entry;
    QString error;
    readEntry(entry, error);
    acl::Acl acl;
    acl.subject = "User:" + username_.toStdString();
    acl.policies.push_back({isDefaultPolicy(), {entry}});
    return acl;
}

} // namespace mqdesk::ui
