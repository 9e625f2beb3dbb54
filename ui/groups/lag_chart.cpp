#include "ui/groups/lag_chart.h"

#include "ui/history/history_recorder.h"
#include "ui/history/history_store.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSaveFile>
#include <QToolTip>
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

} // namespace

LagChart::LagChart(HistoryStore &history, HistoryRecorder &recorder, QWidget *parent)
    : QWidget(parent), history_(history)
{
    windowBox_ = new QComboBox(this);
    windowBox_->addItem(tr("15 min"), static_cast<int>(Window::Minutes15));
    windowBox_->addItem(tr("1 h"), static_cast<int>(Window::Hour1));
    windowBox_->addItem(tr("24 h (per minute)"), static_cast<int>(Window::Hours24));
    windowBox_->addItem(tr("7 days (per minute)"), static_cast<int>(Window::Days7));
    connect(windowBox_, &QComboBox::activated, this,
            [this](int index) { setWindow(static_cast<Window>(windowBox_->itemData(index).toInt())); });
    pauseButton_ = new QPushButton(tr("Pause"), this);
    pauseButton_->setCheckable(true);
    connect(pauseButton_, &QPushButton::toggled, this, &LagChart::setPaused);
    auto *pngButton = new QPushButton(tr("Export PNG…"), this);
    connect(pngButton, &QPushButton::clicked, this, [this] { chooseExport(true); });
    auto *csvButton = new QPushButton(tr("Export CSV…"), this);
    connect(csvButton, &QPushButton::clicked, this, [this] { chooseExport(false); });
    status_ = new QLabel(this);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *bar = new QHBoxLayout;
    bar->addWidget(status_, 1);
    bar->addWidget(new QLabel(tr("Window:"), this));
    bar->addWidget(windowBox_);
    bar->addWidget(pauseButton_);
    bar->addWidget(pngButton);
    bar->addWidget(csvButton);

    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(160);
    plot_->setNoAntialiasingOnDrag(true);
    lag_ = plot_->addGraph();
    lag_->setName(tr("lag"));
    lag_->setPen(QPen(kLagColor, 1.5));
    lag_->setBrush(QColor(41, 128, 185, 40));
    lag_->setLineStyle(QCPGraph::lsStepLeft); // a value holds until the next sample changes it
    maxLag_ = plot_->addGraph();
    maxLag_->setName(tr("minute maximum"));
    maxLag_->setPen(QPen(kLagColor.darker(140), 1, Qt::DotLine));
    maxLag_->setLineStyle(QCPGraph::lsStepLeft);
    plot_->xAxis->setLabel(tr("Time (local)"));
    plot_->yAxis->setLabel(tr("Lag (messages)"));
    plot_->yAxis->setNumberFormat(QStringLiteral("gb"));
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->setInteractions(QCP::iRangeZoom | QCP::iRangeDrag);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) { showHover(event->pos()); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);

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
    switch (window_) {
    case Window::Minutes15: return 15LL * 60 * 1000;
    case Window::Hour1: return 3600LL * 1000;
    case Window::Hours24: return 24LL * 3600 * 1000;
    case Window::Days7: return 7LL * 24 * 3600 * 1000;
    }
    return 0;
}

void LagChart::setGroup(const QString &cluster, const QString &group)
{
    if (cluster == cluster_ && group == group_)
        return;
    cluster_ = cluster;
    group_ = group;
    reload();
}

void LagChart::setWindow(Window window)
{
    window_ = window;
    windowBox_->setCurrentIndex(windowBox_->findData(static_cast<int>(window)));
    QSharedPointer<QCPAxisTickerDateTime> ticker(new QCPAxisTickerDateTime);
    ticker->setDateTimeFormat(resolution() == HistoryResolution::Second ? QStringLiteral("HH:mm:ss")
                                                                        : QStringLiteral("dd MMM HH:mm"));
    plot_->xAxis->setTicker(ticker);
    const bool minutes = resolution() == HistoryResolution::Minute;
    maxLag_->setVisible(minutes);
    if (minutes)
        maxLag_->addToLegend();
    else
        maxLag_->removeFromLegend();
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
    if (paused_ || loading_) {
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
    lag_->setData(keys, values, true);
    maxLag_->setData(keys, maxima, true);
    plot_->clearItems();
    for (const HistoryEvent &event : markers_)
        addMarkerItem(event);
    followLatest();
}

void LagChart::followLatest()
{
    if (!paused_) {
        const double now = seconds(history_.now());
        const double width = seconds(windowMillis());
        plot_->xAxis->setRange(now - width, now + width / 60);
    }
    bool found = false;
    const QCPRange values = (maxLag_->visible() ? maxLag_ : lag_)->getValueRange(found, QCP::sdBoth, plot_->xAxis->range());
    plot_->yAxis->setRange(0, found && values.upper > 0 ? values.upper * 1.15 : 10);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LagChart::addMarkerItem(const HistoryEvent &event)
{
    const bool reset = event.kind == HistoryEvent::Kind::OffsetReset;
    const QPen pen(reset ? kResetColor : kStartColor, 1.5, reset ? Qt::DashLine : Qt::SolidLine);
    auto *line = new QCPItemStraightLine(plot_);
    line->setPen(pen);
    line->point1->setCoords(seconds(event.time), 0);
    line->point2->setCoords(seconds(event.time), 1);
    auto *text = new QCPItemText(plot_);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(seconds(event.time), reset ? 0.12 : 0.02);
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    text->setPadding(QMargins(3, 1, 3, 1));
    text->setColor(pen.color());
    text->setText(reset ? tr("offsets reset") : tr("app started"));
}

void LagChart::markReset(int64_t time)
{
    const HistoryEvent event{HistoryEvent::Kind::OffsetReset, time, cluster_, group_};
    markers_.push_back(event);
    addMarkerItem(event);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LagChart::setPaused(bool paused)
{
    if (paused == paused_)
        return;
    paused_ = paused;
    {
        const QSignalBlocker block(pauseButton_);
        pauseButton_->setChecked(paused);
    }
    pauseButton_->setText(paused ? tr("Resume") : tr("Pause"));
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

void LagChart::showHover(const QPoint &pos)
{
    if (points_.empty() || !plot_->axisRect()->rect().contains(pos)) {
        QToolTip::hideText();
        return;
    }
    const auto millis = static_cast<int64_t>(plot_->xAxis->pixelToCoord(pos.x()) * 1000.0);
    // The value shown at a time is the last sample at or before it (the step line).
    auto it = std::upper_bound(points_.begin(), points_.end(), millis,
                               [](int64_t t, const HistoryPoint &p) { return t < p.time; });
    if (it != points_.begin())
        --it;
    const QLocale locale;
    const QString time = locale.toString(QDateTime::fromMSecsSinceEpoch(it->time), QLocale::ShortFormat);
    const QString text = resolution() == HistoryResolution::Minute
                             ? tr("%1\nlag: average %2, maximum %3 messages")
                                   .arg(time, locale.toString(it->value, 'f', 0), locale.toString(it->max, 'f', 0))
                             : tr("%1\nlag: %2 messages").arg(time, locale.toString(it->value, 'f', 0));
    QToolTip::showText(plot_->mapToGlobal(pos), text, plot_);
}

bool LagChart::exportPng(const QString &path, QString *error)
{
    if (plot_->savePng(path, plot_->width(), plot_->height()))
        return true;
    if (error)
        *error = tr("cannot write %1").arg(path);
    return false;
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

void LagChart::chooseExport(bool png)
{
    const QString path = png ? QFileDialog::getSaveFileName(this, tr("Export chart"), tr("%1-lag.png").arg(group_),
                                                            tr("PNG images (*.png)"))
                             : QFileDialog::getSaveFileName(this, tr("Export lag samples"),
                                                            tr("%1-lag.csv").arg(group_), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = png ? exportPng(path, &error) : exportCsv(path, &error);
    status_->setText(ok ? tr("Saved %1.").arg(path) : tr("Export failed: %1").arg(error));
}

} // namespace mqdesk::ui
