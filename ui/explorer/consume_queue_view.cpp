#include "ui/explorer/consume_queue_view.h"

#include "ui/explorer/explorer_view_util.h"
#include "ui/explorer/record_table_model.h" // keepLogOrder

#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace mqdesk::ui {

ConsumeQueueView::ConsumeQueueView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent)
    : QWidget(parent), model_(new ConsumeQueueModel(std::move(reader), this))
{
    header_ = new QLabel(this);
    header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    table_ = makeExplorerTable(model_, tr("consume-queue.csv"), [this](const QString &outcome) { emit message(outcome); }, this);
    keepLogOrder(table_);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(header_);
    layout->addWidget(table_, 1);
    connect(table_, &QTableView::activated, this, &ConsumeQueueView::openSelectedEntry);
    connect(model_, &ConsumeQueueModel::pageLoaded, this, &ConsumeQueueView::onPageLoaded);
}

void ConsumeQueueView::showQueue(const QString &topic, int queueId, qint64 fromQueueOffset)
{
    selectQueueOffset_ = fromQueueOffset;
    firstQueueOffset_ = fromQueueOffset;
    header_->setText(tr("Consume queue %1 / %2 from queue offset %3 — Enter or double-click an entry to open its record")
                         .arg(topic)
                         .arg(queueId)
                         .arg(fromQueueOffset));
    model_->showQueue(topic, queueId, fromQueueOffset);
}

void ConsumeQueueView::refresh() { model_->showQueue(model_->topic(), model_->queueId(), firstQueueOffset_); }

void ConsumeQueueView::followEnd() { model_->followEnd(); }

QString ConsumeQueueView::headerText() const { return header_->text(); }

void ConsumeQueueView::openSelectedEntry()
{
    const store::ConsumeQueueRead *read = model_->entry(table_->currentIndex().row());
    if (!read)
        return;
    const QString why = ConsumeQueueModel::validityText(*read);
    if (!why.isEmpty()) {
        emit message(tr("Queue offset %1 points at no record: %2.").arg(read->queueOffset).arg(why));
        return;
    }
    emit recordRequested(read->entry.commitLogOffset);
}

void ConsumeQueueView::onPageLoaded()
{
    if (selectQueueOffset_ < 0 || model_->rowCount() == 0)
        return;
    const int row = qMax(model_->rowOfQueueOffset(selectQueueOffset_), 0);
    selectQueueOffset_ = -1;
    table_->selectRow(row);
    table_->setCurrentIndex(model_->index(row, 0));
    table_->scrollTo(model_->index(row, 0), QAbstractItemView::PositionAtTop);
}

} // namespace mqdesk::ui
