#include "ui/groups/group_dialogs.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>

namespace mqdesk::ui {

ResetOffsetDialog::ResetOffsetDialog(const QString &group, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Reset offsets of %1").arg(group));
    earliest_ = new QRadioButton(tr("&Earliest: consume every stored message again"), this);
    latest_ = new QRadioButton(tr("&Latest: skip everything not consumed yet"), this);
    byTime_ = new QRadioButton(tr("By &time: from the first message stored at or after"), this);
    latest_->setChecked(true);
    time_ = new QDateTimeEdit(QDateTime::currentDateTime().addSecs(-3600), this);
    time_->setCalendarPopup(true);
    time_->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    time_->setEnabled(false);
    connect(byTime_, &QRadioButton::toggled, time_, &QWidget::setEnabled);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Continue…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Move the committed offsets of every queue the group consumes to:"), this));
    layout->addWidget(earliest_);
    layout->addWidget(latest_);
    layout->addWidget(byTime_);
    layout->addWidget(time_);
    layout->addWidget(buttons);
}

ResetTarget ResetOffsetDialog::target() const
{
    if (earliest_->isChecked())
        return ResetTarget::Earliest;
    if (byTime_->isChecked())
        return ResetTarget::ByTime;
    return ResetTarget::Latest;
}

int64_t ResetOffsetDialog::timestampMillis() const
{
    return time_->dateTime().toMSecsSinceEpoch();
}

CreateGroupDialog::CreateGroupDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Create consumer group"));
    const client::SubscriptionGroupConfig defaults;
    name_ = new QLineEdit(this);
    // RocketMQ's name rule: letters, digits, %, |, - and _.
    name_->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[%|a-zA-Z0-9_-]{1,255}")), name_));
    name_->setPlaceholderText(tr("e.g. GID_orders"));
    retryQueues_ = new QSpinBox(this);
    retryQueues_->setRange(0, 64);
    retryQueues_->setValue(defaults.retryQueueNums);
    maxRetries_ = new QSpinBox(this);
    maxRetries_->setRange(0, 64);
    maxRetries_->setValue(defaults.retryMaxTimes);
    consumeEnable_ = new QCheckBox(tr("Consumers may consume"), this);
    consumeEnable_->setChecked(defaults.consumeEnable);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    connect(name_, &QLineEdit::textChanged, this, [this, buttons](const QString &text) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!text.isEmpty());
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout(this);
    form->addRow(tr("&Name:"), name_);
    form->addRow(tr("&Retry queues:"), retryQueues_);
    form->addRow(tr("&Max retries:"), maxRetries_);
    form->addRow(QString(), consumeEnable_);
    form->addRow(buttons);
}

client::SubscriptionGroupConfig CreateGroupDialog::config() const
{
    client::SubscriptionGroupConfig config;
    config.groupName = name_->text().toStdString();
    config.retryQueueNums = retryQueues_->value();
    config.retryMaxTimes = maxRetries_->value();
    config.consumeEnable = consumeEnable_->isChecked();
    return config;
}

} // namespace mqdesk::ui
