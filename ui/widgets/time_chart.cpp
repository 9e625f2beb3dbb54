#include "ui/widgets/time_chart.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace mqdesk::ui {

TimeChart::TimeChart(const QString &objectNamePrefix, QWidget *parent) : QWidget(parent)
{
    windowBox_ = new QComboBox(this);
    windowBox_->setObjectName(objectNamePrefix + QStringLiteral("WindowBox"));
    connect(windowBox_, &QComboBox::activated, this,
            [this](int index) { setWindowSeconds(windowBox_->itemData(index).toInt()); });
    pauseButton_ = new QPushButton(tr("Pause"), this);
    pauseButton_->setObjectName(objectNamePrefix + QStringLiteral("PauseButton"));
    pauseButton_->setCheckable(true);
    connect(pauseButton_, &QPushButton::toggled, this, &TimeChart::setPaused);
    auto *pngButton = new QPushButton(tr("Export PNG…"), this);
    pngButton->setObjectName(objectNamePrefix + QStringLiteral("ExportPng"));
    connect(pngButton, &QPushButton::clicked, this, [this] { chooseExport(true); });
    auto *csvButton = new QPushButton(tr("Export CSV…"), this);
    csvButton->setObjectName(objectNamePrefix + QStringLiteral("ExportCsv"));
    connect(csvButton, &QPushButton::clicked, this, [this] { chooseExport(false); });

    toolbar_ = new QHBoxLayout;
    toolbar_->addWidget(new QLabel(tr("Window:"), this));
    toolbar_->addWidget(windowBox_);
    toolbar_->addWidget(pauseButton_);
    toolbar_->addWidget(pngButton);
    toolbar_->addWidget(csvButton);

    plot_ = new QCustomPlot(this);
    plot_->setNoAntialiasingOnDrag(true);
    plot_->plotLayout()->clear();
    plot_->setInteractions(QCP::iRangeZoom | QCP::iRangeDrag);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) { showHover(event->pos()); });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(toolbar_);
    layout->addWidget(plot_, 1);
}

void TimeChart::setWindowChoices(const QList<WindowChoice> &choices, int currentSeconds)
{
    windowBox_->clear();
    for (const WindowChoice &choice : choices)
        windowBox_->addItem(choice.label, choice.seconds);
    windowSeconds_ = currentSeconds;
    followedSeconds_ = currentSeconds;
    windowBox_->setCurrentIndex(windowBox_->findData(currentSeconds));
}

void TimeChart::setWindowSeconds(int seconds)
{
    windowSeconds_ = seconds;
    followedSeconds_ = seconds;
    if (const int index = windowBox_->findData(seconds); index >= 0)
        windowBox_->setCurrentIndex(index);
    if (paused_ && !rects_.isEmpty()) {
        const double upper = timeAxis(rects_.first())->range().upper;
        syncRanges(QCPRange(upper - seconds, upper));
    }
    emit windowChanged(seconds);
}

void TimeChart::setTimeFormat(const QString &format)
{
    timeFormat_ = format;
    for (QCPAxisRect *rect : std::as_const(rects_)) {
        QSharedPointer<QCPAxisTickerDateTime> ticker(new QCPAxisTickerDateTime);
        ticker->setDateTimeFormat(format);
        timeAxis(rect)->setTicker(ticker);
    }
}

QCPAxisRect *TimeChart::addRect(const QString &valueLabel)
{
    auto *rect = new QCPAxisRect(plot_);
    plot_->plotLayout()->addElement(plot_->plotLayout()->rowCount(), 0, rect);
    auto *group = plot_->findChild<QCPMarginGroup *>();
    if (!group)
        group = new QCPMarginGroup(plot_);
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    rect->axis(QCPAxis::atLeft)->setLabel(valueLabel);
    rect->setRangeZoom(Qt::Horizontal);
    rect->setRangeDrag(Qt::Horizontal);
    connect(rect->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
            &TimeChart::syncRanges);

    auto *legend = new QCPLegend;
    rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignLeft);
    legend->setLayer(QStringLiteral("legend"));
    legend->setFont(QFont(font().family(), 8));
    legend->setBrush(QColor(255, 255, 255, 200));
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(3); // three a row: many series must not widen the window
    rects_ << rect;
    setTimeFormat(timeFormat_);
    return rect;
}

QCPAxis *TimeChart::timeAxis(QCPAxisRect *rect) const
{
    return rect->axis(QCPAxis::atBottom);
}

QCPAxis *TimeChart::valueAxis(QCPAxisRect *rect) const
{
    return rect->axis(QCPAxis::atLeft);
}

QCPGraph *TimeChart::addGraph(QCPAxisRect *rect, QCPAxis *valueAxis, const QString &name, const QPen &pen)
{
    QCPGraph *graph = plot_->addGraph(timeAxis(rect), valueAxis);
    graph->setName(name);
    graph->setPen(pen);
    graph->removeFromLegend();
    graph->addToLegend(qobject_cast<QCPLegend *>(rect->insetLayout()->elementAt(0)));
    return graph;
}

void TimeChart::addMarker(double seconds, const QString &label, const QPen &pen)
{
    for (QCPAxisRect *rect : std::as_const(rects_)) {
        auto *line = new QCPItemStraightLine(plot_);
        line->setClipAxisRect(rect);
        line->setPen(pen);
        for (QCPItemPosition *point : {line->point1, line->point2})
            point->setAxes(timeAxis(rect), valueAxis(rect));
        line->point1->setCoords(seconds, 1);
        line->point2->setCoords(seconds, 10);
    }
    QCPAxisRect *first = rects_.first();
    auto *text = new QCPItemText(plot_);
    text->setClipAxisRect(first);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->position->setAxes(timeAxis(first), valueAxis(first));
    text->position->setAxisRect(first);
    text->position->setCoords(seconds, 0.02 + 0.13 * (markers_ % 3));
    // Left of the line, so the newest marker's label stays inside the graph.
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    text->setPadding(QMargins(3, 1, 3, 1));
    text->setColor(pen.color());
    text->setText(label);
    ++markers_;
}

void TimeChart::clear()
{
    for (int i = 0; i < plot_->graphCount(); ++i)
        plot_->graph(i)->data()->clear();
    plot_->clearItems();
    markers_ = 0;
}

void TimeChart::followLatest(double nowSeconds)
{
    if (!paused_ && !rects_.isEmpty()) {
        updatingRange_ = true;
        for (QCPAxisRect *rect : std::as_const(rects_))
            timeAxis(rect)->setRange(nowSeconds - followedSeconds_, nowSeconds + followedSeconds_ / 50);
        updatingRange_ = false;
    }
    emit visibleRangeChanged();
    replot();
}

void TimeChart::syncRanges(const QCPRange &range)
{
    if (updatingRange_)
        return;
    // A wheel zoom or a drag on one rect moves all of them; the zoomed width is followed from now on.
    updatingRange_ = true;
    for (QCPAxisRect *rect : std::as_const(rects_))
        timeAxis(rect)->setRange(range);
    updatingRange_ = false;
    followedSeconds_ = std::max(5.0, range.size());
    emit visibleRangeChanged();
    replot();
}

void TimeChart::setPaused(bool paused)
{
    if (paused == paused_)
        return;
    paused_ = paused;
    {
        const QSignalBlocker block(pauseButton_);
        pauseButton_->setChecked(paused);
    }
    pauseButton_->setText(paused ? tr("Resume") : tr("Pause"));
    emit pausedChanged(paused);
}

void TimeChart::replot()
{
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool TimeChart::exportPng(const QString &path, QString *error)
{
    if (plot_->savePng(path, plot_->width(), plot_->height()))
        return true;
    if (error)
        *error = tr("cannot write %1").arg(path);
    return false;
}

void TimeChart::setExports(const QString &pngName, const QString &csvName, CsvWriter csv)
{
    pngName_ = pngName;
    csvName_ = csvName;
    csv_ = std::move(csv);
}

void TimeChart::chooseExport(bool png)
{
    const QString path = png ? QFileDialog::getSaveFileName(this, tr("Export graph"), pngName_, tr("PNG images (*.png)"))
                             : QFileDialog::getSaveFileName(this, tr("Export samples"), csvName_, tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = png ? exportPng(path, &error) : (csv_ && csv_(path, &error));
    emit exportFinished(ok ? tr("Saved %1.").arg(path) : tr("Export failed: %1").arg(error));
}

void TimeChart::showHover(const QPoint &pos)
{
    QCPAxisRect *rect = plot_->axisRectAt(pos);
    const QString text = rect && hover_ ? hover_(rect, timeAxis(rect)->pixelToCoord(pos.x())) : QString();
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(plot_->mapToGlobal(pos), text, plot_);
}

} // namespace mqdesk::ui
