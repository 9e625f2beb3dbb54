#include "ui/groups/lag_chart.h"

#include "ui/history/history_recorder.h"
#include "ui/history/history_store.h"
#include "ui/widgets/time_chart.h"

#include <qcustomplot.h>

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSaveFile>
#include <QVBoxLayout>

#include <algorithm>

namespace mqdesk::ui {

namespace {

const QColor kLagColor(41, 128, 185);
const QColor kStartColor(127, 140, 141);
const QColor kResetColor(192, 57, 43);

double seconds(int64_t millis)
{
    return static_cast<double>(millis) / 1000.0;
}


int windowSecondsOf(LagChart::Window window)
{
    switch (window) {
    case LagChart::Window::Minutes15: return 15 * 60;
    case LagChart::Window::Hour1: return 3600;
    case LagChart::Window::Hours24: return 24 * 3600;
    case LagChart::Window::Days7: return 7 * 24 * 3600;
    }
    return 0;
}

} // namespace

LagChart::LagChart(HistoryStore &history, HistoryRecorder &recorder, QWidget *parent)
    : QWidget(parent), history_(history)
{
    chart_ = new TimeChart(QStringLiteral("lag"), this);
    chart_->setWindowChoices({{tr("15 min"), windowSecondsOf(Window::Minutes15)},
                              {tr("1 h"), windowSecondsOf(Window::Hour1)},
                              {tr("24 h (per minute)"), windowSecondsOf(Window::Hours24)},
                              {tr("7 days (per minute)"), windowSecondsOf(Window::Days7)}},
                             windowSecondsOf(Window::Minutes15));
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("lagStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    chart_->toolbar()->insertWidget(0, status_, 1);
    chart_->plot()->setMinimumHeight(160);
    chart_->setExports(tr("%1-lag.png").arg(group_), tr("%1-lag.csv").arg(group_),
                       [this](const QString &path, QString *error) { return exportCsv(path, error); });
    chart_->setHoverText([this](QCPAxisRect *, double seconds) { return hoverText(seconds); });
    connect(chart_, &TimeChart::windowChanged, this, [this](int seconds) {
        if (seconds == windowSecondsOf(window_))
            return; // setWindow's own, or the same window chosen again (which only undoes a zoom)
        for (Window window : {Window::Minutes15, Window::Hour1, Window::Hours24, Window::Days7})
            if (windowSecondsOf(window) == seconds)
                setWindow(window);
    });
    connect(chart_, &TimeChart::pausedChanged, this, &LagChart::onPausedChanged);
    connect(chart_, &TimeChart::visibleRangeChanged, this, &LagChart::rescaleValues);
    connect(chart_, &TimeChart::exportFinished, status_, &QLabel::setText);

    QCPAxisRect *rect = chart_->addRect(tr("Lag (messages)"));
    QCPAxis *values = chart_->valueAxis(rect);
    values->setNumberFormat(QStringLiteral("gb"));
    chart_->timeAxis(rect)->setLabel(tr("Time (local)"));
    lag_ = chart_->addGraph(rect, values, tr("lag"), QPen(kLagColor, 1.5));
    lag_->setBrush(QColor(41, 128, 185, 40));
    lag_->setLineStyle(QCPGraph::lsStepLeft); // a value holds until the next sample changes it
    maxLag_ = chart_->addGraph(rect, values, tr("minute maximum"), QPen(kLagColor.darker(140), 1, Qt::DotLine));
    maxLag_->setLineStyle(QCPGraph::lsStepLeft);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chart_, 1);

    connect(&recorder, &HistoryRecorder::groupLagSampled, this, &LagChart::onSample);
    setWindow(Window::Minutes15);
}

HistoryResolution LagChart::resolution() const
{
    return window_ == Window::Minutes15 || window_ == Window::Hour1 ? HistoryResolution::Second
                                                                    : HistoryResolution::Minute;
}

int64_t LagChart::windowMillis() const
{
    return windowSecondsOf(window_) * 1000LL;
}

void LagChart::setGroup(const QString &cluster, const QString &group)
{
    if (cluster == cluster_ && group == group_)
        return;
    cluster_ = cluster;
    group_ = group;
    chart_->setExports(tr("%1-lag.png").arg(group_), tr("%1-lag.csv").arg(group_),
                       [this](const QString &path, QString *error) { return exportCsv(path, error); });
    reload();
}

void LagChart::setWindow(Window window)
{
    window_ = window;
    chart_->setWindowSeconds(windowSecondsOf(window));
    chart_->setTimeFormat(resolution() == HistoryResolution::Second ? QStringLiteral("HH:mm:ss")
                                                                    : QStringLiteral("dd MMM HH:mm"));
    const bool minutes = resolution() == HistoryResolution::Minute;
    maxLag_->setVisible(minutes);
    auto *legend = qobject_cast<QCPLegend *>(chart_->rects().first()->insetLayout()->elementAt(0));
    if (minutes)
        maxLag_->addToLegend(legend);
    else
        maxLag_->removeFromLegend(legend);
    reload();
}

void LagChart::reload()
{
    const int generation = ++generation_;
    points_.clear();
    pending_.clear();
    markers_.clear();
    if (group_.isEmpty()) {
        loading_ = false;
        status_->setText(tr("Select a group to see its lag over time."));
        redraw();
        return;
    }
    loading_ = true;
    status_->setText(tr("Loading the lag history of %1…").arg(group_));
    const int64_t to = history_.now();
    const int64_t from = to - windowMillis();
    struct Loaded
    {
        std::vector<HistoryPoint> points;
        std::vector<HistoryEvent> events;
    };
    history_.run(
        this,
        [cluster = cluster_, group = group_, from, to, resolution = resolution()](HistoryDatabase &db) {
            return Loaded{db.groupLag(cluster, group, from, to, resolution), db.events(cluster, from, to)};
        },
        [this, generation](Loaded result) {
            if (generation != generation_)
                return;
            loading_ = false;
            points_ = std::move(result.points);
            for (const HistoryEvent &event : result.events) {
                if (event.kind == HistoryEvent::Kind::AppStart || event.name == group_)
                    markers_.push_back(event);
            }
            // Live samples that came while loading, newer than what was stored.
            const int64_t last = points_.empty() ? 0 : points_.back().time;
            for (const HistoryPoint &point : pending_)
                if (point.time > last)
                    points_.push_back(point);
            pending_.clear();
            status_->setText(points_.empty() ? tr("%1: no lag recorded in this window yet.").arg(group_)
                                             : tr("%1: lag of its committed queues (messages)").arg(group_));
            redraw();
            emit loaded();
        });
}

void LagChart::onSample(const QString &cluster, qint64 time, const NamedCounts &lag)
{
    if (cluster != cluster_ || group_.isEmpty())
        return;
    const auto it = lag.find(group_.toStdString());
    if (it == lag.end())
        return;
    const double value = static_cast<double>(it->second);
    const HistoryPoint point{time, value, value};
    if (chart_->isPaused() || loading_) {
        pending_.push_back(point);
        return;
    }
    if (points_.empty())
        status_->setText(tr("%1: lag of its committed queues (messages)").arg(group_));
    points_.push_back(point);
    const int64_t oldest = time - windowMillis();
    const auto firstKept = std::find_if(points_.begin(), points_.end(),
                                        [oldest](const HistoryPoint &p) { return p.time >= oldest; });
    points_.erase(points_.begin(), firstKept);
    lag_->addData(seconds(time), value);
    maxLag_->addData(seconds(time), value);
    lag_->data()->removeBefore(seconds(oldest));
    maxLag_->data()->removeBefore(seconds(oldest));
    followLatest();
}

void LagChart::redraw()
{
    QVector<double> keys, values, maxima;
    for (const HistoryPoint &point : points_) {
        keys << seconds(point.time);
        values << point.value;
        maxima << point.max;
    }
    chart_->clear();
    lag_->setData(keys, values, true);
    maxLag_->setData(keys, maxima, true);
    for (const HistoryEvent &event : markers_)
        addMarkerItem(event);
    followLatest();
}

void LagChart::followLatest()
{
    chart_->followLatest(seconds(history_.now()));
}

void LagChart::rescaleValues()
{
    bool found = false;
    QCPAxisRect *rect = chart_->rects().first();
    const QCPRange values = (maxLag_->visible() ? maxLag_ : lag_)->getValueRange(found, QCP::sdBoth,
                                                                               chart_->timeAxis(rect)->range());
    chart_->valueAxis(rect)->setRange(0, found && values.upper > 0 ? values.upper * 1.15 : 10);
}

void LagChart::addMarkerItem(const HistoryEvent &event)
{
    const bool reset = event.kind == HistoryEvent::Kind::OffsetReset;
    chart_->addMarker(seconds(event.time), reset ? tr("offsets reset") : tr("app started"),
                      QPen(reset ? kResetColor : kStartColor, 1.5, reset ? Qt::DashLine : Qt::SolidLine));
}

void LagChart::markReset(int64_t time)
{
    const HistoryEvent event{HistoryEvent::Kind::OffsetReset, time, cluster_, group_};
    markers_.push_back(event);
    addMarkerItem(event);
    chart_->replot();
}

void LagChart::setPaused(bool paused)
{
    chart_->setPaused(paused);
}

bool LagChart::isPaused() const
{
    return chart_->isPaused();
}

QCustomPlot *LagChart::plot() const
{
    return chart_->plot();
}

void LagChart::onPausedChanged(bool paused)
{
    if (!paused && !loading_) {
        std::vector<HistoryPoint> held;
        held.swap(pending_);
        points_.insert(points_.end(), held.begin(), held.end());
        redraw();
    }
}

QString LagChart::statusText() const
{
    return status_->text();
}

QString LagChart::hoverText(double at) const
{
    if (points_.empty())
        return {};
    const auto millis = static_cast<int64_t>(at * 1000.0);
    // The value shown at a time is the last sample at or before it (the step line).
    auto it = std::upper_bound(points_.begin(), points_.end(), millis,
                               [](int64_t t, const HistoryPoint &p) { return t < p.time; });
    if (it != points_.begin())
        --it;
    const QLocale locale;
    const QString time = locale.toString(QDateTime::fromMSecsSinceEpoch(it->time), QLocale::ShortFormat);
    return resolution() == HistoryResolution::Minute
               ? tr("%1\nlag: average %2, maximum %3 messages")
                     .arg(time, locale.toString(it->value, 'f', 0), locale.toString(it->max, 'f', 0))
               : tr("%1\nlag: %2 messages").arg(time, locale.toString(it->value, 'f', 0));
}

bool LagChart::exportPng(const QString &path, QString *error)
{
    return chart_->exportPng(path, error);
}

bool LagChart::exportCsv(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    QByteArray text = "time,epochMillis,group,lag,maxLag\r\n";
    for (const HistoryPoint &point : points_) {
        text += QDateTime::fromMSecsSinceEpoch(point.time).toString(Qt::ISODate).toUtf8() + ','
                + QByteArray::number(point.time) + ',' + group_.toUtf8() + ',' + QByteArray::number(point.value, 'f', 1)
                + ',' + QByteArray::number(point.max, 'f', 0) + "\r\n";
    }
    file.write(text);
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace mqdesk::ui
