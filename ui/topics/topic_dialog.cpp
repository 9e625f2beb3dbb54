#include "ui/topics/topic_dialog.h"

#include "broker/remoting/protocol/resource_names.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace perm = remoting::topicPerm;

TopicDialog::TopicDialog(const remoting::TopicConfigData *existing, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(existing ? tr("Edit topic") : tr("Create topic"));
    setObjectName(QStringLiteral("topicDialog"));

    nameEdit_ = new QLineEdit(this);
    nameEdit_->setObjectName(QStringLiteral("topicName"));
    nameEdit_->setPlaceholderText(tr("e.g. OrderEvents"));
    nameEdit_->setMaxLength(127);
    readQueuesSpin_ = new QSpinBox(this);
    readQueuesSpin_->setObjectName(QStringLiteral("readQueues"));
    writeQueuesSpin_ = new QSpinBox(this);
    writeQueuesSpin_->setObjectName(QStringLiteral("writeQueues"));
    for (QSpinBox *spin : {readQueuesSpin_, writeQueuesSpin_}) {
        spin->setRange(1, 1024);
        spin->setValue(8);
    }
    permCombo_ = new QComboBox(this);
    permCombo_->setObjectName(QStringLiteral("perm"));
    permCombo_->addItem(tr("RW- (read and write)"), perm::kRead | perm::kWrite);
    permCombo_->addItem(tr("R-- (read only)"), perm::kRead);
    permCombo_->addItem(tr("-W- (write only)"), perm::kWrite);
    permCombo_->addItem(tr("--- (no access)"), 0);
    typeCombo_ = new QComboBox(this);
    typeCombo_->setObjectName(QStringLiteral("messageType"));
    // The 5.x types as RocketMQ Dashboard offers them; MIXED only for a topic that already is
    // (brokers refuse it unless enableMixedMessageType).
    typeCombo_->addItem(tr("UNSPECIFIED, is NORMAL"), QString::fromLatin1(remoting::kUnspecifiedMessageType));
    for (const char *type : {"NORMAL", "FIFO", "DELAY", "TRANSACTION", remoting::kPriorityMessageType})
        typeCombo_->addItem(QString::fromLatin1(type), QString::fromLatin1(type));
    typeCombo_->setToolTip(tr("RocketMQ 5 clients check that what they send matches the topic's type: "
                              "FIFO for ordered messages (message group), DELAY for timed delivery, "
                              "TRANSACTION for transactional messages, PRIORITY for messages with a "
                              "priority (RocketMQ 5.4: the priority picks the queue and consumers read "
                              "the highest first)."));
    originalType_ = QString::fromLatin1(remoting::kUnspecifiedMessageType);

    if (existing) {
        nameEdit_->setText(QString::fromStdString(existing->topicName));
        nameEdit_->setReadOnly(true);
        readQueuesSpin_->setValue(existing->readQueueNums);
        writeQueuesSpin_->setValue(existing->writeQueueNums);
        const int permIndex = permCombo_->findData(existing->perm & (perm::kRead | perm::kWrite));
        permCombo_->setCurrentIndex(std::max(permIndex, 0));
        originalType_ = QString::fromStdString(remoting::topicMessageType(existing->attributes));
        originalTypeStored_ = remoting::findAttribute(existing->attributes, remoting::kMessageTypeAttribute) != nullptr;
        if (typeCombo_->findData(originalType_) < 0)
            typeCombo_->addItem(originalType_, originalType_);
        typeCombo_->setCurrentIndex(typeCombo_->findData(originalType_));
    }

    errorLabel_ = new QLabel(this);
    errorLabel_->setObjectName(QStringLiteral("validationError"));
    errorLabel_->setWordWrap(true);
    errorLabel_->setStyleSheet(QStringLiteral("color: palette(link);"));
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(existing ? tr("Save") : tr("Create"));
    connect(buttons_, &QDialogButtonBox::accepted, this, [this] {
        if (validationError().isEmpty())
            accept();
    });
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(nameEdit_, &QLineEdit::textChanged, this, &TopicDialog::validate);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), nameEdit_);
    form->addRow(tr("&Read queues:"), readQueuesSpin_);
    form->addRow(tr("&Write queues:"), writeQueuesSpin_);
    form->addRow(tr("&Permission:"), permCombo_);
    form->addRow(tr("Message &type:"), typeCombo_);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(errorLabel_);
    layout->addWidget(buttons_);
    validate();
}

remoting::TopicConfigData TopicDialog::topicConfig() const
{
    remoting::TopicConfigData config;
    config.topicName = nameEdit_->text().trimmed().toStdString();
    config.readQueueNums = readQueuesSpin_->value();
    config.writeQueueNums = writeQueuesSpin_->value();
    config.perm = permCombo_->currentData().toInt();
    return config;
}

QString TopicDialog::messageType() const
{
    return typeCombo_->currentData().toString();
}

std::string TopicDialog::attributeModifications() const
{
    const QString type = messageType();
    if (type == originalType_)
        return {};
    if (type == QLatin1String(remoting::kUnspecifiedMessageType))
        return originalTypeStored_ ? "-" + std::string(remoting::kMessageTypeAttribute) : std::string();
    return remoting::messageTypeModification(type.toStdString());
}

QString TopicDialog::validationError() const
{
    const std::string name = nameEdit_->text().trimmed().toStdString();
    if (name.empty())
        return tr("Enter a topic name.");
    std::string error;
    if (!remoting::validateTopicName(name, error))
        return tr("Use at most 127 letters, digits, '-', '_', '%' or '|'.");
    if (name.starts_with("%RETRY%") || name.starts_with("%DLQ%"))
        return tr("%RETRY% and %DLQ% topics belong to consumer groups; the broker creates them.");
    return {};
}

void TopicDialog::validate()
{
    const QString error = nameEdit_->text().isEmpty() ? QString() : validationError();
    errorLabel_->setText(error);
    errorLabel_->setVisible(!error.isEmpty());
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(validationError().isEmpty());
}

} // namespace mqdesk::ui
