#include "ui/messages/message_trace_view.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

namespace mqdesk::ui {

// The timeline: one row per stage (the send, then each delivery), a bar from its start for its
// cost on a time axis shared by all rows and starting at the earliest stage; a dashed line
// where the broker stored the message. Bars: green done, red failed, grey still running (no
// SubAfter yet). Painted, not made of widgets: a trace can have hundreds of deliveries.
class TraceTimeline : public QWidget
{
public:
    enum class State { Done, Failed, Running };
    struct Row
    {
        QString label;
        qint64 begin = 0;
        qint64 durationMs = 0;
        State state = State::Done;
        QString caption;
    };

    explicit TraceTimeline(QWidget *parent) : QWidget(parent)
    {
        setObjectName(QStringLiteral("traceTimeline"));
        setMinimumHeight(kRowHeight * 2);
    }

    void setRows(std::vector<Row> rows, qint64 storedAt)
    {
        rows_ = std::move(rows);
        storedAt_ = storedAt;
        setMinimumHeight(kRowHeight * static_cast<int>(rows_.size() + 2));
        update();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        painter.fillRect(rect(), palette().base());
        if (rows_.empty())
            return;
        qint64 first = rows_.front().begin;
        qint64 last = first;
        for (const Row &row : rows_) {
            first = std::min(first, row.begin);
            last = std::max(last, row.begin + std::max<qint64>(row.durationMs, 1));
        }
        if (storedAt_ > 0)
            last = std::max(last, storedAt_);
        const int labelWidth = std::min(width() / 3, 220);
        const int axisLeft = labelWidth + 8;
        const int axisWidth = std::max(width() - axisLeft - 90, 40);
        const double span = static_cast<double>(std::max<qint64>(last - first, 1));
        auto xOf = [&](qint64 t) { return axisLeft + static_cast<int>((t - first) / span * axisWidth); };

        // The axis: +0 ms at the start, the whole span at the end.
        painter.setPen(palette().color(QPalette::Mid));
        const int axisY = kRowHeight / 2;
        painter.drawLine(axisLeft, axisY, axisLeft + axisWidth, axisY);
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRect(axisLeft, 0, 120, axisY), Qt::AlignLeft | Qt::AlignVCenter, MessageTraceView::tr("+0 ms"));
        painter.drawText(QRect(axisLeft + axisWidth - 120, 0, 120, axisY), Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("+%1 ms").arg(QLocale().toString(last - first)));

        int y = kRowHeight;
        for (const Row &row : rows_) {
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QRect(4, y, labelWidth, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                             fontMetrics().elidedText(row.label, Qt::ElideRight, labelWidth));
            const int x = xOf(row.begin);
            const int barWidth = std::max(xOf(row.begin + row.durationMs) - x, 3);
            const QColor color = row.state == State::Done     ? QColor(0x3c, 0xa5, 0x5c)
                                 : row.state == State::Failed ? QColor(0xd6, 0x45, 0x45)
                                                              : QColor(0x9e, 0x9e, 0x9e);
            painter.fillRect(QRect(x, y + 4, barWidth, kRowHeight - 8), color);
            painter.drawText(QRect(x + barWidth + 4, y, width() - x - barWidth - 4, kRowHeight),
                             Qt::AlignLeft | Qt::AlignVCenter, row.caption);
            y += kRowHeight;
        }
        if (storedAt_ > 0) {
            QPen pen(palette().color(QPalette::Highlight));
            pen.setStyle(Qt::DashLine);
            painter.setPen(pen);
            const int x = xOf(storedAt_);
            painter.drawLine(x, axisY, x, y);
            painter.drawText(QRect(x + 3, y, 160, kRowHeight), Qt::AlignLeft | Qt::AlignVCenter, MessageTraceView::tr("stored"));
        }
    }

private:
    static constexpr int kRowHeight = 24;
    std::vector<Row> rows_;
    qint64 storedAt_ = 0;
};

namespace {

QString timeText(qint64 millis)
{
    return millis > 0 ? QLocale().toString(QDateTime::fromMSecsSinceEpoch(millis), QStringLiteral("HH:mm:ss.zzz"))
                      : QString();
}

QString fromStd(const std::string &text) { return QString::fromStdString(text); }

} // namespace

MessageTraceView::MessageTraceView(QWidget *parent) : QWidget(parent)
{
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("traceStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    timeline_ = new TraceTimeline(this);
    table_ = new QTableWidget(0, 6, this);
    table_->setObjectName(QStringLiteral("traceTable"));
    table_->setHorizontalHeaderLabels(
        {tr("Stage"), tr("Group"), tr("Began"), tr("Cost"), tr("Status"), tr("Details")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(timeline_);
    splitter->addWidget(table_);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(status_);
    layout->addWidget(splitter, 1);
    showNothing(tr("Select a message to see its trace."));
}

QString MessageTraceView::statusText() const { return status_->text(); }
QWidget *MessageTraceView::timeline() const { return timeline_; }

void MessageTraceView::addRow(const QStringList &cells, bool failed)
{
    const int row = table_->rowCount();
    table_->insertRow(row);
    for (int column = 0; column < cells.size(); ++column) {
        auto *item = new QTableWidgetItem(cells[column]);
        if (failed)
            item->setForeground(QColor(0xc6, 0x28, 0x28));
        table_->setItem(row, column, item);
    }
}

void MessageTraceView::showNothing(const QString &reason)
{
    status_->setText(reason);
    table_->setRowCount(0);
    timeline_->setRows({}, 0);
}

void MessageTraceView::showLoading(const QString &msgId)
{
    showNothing(tr("Reading the trace of %1…").arg(msgId));
}

void MessageTraceView::showError(const QString &msgId, const QString &error)
{
    showNothing(tr("The trace of %1 could not be read: %2").arg(msgId, error));
}

void MessageTraceView::showTrace(const QString &msgId, const client::MessageTrace &trace, qint64 storeTimestamp)
{
    table_->setRowCount(0);
    if (trace.empty()) {
        status_->setText(tr("No trace of %1. Clients write traces when message trace is on (the Java client's "
                            "enableMsgTrace, Spring Boot's enable-msg-trace) to %2.")
                             .arg(msgId, QString::fromLatin1(client::kDefaultTraceTopic)));
        timeline_->setRows({}, 0);
        return;
    }
    std::vector<TraceTimeline::Row> rows;
    const QLocale locale;
    auto cost = [&](qint64 ms) { return tr("%1 ms").arg(locale.toString(ms)); };
    if (const auto &pub = trace.publish) {
        const bool ok = pub->success;
        rows.push_back({tr("Sent by %1").arg(fromStd(pub->group)), pub->timestamp, pub->costTimeMs,
                        ok ? TraceTimeline::State::Done : TraceTimeline::State::Failed,
                        cost(pub->costTimeMs) + QStringLiteral(" · ") + fromStd(pub->storeHost)});
        addRow({tr("Send"), fromStd(pub->group), timeText(pub->timestamp), cost(pub->costTimeMs),
                ok ? tr("Success") : tr("Failed"),
                tr("%1 message to %2 on %3, from %4")
                    .arg(fromStd(client::traceMessageTypeName(pub->messageType)), fromStd(pub->topic),
                         fromStd(pub->storeHost), fromStd(pub->clientHost))},
               !ok);
    }
    if (storeTimestamp > 0)
        addRow({tr("Store"), QString(), timeText(storeTimestamp), QString(), tr("Stored"), QString()}, false);
    for (const client::TraceEvent &end : trace.transactionEnds) {
        rows.push_back({tr("Transaction %1").arg(fromStd(end.transactionState)), end.timestamp, 0,
                        TraceTimeline::State::Done, fromStd(end.transactionState)});
        addRow({tr("End transaction"), fromStd(end.group), timeText(end.timestamp), QString(),
                fromStd(end.transactionState),
                end.fromTransactionCheck ? tr("answered a check-back") : tr("committed or rolled back by the producer")},
               false);
    }
    for (const client::ConsumeAttempt &attempt : trace.consumes) {
        const auto state = !attempt.finished ? TraceTimeline::State::Running
                           : attempt.success ? TraceTimeline::State::Done
                                             : TraceTimeline::State::Failed;
        const QString status = !attempt.finished ? tr("Not finished")
                               : attempt.success ? tr("Success")
                                                 : tr("Failed (%1)").arg(fromStd(
                                                       client::consumeReturnTypeName(attempt.contextCode)));
        rows.push_back({tr("%1, delivery %2").arg(fromStd(attempt.group)).arg(attempt.retryTimes + 1),
                        attempt.beginTimestamp, attempt.costTimeMs, state,
                        attempt.finished ? cost(attempt.costTimeMs) + QStringLiteral(" · ") + status : status});
        addRow({tr("Consume"), fromStd(attempt.group), timeText(attempt.beginTimestamp),
                attempt.finished ? cost(attempt.costTimeMs) : QString(), status,
                tr("delivery %1 (retry times %2)").arg(attempt.retryTimes + 1).arg(attempt.retryTimes)},
               attempt.finished && !attempt.success);
    }
    table_->resizeColumnsToContents();
    timeline_->setRows(std::move(rows), storeTimestamp);
    const int deliveries = static_cast<int>(trace.consumes.size());
    status_->setText(deliveries == 1 ? tr("Trace of %1: 1 delivery to a consumer group.").arg(msgId)
                                     : tr("Trace of %1: %2 deliveries to consumer groups.").arg(msgId).arg(deliveries));
}

} // namespace mqdesk::ui
