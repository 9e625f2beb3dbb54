#pragma once

// Create or edit a topic: its name (checked like RocketMQ's TopicValidator as it is typed, OK
// disabled while it is invalid), read and write queue counts, permission and RocketMQ 5 message
// type (the `message.type` attribute, which Java lets an update change). Editing keeps the name.

#include "broker/remoting/protocol/route_data.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace mqdesk::ui {

class TopicDialog : public QDialog
{
    Q_OBJECT

public:
    // Creates a new topic when `existing` is null, else edits it.
    explicit TopicDialog(const remoting::TopicConfigData *existing, QWidget *parent = nullptr);

    remoting::TopicConfigData topicConfig() const;
    // The chosen TopicMessageType ("FIFO"; UNSPECIFIED for none).
    QString messageType() const;
    // What UPDATE_AND_CREATE_TOPIC's `attributes` must say for the chosen type: empty when it
    // is unchanged, "+message.type=FIFO" to set it, "-message.type" to clear it.
    std::string attributeModifications() const;
    // Empty when the input can be sent.
    QString validationError() const;

private:
    void validate();

    QLineEdit *nameEdit_ = nullptr;
    QSpinBox *readQueuesSpin_ = nullptr;
    QSpinBox *writeQueuesSpin_ = nullptr;
    QComboBox *permCombo_ = nullptr;
    QComboBox *typeCombo_ = nullptr;
    QString originalType_; // UNSPECIFIED when creating
    bool originalTypeStored_ = false; // the edited topic has a message.type attribute
    QLabel *errorLabel_ = nullptr;
    QDialogButtonBox *buttons_ = nullptr;
};

} // namespace mqdesk::ui
