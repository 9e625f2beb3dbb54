#pragma once

// The Topics page's view of a topic's scheduled RocketMQ 5 timer messages (GET_TIMER_TIMELINE):
// a bar per coming minute with how many fall due in it, and the next ones with their due times.
// Shows a line instead when the broker does not report them (a Java broker) or holds none.

#include "broker/client/rocketmq5_stats.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace mqdesk::ui {

class TimelineBars;

class TimerTimelineView : public QWidget
{
    Q_OBJECT

public:
    explicit TimerTimelineView(QWidget *parent = nullptr);

    void setTimeline(const client::TimerTimeline &timeline);
    // `message` instead of a timeline (not supported, an error); empty clears.
    void setUnavailable(const QString &message);

private:
    QLabel *summary_ = nullptr;
    TimelineBars *bars_ = nullptr;
    QTableWidget *next_ = nullptr;
};

} // namespace mqdesk::ui
