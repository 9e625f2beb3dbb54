#include "ui/widgets/traffic_chart.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSharedPointer>
#include <QTableWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>

namespace mqdesk::ui {

namespace {

QTableWidgetItem *numberItem(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

TrafficChart::TrafficChart(const QString &itemHeader, QWidget *parent) : QWidget(parent)
{
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("trafficSummary"));
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setWordWrap(true);
    table_ = new QTableWidget(0, 5, this);
    table_->setObjectName(QStringLiteral("trafficTable"));
    table_->setHorizontalHeaderLabels({itemHeader, tr("Now (msg/s)"), tr("Last hour"), tr("Last 24 h"),
                                       tr("Bytes, last 24 h")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("trafficBars"));
    plot_->setMinimumHeight(100);
    plot_->yAxis->setLabel(tr("Messages, last 24 h"));
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setPen(Qt::NoPen);
    bars_->setBrush(QColor(41, 128, 185));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    layout->addWidget(plot_, 1);
    layout->addStretch(); // keeps a lone message at the top while the table and chart are hidden
}

void TrafficChart::setRows(const QString &summary, std::vector<Row> rows)
{
    // The busiest first, as the Dashboard's top-N chart orders them.
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) { return a.last24Hours > b.last24Hours; });
    rows_ = std::move(rows);
    summary_->setText(summary);
    const QLocale locale;
    table_->setRowCount(static_cast<int>(rows_.size()));
    for (int i = 0; i < table_->rowCount(); ++i) {
        const Row &row = rows_[static_cast<size_t>(i)];
        table_->setItem(i, 0, new QTableWidgetItem(row.label));
        table_->setItem(i, 1, numberItem(locale.toString(row.perSecond, 'f', 2)));
        table_->setItem(i, 2, numberItem(locale.toString(static_cast<qlonglong>(row.lastHour))));
        table_->setItem(i, 3, numberItem(locale.toString(static_cast<qlonglong>(row.last24Hours))));
        table_->setItem(i, 4, numberItem(row.bytes24Hours < 0 ? tr("unknown") : locale.formattedDataSize(row.bytes24Hours)));
    }
    table_->resizeColumnsToContents();
    table_->show();
    plot_->setVisible(!rows_.empty());
    redraw();
}

void TrafficChart::setMessage(const QString &text)
{
    rows_.clear();
    summary_->setText(text);
    table_->setRowCount(0);
    table_->hide();
    plot_->hide();
}

QString TrafficChart::summaryText() const { return summary_->text(); }

void TrafficChart::redraw()
{
    QVector<double> keys;
    QVector<double> values;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double highest = 0;
    for (size_t i = 0; i < rows_.size(); ++i) {
        keys << static_cast<double>(i + 1);
        values << static_cast<double>(rows_[i].last24Hours);
        highest = std::max(highest, values.back());
        ticker->addTick(keys.back(), rows_[i].label);
    }
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(rows_.size() > 4 ? 30 : 0);
    bars_->setWidth(0.6);
    bars_->setData(keys, values, true);
    plot_->xAxis->setRange(0.4, static_cast<double>(rows_.size()) + 0.6);
    plot_->yAxis->setRange(0, highest > 0 ? highest * 1.15 : 1);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace mqdesk::ui
