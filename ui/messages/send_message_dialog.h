#pragma once

// SendMessageDialog: a test message from the console — topic, tags, keys, body and optional
// user properties as key=value lines. "Send" hands the message to the view (sendRequested),
// which sends it through the connection's producer; the result (msgId, queue, offset) or the
// error appears inline in the dialog, which stays open for another send.

#include "broker/client/client_types.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace mqdesk::ui {

class SendMessageDialog : public QDialog
{
    Q_OBJECT

public:
    explicit SendMessageDialog(const QString &topic, QWidget *parent = nullptr);

    // The message as entered; validationError() says why it cannot be sent.
    client::Message message() const;
    QString validationError() const;
    // Shown inline below the fields.
    void showSending();
    void showResult(const client::SendResult &result);
    void showError(const QString &error);
    QString resultText() const;
    QPushButton *sendButton() const { return sendButton_; }

signals:
    void sendRequested(const client::Message &message);

private:
    void validate();

    QLineEdit *topic_ = nullptr;
    QLineEdit *tags_ = nullptr;
    QLineEdit *keys_ = nullptr;
    QPlainTextEdit *body_ = nullptr;
    QPlainTextEdit *properties_ = nullptr;
    QLabel *result_ = nullptr;
    QPushButton *sendButton_ = nullptr;
    bool sending_ = false;
};

} // namespace mqdesk::ui
