#include "ui/explorer/index_occupancy_chart.h"

#include <QLocale>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <numeric>

namespace mqdesk::ui {

IndexOccupancyChart::IndexOccupancyChart(QWidget *parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(220);
    plot_->xAxis->setLabel(tr("Hash slot (slot number)"));
    plot_->yAxis->setLabel(tr("Occupied slots per bucket"));
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setPen(Qt::NoPen);
    bars_->setBrush(QColor(41, 128, 185));
    plot_->setInteractions(QCP::iRangeZoom | QCP::iRangeDrag);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent *event) {
        const QString text = hoverText(plot_->xAxis->pixelToCoord(event->pos().x()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(plot_->mapToGlobal(event->pos()), text, plot_);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
}

std::pair<int64_t, int64_t> IndexOccupancyChart::bucketRange(int bucket) const
{
    // indexSlotOccupancy puts slot s in bucket s × buckets / slots: bucket b starts at the first
    // slot with s × buckets ≥ b × slots.
    const auto buckets = static_cast<int64_t>(occupied_.size());
    const auto first = [&](int64_t b) { return (b * slotCount_ + buckets - 1) / buckets; };
    return {first(bucket), first(bucket + 1)};
}

void IndexOccupancyChart::setOccupancy(const std::vector<int64_t> &occupied, int64_t slotCount)
{
    occupied_ = occupied;
    slotCount_ = slotCount;
    QVector<double> keys;
    QVector<double> values;
    double highest = 0;
    for (int b = 0; b < bucketCount(); ++b) {
        const auto [first, end] = bucketRange(b);
        keys << (first + end) / 2.0;
        values << static_cast<double>(occupied_[static_cast<size_t>(b)]);
        highest = std::max(highest, values.back());
    }
    bars_->setWidth(bucketCount() > 0 ? static_cast<double>(slotCount_) / bucketCount() : 1);
    bars_->setData(keys, values, true);
    plot_->xAxis->setRange(0, std::max<double>(slotCount_, 1));
    plot_->yAxis->setRange(0, highest > 0 ? highest * 1.1 : 1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void IndexOccupancyChart::clear() { setOccupancy({}, 0); }

int64_t IndexOccupancyChart::occupiedSlots() const
{
    return std::accumulate(occupied_.begin(), occupied_.end(), int64_t{0});
}

QString IndexOccupancyChart::hoverText(double slot) const
{
    if (occupied_.empty() || slot < 0 || slot >= static_cast<double>(slotCount_))
        return {};
    const auto bucket = static_cast<int>(static_cast<int64_t>(slot) * bucketCount() / slotCount_);
    const auto [first, end] = bucketRange(bucket);
    const int64_t size = std::max<int64_t>(end - first, 1);
    const int64_t occupied = occupied_[static_cast<size_t>(bucket)];
    const QLocale locale;
    return tr("Slots %1–%2: %3 of %4 occupied (%5%)")
        .arg(locale.toString(first), locale.toString(end - 1), locale.toString(occupied), locale.toString(size),
             locale.toString(100.0 * static_cast<double>(occupied) / static_cast<double>(size), 'f', 1));
}

} // namespace mqdesk::ui
