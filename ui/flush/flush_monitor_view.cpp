#include "ui/flush/flush_monitor_view.h"

#include "ui/flush/write_path_panel.h"
#include "ui/widgets/time_chart.h"

#include <qcustomplot.h>

#include <QAbstractItemView>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace mqdesk::ui {

namespace {

constexpr double kKeepSeconds = 3600; // drawn history; the series holds the same
const QColor kModeColor(230, 126, 34);
const QColor kRestartColor(192, 57, 43);
const QColor kAppStartColor(127, 140, 141);

double positiveOrGap(int64_t micros)
{
    // A log axis cannot show 0 ("no flush in that second"): leave a gap instead.
    return micros > 0 ? static_cast<double>(micros) : std::numeric_limits<double>::quiet_NaN();
}

} // namespace

FlushMonitorView::FlushMonitorView(BrokerHost &host, ClusterConnection &connection, QWidget *parent)
    : QWidget(parent)
{
    source_ = new FlushMonitorSource(host, connection, this);
    brokerBox_ = new QComboBox(this);
    brokerBox_->setObjectName(QStringLiteral("flushBrokerBox"));
    brokerBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    brokerBox_->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
    brokerBox_->setToolTip(tr("The broker of the shown cluster whose flushing is drawn"));
    connect(brokerBox_, &QComboBox::activated, this,
            [this](int index) { selectBroker(brokerBox_->itemData(index).toString()); });
    modeBox_ = new QComboBox(this);
    modeBox_->setObjectName(QStringLiteral("flushModeBox"));
    for (Mode mode : {Mode::SyncFlush, Mode::AsyncFlush, Mode::AsyncFlushWithPool})
        modeBox_->addItem(modeText(mode), static_cast<int>(mode));
    modeBox_->setCurrentIndex(1);
    modeBox_->setToolTip(tr("Applied live with UPDATE_BROKER_CONFIG (flushDiskType, transientStorePoolEnable)"));
    connect(modeBox_, &QComboBox::activated, this,
            [this](int index) { requestMode(static_cast<Mode>(modeBox_->itemData(index).toInt())); });
    modeLabel_ = new QLabel(this);
    // A long report ("… after a restart") is clipped rather than widening the window.
    modeLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    chart_ = new TimeChart(QStringLiteral("flush"), this);
    chart_->setWindowChoices({{tr("1 min"), 60}, {tr("5 min"), 300}, {tr("15 min"), 900}}, 300);
    chart_->toolbar()->insertStretch(0, 1);
    chart_->plot()->setMinimumHeight(300);
    chart_->setExports(tr("flush.png"), tr("flush.csv"),
                       [this](const QString &path, QString *error) { return exportCsv(path, error); });
    chart_->setHoverText([this](QCPAxisRect *, double seconds) { return hoverText(seconds); });
    connect(chart_, &TimeChart::windowChanged, this, [this] { followLatest(); });
    connect(chart_, &TimeChart::pausedChanged, this, &FlushMonitorView::onPausedChanged);
    connect(chart_, &TimeChart::visibleRangeChanged, this, &FlushMonitorView::rescaleValues);
    connect(chart_, &TimeChart::exportFinished, this, &FlushMonitorView::showBanner);

    // Two rows: which broker and its mode, then how the graph is shown (the chart's toolbar).
    auto *brokerBar = new QHBoxLayout;
    brokerBar->addWidget(new QLabel(tr("Broker:"), this));
    brokerBar->addWidget(brokerBox_);
    brokerBar->addWidget(new QLabel(tr("Flush mode:"), this));
    brokerBar->addWidget(modeBox_);
    brokerBar->addWidget(modeLabel_, 1);

    banner_ = new QLabel(this);
    banner_->setWordWrap(true);
    banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_->hide();

    latencyRect_ = chart_->addRect(tr("Latency (µs)"));
    rateRect_ = chart_->addRect(tr("Put TPS (msg/s)"));
    riskRect_ = chart_->addRect(tr("Data at risk (KiB)"));

    QCPAxis *latency = latencyRect_->axis(QCPAxis::atLeft);
    latency->setScaleType(QCPAxis::stLogarithmic);
    latency->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    latency->setNumberFormat(QStringLiteral("gb"));
    latency->setRange(10, 100000);
    QCPAxis *bytesAxis = rateRect_->axis(QCPAxis::atRight);
    bytesAxis->setVisible(true);
    bytesAxis->setLabel(tr("Bytes flushed (KiB/s)"));
    riskRect_->axis(QCPAxis::atBottom)->setLabel(tr("Time (local, HH:mm:ss)"));

    auto graph = [this](QCPAxisRect *rect, QCPAxis *valueAxis, const QString &name, const QColor &color,
                        Qt::PenStyle style = Qt::SolidLine) {
        return chart_->addGraph(rect, valueAxis, name, QPen(color, 1.5, style));
    };
    flushP50_ = graph(latencyRect_, latency, tr("flush p50"), QColor(41, 128, 185));
    flushP99_ = graph(latencyRect_, latency, tr("flush p99"), QColor(142, 68, 173));
    flushMax_ = graph(latencyRect_, latency, tr("flush max"), QColor(149, 165, 166), Qt::DotLine);
    ackP50_ = graph(latencyRect_, latency, tr("put-to-ack p50"), QColor(39, 174, 96));
    ackP99_ = graph(latencyRect_, latency, tr("put-to-ack p99"), QColor(22, 160, 133), Qt::DashLine);
    ackMax_ = graph(latencyRect_, latency, tr("put-to-ack max"), QColor(22, 160, 133), Qt::DotLine);
    putTps_ = graph(rateRect_, rateRect_->axis(QCPAxis::atLeft), tr("put TPS"), QColor(41, 128, 185));
    bytesFlushed_ = graph(rateRect_, bytesAxis, tr("bytes flushed"), QColor(211, 84, 0));
    dataAtRisk_ = graph(riskRect_, riskRect_->axis(QCPAxis::atLeft), tr("data at risk"), QColor(192, 57, 43));
    dataAtRisk_->setBrush(QColor(192, 57, 43, 50));
    followLatest();

    writePath_ = new WritePathPanel(this);
    connect(writePath_, &WritePathPanel::writeWithoutMmapRequested, this, &FlushMonitorView::requestWriteWithoutMmap);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(brokerBar);
    layout->addWidget(banner_);
    layout->addWidget(chart_, 1);
    layout->addWidget(writePath_);

    connect(source_, &FlushMonitorSource::brokersListed, this, &FlushMonitorView::fillBrokerBox);
    connect(source_, &FlushMonitorSource::graphReset, this, &FlushMonitorView::resetGraph);
    connect(source_, &FlushMonitorSource::samplesTaken, this, &FlushMonitorView::onSamples);
    connect(source_, &FlushMonitorSource::bannerChanged, this, &FlushMonitorView::showBanner);
    connect(source_, &FlushMonitorSource::referenceChanged, this, &FlushMonitorView::setReference);
    connect(source_, &FlushMonitorSource::brokerModeChanged, this, &FlushMonitorView::brokerModeChanged);
    connect(source_, &FlushMonitorSource::reportedModeChanged, this, [this](const QString &text) {
        modeLabel_->setText(text);
        modeLabel_->setToolTip(text);
    });
    connect(source_, &FlushMonitorSource::shownModeChanged, this, [this](Mode mode) {
        // Not while its list is open: a poll would move the selection under the user's pointer.
        if (!modeBox_->view()->isVisible())
            modeBox_->setCurrentIndex(modeBox_->findData(static_cast<int>(mode)));
    });
    connect(source_, &FlushMonitorSource::writePathReported, writePath_, &WritePathPanel::showState);
    connect(source_, &FlushMonitorSource::writePathUnavailable, writePath_, &WritePathPanel::showUnavailable);
    connect(source_, &FlushMonitorSource::writePathSwitchFinished, writePath_,
            [this] { writePath_->setSwitchPending(false); });
}

FlushMonitorView::~FlushMonitorView() = default;

void FlushMonitorView::requestMode(Mode mode)
{
    modeBox_->setCurrentIndex(modeBox_->findData(static_cast<int>(mode)));
    source_->requestMode(mode);
}

void FlushMonitorView::requestWriteWithoutMmap(bool on)
{
    writePath_->setSwitchPending(true);
    source_->requestWriteWithoutMmap(on);
}

void FlushMonitorView::selectBroker(const QString &address)
{
    source_->selectBroker(address);
    brokerBox_->setCurrentIndex(brokerBox_->findData(address));
}

QStringList FlushMonitorView::brokerAddresses() const
{
    QStringList addresses;
    for (int i = 0; i < brokerBox_->count(); ++i)
        addresses << brokerBox_->itemData(i).toString();
    return addresses;
}

void FlushMonitorView::fillBrokerBox(const QList<FlushMonitorSource::BrokerChoice> &brokers, const QString &drawn)
{
    if (brokerBox_->view()->isVisible() && !brokers.isEmpty())
        return; // not under the user's pointer; the list comes again in 10 s
    const QSignalBlocker block(brokerBox_);
    brokerBox_->clear();
    for (const FlushMonitorSource::BrokerChoice &broker : brokers)
        brokerBox_->addItem(broker.first, broker.second);
    brokerBox_->setCurrentIndex(brokerBox_->findData(drawn));
    if (!brokers.isEmpty())
        emit brokersListed();
}

void FlushMonitorView::resetGraph()
{
    pending_.clear();
    pendingMarkers_.clear();
    chart_->clear(); // the data, the markers and the reference line
    referenceLine_ = nullptr;
    referenceText_ = nullptr;
    referenceMicros_ = 0;
    modeLabel_->clear();
    writePath_->showCosts({});
    followLatest();
}

void FlushMonitorView::onSamples(const std::vector<client::FlushSample> &samples,
                                 const std::vector<FlushSeries::Marker> &markers)
{
    writePath_->showCosts(series().writePathCosts());
    if (chart_->isPaused()) {
        pending_.insert(pending_.end(), samples.begin(), samples.end());
        pendingMarkers_.insert(pendingMarkers_.end(), markers.begin(), markers.end());
        return;
    }
    for (const FlushSeries::Marker &marker : markers)
        addMarker(marker);
    draw(samples);
}

void FlushMonitorView::draw(const std::vector<client::FlushSample> &samples)
{
    for (const client::FlushSample &s : samples) {
        const double key = static_cast<double>(s.timestamp) / 1000.0;
        flushP50_->addData(key, positiveOrGap(s.flushP50Micros));
        flushP99_->addData(key, positiveOrGap(s.flushP99Micros));
        flushMax_->addData(key, positiveOrGap(s.flushMaxMicros));
        ackP50_->addData(key, positiveOrGap(s.putToAckP50Micros));
        ackP99_->addData(key, positiveOrGap(s.putToAckP99Micros));
        ackMax_->addData(key, positiveOrGap(s.putToAckMaxMicros));
        putTps_->addData(key, static_cast<double>(s.putTps));
        bytesFlushed_->addData(key, static_cast<double>(s.bytesFlushed) / 1024.0);
        dataAtRisk_->addData(key, static_cast<double>(s.dataAtRiskBytes) / 1024.0);
    }
    if (!samples.empty()) {
        const double oldest = static_cast<double>(samples.back().timestamp) / 1000.0 - kKeepSeconds;
        for (int i = 0; i < chart_->plot()->graphCount(); ++i)
            chart_->plot()->graph(i)->data()->removeBefore(oldest);
    }
    followLatest();
}

void FlushMonitorView::followLatest()
{
    bool found = false;
    const QCPRange keys = putTps_->getKeyRange(found);
    chart_->followLatest(found ? keys.upper : static_cast<double>(QDateTime::currentMSecsSinceEpoch()) / 1000.0);
}

void FlushMonitorView::rescaleValues()
{
    const QCPRange keys = latencyRect_->axis(QCPAxis::atBottom)->range();
    auto upper = [&keys](std::initializer_list<QCPGraph *> graphs, QCP::SignDomain domain, double *lowest) {
        double high = 0;
        for (QCPGraph *g : graphs) {
            bool found = false;
            const QCPRange r = g->getValueRange(found, domain, keys);
            if (found) {
                high = std::max(high, r.upper);
                if (lowest)
                    *lowest = std::min(*lowest, r.lower);
            }
        }
        return high;
    };
    double low = std::numeric_limits<double>::max();
    double high = upper({flushP50_, flushP99_, flushMax_, ackP50_, ackP99_, ackMax_}, QCP::sdPositive, &low);
    if (referenceMicros_ > 0) {
        low = std::min(low, referenceMicros_);
        high = std::max(high, referenceMicros_);
    }
    if (high > 0)
        latencyRect_->axis(QCPAxis::atLeft)->setRange(std::max(1.0, low / 2), high * 2);
    const double tps = upper({putTps_}, QCP::sdBoth, nullptr);
    rateRect_->axis(QCPAxis::atLeft)->setRange(0, tps > 0 ? tps * 1.15 : 10);
    const double flushed = upper({bytesFlushed_}, QCP::sdBoth, nullptr);
    rateRect_->axis(QCPAxis::atRight)->setRange(0, flushed > 0 ? flushed * 1.15 : 10);
    const double risk = upper({dataAtRisk_}, QCP::sdBoth, nullptr);
    riskRect_->axis(QCPAxis::atLeft)->setRange(0, risk > 0 ? risk * 1.15 : 10);
}

void FlushMonitorView::addMarker(const FlushSeries::Marker &marker)
{
    const bool restart = marker.kind == FlushSeries::Marker::Kind::Restart
                         || marker.kind == FlushSeries::Marker::Kind::AppStart;
    const bool appStart = marker.kind == FlushSeries::Marker::Kind::AppStart;
    const QPen pen(appStart ? kAppStartColor : restart ? kRestartColor : kModeColor, 1.5,
                   restart ? Qt::SolidLine : Qt::DashLine);
    chart_->addMarker(marker.time,
                      appStart ? tr("app started") : restart ? tr("restart (%1)").arg(marker.mode) : marker.mode, pen);
}

void FlushMonitorView::setReference(double micros, const QString &label)
{
    referenceMicros_ = micros;
    if (!referenceLine_) {
        referenceLine_ = new QCPItemStraightLine(chart_->plot());
        referenceLine_->setClipAxisRect(latencyRect_);
        referenceLine_->setPen(QPen(QColor(127, 140, 141), 1, Qt::DashDotLine));
        for (QCPItemPosition *point : {referenceLine_->point1, referenceLine_->point2})
            point->setAxes(latencyRect_->axis(QCPAxis::atBottom), latencyRect_->axis(QCPAxis::atLeft));
        referenceText_ = new QCPItemText(chart_->plot());
        referenceText_->setClipAxisRect(latencyRect_);
        referenceText_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        referenceText_->position->setTypeY(QCPItemPosition::ptPlotCoords);
        referenceText_->position->setAxisRect(latencyRect_);
        referenceText_->position->setAxes(latencyRect_->axis(QCPAxis::atBottom), latencyRect_->axis(QCPAxis::atLeft));
        referenceText_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        referenceText_->setColor(QColor(100, 110, 111));
    }
    referenceLine_->point1->setCoords(0, micros);
    referenceLine_->point2->setCoords(1, micros);
    referenceText_->position->setCoords(0.99, micros);
    referenceText_->setText(label);
    rescaleValues();
    chart_->replot();
}

void FlushMonitorView::setPaused(bool paused)
{
    chart_->setPaused(paused);
}

bool FlushMonitorView::isPaused() const
{
    return chart_->isPaused();
}

void FlushMonitorView::onPausedChanged(bool paused)
{
    if (paused)
        return;
    for (const FlushSeries::Marker &marker : pendingMarkers_)
        addMarker(marker);
    pendingMarkers_.clear();
    std::vector<client::FlushSample> samples;
    samples.swap(pending_);
    draw(samples);
}

void FlushMonitorView::setWindowSeconds(int seconds)
{
    chart_->setWindowSeconds(seconds);
}

bool FlushMonitorView::exportPng(const QString &path, QString *error)
{
    return chart_->exportPng(path, error);
}

bool FlushMonitorView::exportCsv(const QString &path, QString *error) const
{
    return series().writeCsv(path, error);
}

int FlushMonitorView::pointCount() const
{
    return putTps_->dataCount();
}

int FlushMonitorView::markerCount() const
{
    return chart_->markerCount();
}

QCustomPlot *FlushMonitorView::plot() const
{
    return chart_->plot();
}

QString FlushMonitorView::reportedModeText() const
{
    return modeLabel_->text();
}

QString FlushMonitorView::bannerText() const
{
    return banner_->text();
}

void FlushMonitorView::showBanner(const QString &text)
{
    // The source's banner (polls, switches) and the view's own (exports) share the label.
    banner_->setText(text);
    banner_->setVisible(!text.isEmpty());
}

QString FlushMonitorView::hoverText(double seconds) const
{
    const auto &samples = series().samples();
    if (samples.empty())
        return {};
    const auto millis = static_cast<int64_t>(seconds * 1000.0);
    auto it = std::lower_bound(samples.begin(), samples.end(), millis,
                               [](const client::FlushSample &s, int64_t t) { return s.timestamp < t; });
    if (it == samples.end())
        --it;
    else if (it != samples.begin() && millis - std::prev(it)->timestamp < it->timestamp - millis)
        --it;
    const client::FlushSample &s = *it;
    const QLocale locale;
    return tr("%1  %2\nflush p50 / p99 / max: %3 / %4 / %5 µs\nput-to-ack p50 / p99 / max: %6 / %7 / %8 µs\n"
              "put TPS: %9 msg/s · bytes flushed: %10 · data at risk: %11")
        .arg(QDateTime::fromMSecsSinceEpoch(s.timestamp).toString(QStringLiteral("HH:mm:ss")),
             FlushSeries::modeName(s.flushDiskType, s.transientStorePoolEnable), locale.toString(s.flushP50Micros),
             locale.toString(s.flushP99Micros), locale.toString(s.flushMaxMicros),
             locale.toString(s.putToAckP50Micros), locale.toString(s.putToAckP99Micros),
             locale.toString(s.putToAckMaxMicros), locale.toString(s.putTps))
        .arg(locale.formattedDataSize(s.bytesFlushed), locale.formattedDataSize(s.dataAtRiskBytes));
}

} // namespace mqdesk::ui
