#pragma once

// The Consumer groups view's two small dialogs: where to reset a group's offsets to, and a new
// group's settings. They only collect input; the view confirms and runs the change.

#include "ui/groups/group_data.h"

#include <QDialog>

class QCheckBox;
class QDateTimeEdit;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace mqdesk::ui {

class ResetOffsetDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ResetOffsetDialog(const QString &group, QWidget *parent = nullptr);

    ResetTarget target() const;
    int64_t timestampMillis() const; // ByTime only

private:
    QRadioButton *earliest_ = nullptr;
    QRadioButton *latest_ = nullptr;
    QRadioButton *byTime_ = nullptr;
    QDateTimeEdit *time_ = nullptr;
};

class CreateGroupDialog : public QDialog
{
    Q_OBJECT

public:
    explicit CreateGroupDialog(QWidget *parent = nullptr);

    client::SubscriptionGroupConfig config() const;

private:
    QLineEdit *name_ = nullptr;
    QSpinBox *retryQueues_ = nullptr;
    QSpinBox *maxRetries_ = nullptr;
    QCheckBox *consumeEnable_ = nullptr;
};

} // namespace mqdesk::ui
