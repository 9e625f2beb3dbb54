#pragma once

// MessageTraceView: one message's trace as RocketMQ's Dashboard shows it — its send, its store,
// and every delivery to every consumer group with status and times — as a timeline (one row per
// stage, bars on a shared time axis from the send) and as a table of the same stages. The trace
// comes from client::AdminClient::queryMessageTrace (trace messages that clients with message
// trace on write to RMQ_SYS_TRACE_TOPIC); this view only shows it.

#include "broker/client/message_trace.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace mqdesk::ui {

class TraceTimeline;

class MessageTraceView : public QWidget
{
    Q_OBJECT

public:
    explicit MessageTraceView(QWidget *parent = nullptr);

    // The message whose trace is being read; the view says so until showTrace or showError.
    void showLoading(const QString &msgId);
    // `storeTimestamp` (ms, 0 if unknown) marks when the broker stored the message.
    void showTrace(const QString &msgId, const client::MessageTrace &trace, qint64 storeTimestamp);
    void showError(const QString &msgId, const QString &error);
    // No message selected, or one without a UNIQ_KEY (nothing a client could have traced).
    void showNothing(const QString &reason);

    QString statusText() const;
    QTableWidget *table() const { return table_; }
    QWidget *timeline() const;

private:
    void addRow(const QStringList &cells, bool failed);

    QLabel *status_ = nullptr;
    TraceTimeline *timeline_ = nullptr;
    QTableWidget *table_ = nullptr;
};

} // namespace mqdesk::ui
