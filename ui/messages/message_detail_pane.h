#pragma once

// MessageDetailPane: everything about the selected message. Its fields (topic, queue, offsets,
// born/store host and time, sysflag, reconsume times), its properties as a table, and its body
// in a viewer whose mode the user picks: Text (when the body is valid UTF-8), pretty JSON
// (when it parses) or Hex (offset | hex | ASCII). The encoding detected and the body size are
// stated above the body. Next to the body, a Trace tab shows the message's trace
// (MessageTraceView); the pane asks for it (traceRequested) only while that tab is shown.

#include "broker/common/message.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTableWidget;
class QTabWidget;

namespace mqdesk::ui {

class MessageTraceView;

class MessageDetailPane : public QWidget
{
    Q_OBJECT

public:
    enum class BodyMode { Text, Json, Hex };

    explicit MessageDetailPane(QWidget *parent = nullptr);

    // Shows `message`, or the "select a message" placeholder without one.
    void showMessage(const common::StoredMessage *message);
    bool hasMessage() const { return message_.has_value(); }

    void setBodyMode(BodyMode mode);
    BodyMode bodyMode() const;
    bool isBodyModeAvailable(BodyMode mode) const;

    // For tests and copying: the value shown for a field label ("Topic", "Keys", …).
    QString fieldText(const QString &label) const;
    QTableWidget *fieldsTable() const { return fields_; }
    QTableWidget *propertiesTable() const { return properties_; }
    QComboBox *bodyModeSelector() const { return modeCombo_; }
    QString bodyText() const;
    QString encodingText() const;

    // The body as a hex dump: "00000000  7b 22 …  |{"...|" lines, 16 bytes each.
    static QString hexDump(const std::vector<uint8_t> &body, size_t maxBytes);

    QTabWidget *tabs() const { return tabs_; }
    MessageTraceView *traceView() const { return trace_; }
    // The shown message's UNIQ_KEY (the id clients trace it by); empty without one.
    QString uniqKey() const;
    qint64 storeTimestamp() const { return message_ ? message_->storeTimestamp : 0; }

signals:
    // The Trace tab is shown for a message whose trace has not been asked for yet.
    void traceRequested(const QString &msgId);

private:
    void requestTraceIfShown();
    void renderBody();
    void addField(const QString &label, const QString &value);

    std::optional<common::StoredMessage> message_;
    bool utf8_ = false;
    QString text_;
    QString prettyJson_;
    QLabel *placeholder_ = nullptr;
    QWidget *content_ = nullptr;
    QTableWidget *fields_ = nullptr;
    QTableWidget *properties_ = nullptr;
    QComboBox *modeCombo_ = nullptr;
    QLabel *encoding_ = nullptr;
    QPlainTextEdit *body_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    MessageTraceView *trace_ = nullptr;
    QString traceRequestedFor_;
};

} // namespace mqdesk::ui
