#include "ui/explorer/consume_queue_model.h"

#include "ui/explorer/background_scan.h"

#include <QColor>

#include <algorithm>

namespace mqdesk::ui {

ConsumeQueueModel::ConsumeQueueModel(std::shared_ptr<const store::StoreReader> reader, QObject *parent)
    : QAbstractTableModel(parent), reader_(std::move(reader)), scan_(new BackgroundScan(this))
{
}

int ConsumeQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int ConsumeQueueModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString ConsumeQueueModel::validityText(const store::ConsumeQueueRead &read)
{
    if (read.entry.isFiller())
        return tr("filler (before the queue's first entry)");
    if (read.valid)
        return {};
    if (read.entry.commitLogOffset < 0)
        return tr("invalid: the commit-log offset %1 is negative").arg(read.entry.commitLogOffset);
    if (read.entry.size <= 0)
        return tr("invalid: the size %1 is not positive").arg(read.entry.size);
    return tr("invalid");
}

QVariant ConsumeQueueModel::data(const QModelIndex &index, int role) const
{
    const store::ConsumeQueueRead *read = entry(index.row());
    if (!read)
        return {};
    if (role == Qt::TextAlignmentRole && index.column() != ValidColumn && index.column() != FileColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == ValidColumn && !read->valid)
        return QColor(Qt::darkRed);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case QueueOffsetColumn: return QVariant::fromValue<qint64>(read->queueOffset);
    case CommitLogOffsetColumn: return QVariant::fromValue<qint64>(read->entry.commitLogOffset);
    case SizeColumn: return read->entry.size;
    case TagsCodeColumn: return QVariant::fromValue<qint64>(read->entry.tagsCode);
    case ValidColumn: {
        const QString why = validityText(*read);
        return why.isEmpty() ? tr("valid") : why;
    }
    case FileColumn: return QString::fromStdString(read->file);
    case PositionColumn: return QVariant::fromValue<qint64>(read->filePosition);
    case MessagesColumn: return read->entry.batchSize;
    default: return {};
    }
}

QVariant ConsumeQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case QueueOffsetColumn: return tr("Queue offset");
    case CommitLogOffsetColumn: return tr("Commit-log offset");
    case SizeColumn: return tr("Size");
    case TagsCodeColumn: return tr("Tags code");
    case ValidColumn: return tr("Valid");
    case FileColumn: return tr("File");
    case PositionColumn: return tr("Position");
    case MessagesColumn: return tr("Messages");
    default: return {};
    }
}

bool ConsumeQueueModel::isLoading() const { return scan_->isRunning(); }

bool ConsumeQueueModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !atEnd_ && !scan_->isRunning();
}

void ConsumeQueueModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    auto reader = reader_;
    const std::string topic = topic_.toStdString();
    const int queueId = queueId_;
    const qint64 from = nextQueueOffset_;
    scan_->start([reader, topic, queueId, from](const store::ScanProgress &) {
        return reader->readConsumeQueue(topic, queueId, from, kPageSize);
    }, [this](store::ConsumeQueuePage page) { appendPage(std::move(page)); });
}

void ConsumeQueueModel::showQueue(const QString &topic, int queueId, qint64 fromQueueOffset)
{
    scan_->cancel();
    beginResetModel();
    entries_.clear();
    topic_ = topic;
    queueId_ = queueId;
    nextQueueOffset_ = fromQueueOffset;
    atEnd_ = false;
    endResetModel();
    fetchMore({});
}

void ConsumeQueueModel::followEnd()
{
    if (!atEnd_ || scan_->isRunning() || queueId_ < 0)
        return;
    atEnd_ = false;
    fetchMore({});
}

void ConsumeQueueModel::appendPage(store::ConsumeQueuePage page)
{
    if (!page.entries.empty()) {
        beginInsertRows({}, rowCount(), rowCount() + static_cast<int>(page.entries.size()) - 1);
        entries_.insert(entries_.end(), std::make_move_iterator(page.entries.begin()),
                        std::make_move_iterator(page.entries.end()));
        endInsertRows();
    }
    nextQueueOffset_ = std::max<qint64>(nextQueueOffset_, page.nextQueueOffset);
    atEnd_ = page.atEnd || page.entries.empty();
    emit pageLoaded();
}

const store::ConsumeQueueRead *ConsumeQueueModel::entry(int row) const
{
    return row >= 0 && row < rowCount() ? &entries_[static_cast<size_t>(row)] : nullptr;
}

int ConsumeQueueModel::rowOfQueueOffset(qint64 queueOffset) const
{
    const auto it = std::partition_point(entries_.begin(), entries_.end(), [queueOffset](const store::ConsumeQueueRead &r) {
        return r.queueOffset + std::max(r.entry.batchSize, 1) <= queueOffset;
    });
    return it != entries_.end() && it->queueOffset <= queueOffset ? static_cast<int>(it - entries_.begin()) : -1;
}

} // namespace mqdesk::ui
