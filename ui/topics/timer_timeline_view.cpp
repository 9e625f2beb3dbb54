#include "ui/topics/timer_timeline_view.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace mqdesk::ui {

// Bars of messages due per coming minute, painted (a chart library would be a dependency for
// one histogram). The tooltip of a bar tells its minute and count.
class TimelineBars : public QWidget
{
public:
    explicit TimelineBars(QWidget *parent) : QWidget(parent)
    {
        setObjectName(QStringLiteral("timerTimelineBars"));
        setMinimumHeight(70);
        setMouseTracking(true);
    }

    void setBuckets(std::vector<int64_t> buckets, int64_t startMs, int64_t bucketMs)
    {
        buckets_ = std::move(buckets);
        startMs_ = startMs;
        bucketMs_ = bucketMs;
        update();
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        const QRect area = rect().adjusted(2, 2, -2, -14);
        painter.fillRect(rect(), palette().base());
        if (buckets_.empty())
            return;
        const int64_t peak = std::max<int64_t>(1, *std::max_element(buckets_.begin(), buckets_.end()));
        const double width = static_cast<double>(area.width()) / static_cast<double>(buckets_.size());
        painter.setPen(Qt::NoPen);
        painter.setBrush(palette().highlight());
        for (size_t i = 0; i < buckets_.size(); ++i) {
            if (buckets_[i] == 0)
                continue;
            const int height = std::max(1, static_cast<int>(area.height() * buckets_[i] / peak));
            painter.drawRect(QRectF(area.left() + i * width, area.bottom() - height + 1, std::max(1.0, width - 1), height));
        }
        painter.setPen(palette().text().color());
        painter.drawText(QRect(area.left(), area.bottom() + 1, area.width(), 13), Qt::AlignLeft,
                         TimerTimelineView::tr("now"));
        painter.drawText(QRect(area.left(), area.bottom() + 1, area.width(), 13), Qt::AlignRight,
                         TimerTimelineView::tr("+%n min", "", static_cast<int>(buckets_.size() * bucketMs_ / 60000)));
        painter.drawText(area, Qt::AlignTop | Qt::AlignRight, QLocale().toString(static_cast<qlonglong>(peak)));
    }

    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::ToolTip && !buckets_.empty()) {
            auto *help = static_cast<QHelpEvent *>(event);
            const size_t index = std::min(buckets_.size() - 1,
                                          static_cast<size_t>(std::max(0, help->pos().x()) * buckets_.size()
                                                              / static_cast<size_t>(std::max(1, width()))));
            const QDateTime from = QDateTime::fromMSecsSinceEpoch(startMs_ + static_cast<int64_t>(index) * bucketMs_);
            setToolTip(TimerTimelineView::tr("%1 due from %2").arg(buckets_[index]).arg(QLocale().toString(from.time(), QLocale::ShortFormat)));
        }
        return QWidget::event(event);
    }

private:
    std::vector<int64_t> buckets_;
    int64_t startMs_ = 0;
    int64_t bucketMs_ = 60000;
};

TimerTimelineView::TimerTimelineView(QWidget *parent) : QWidget(parent)
{
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("timerTimelineSummary"));
    summary_->setWordWrap(true);
    bars_ = new TimelineBars(this);
    next_ = new QTableWidget(0, 4, this);
    next_->setObjectName(QStringLiteral("timerNextTable"));
    next_->setHorizontalHeaderLabels({tr("Due"), tr("Message id"), tr("Keys"), tr("Tags")});
    next_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    next_->setSelectionBehavior(QAbstractItemView::SelectRows);
    next_->verticalHeader()->hide();
    next_->horizontalHeader()->setStretchLastSection(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(bars_);
    layout->addWidget(next_, 1);
    setUnavailable({});
}

void TimerTimelineView::setTimeline(const client::TimerTimeline &timeline)
{
    const QLocale locale;
    if (timeline.total == 0) {
        summary_->setText(tr("No timer message is scheduled in the next %n minute(s).", "",
                             static_cast<int>(timeline.buckets.size())));
    } else {
        summary_->setText(tr("%1 timer message(s) due in the next %n minute(s) (precision %2 ms)%3", "",
                             static_cast<int>(timeline.buckets.size()))
                              .arg(locale.toString(static_cast<qlonglong>(timeline.total)))
                              .arg(timeline.precisionMs)
                              .arg(timeline.truncated ? tr(", counted up to the scan limit") : QString()));
    }
    bars_->setBuckets(timeline.buckets, timeline.now, timeline.bucketMs);
    bars_->setVisible(true);
    next_->setRowCount(static_cast<int>(timeline.next.size()));
    for (int row = 0; row < static_cast<int>(timeline.next.size()); ++row) {
        const client::ScheduledMessage &message = timeline.next[static_cast<size_t>(row)];
        const QStringList cells = {
            locale.toString(QDateTime::fromMSecsSinceEpoch(message.deliverMs), QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")),
            QString::fromStdString(message.msgId), QString::fromStdString(message.keys),
            QString::fromStdString(message.tags)};
        for (int column = 0; column < cells.size(); ++column)
            next_->setItem(row, column, new QTableWidgetItem(cells[column]));
    }
    next_->resizeColumnsToContents();
    next_->setVisible(true);
}

void TimerTimelineView::setUnavailable(const QString &message)
{
    summary_->setText(message);
    bars_->setBuckets({}, 0, 60000);
    bars_->setVisible(false);
    next_->setRowCount(0);
    next_->setVisible(false);
}

} // namespace mqdesk::ui
