#include "ui/explorer/record_table_model.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/explorer_view_util.h"

#include <QColor>
#include <QHeaderView>
#include <QTableView>

#include <algorithm>

namespace mqdesk::ui {

namespace {

QString bodyPreview(const std::vector<uint8_t> &body)
{
    constexpr size_t kShown = 80; // below kKeptBodyBytes
    const QString shown = QString::fromUtf8(reinterpret_cast<const char *>(body.data()),
                                            static_cast<qsizetype>(std::min(body.size(), kShown)));
    QString out;
    for (const QChar c : shown)
        out += c.isPrint() ? c : QChar(u'·');
    return body.size() > kShown ? out + QChar(u'…') : out;
}

// The table shows a body preview only and the record view reads its bytes again: bodies are cut
// off the GUI thread so a page of 4 MiB messages does not keep 800 MiB alive.
constexpr size_t kKeptBodyBytes = 256;

void trimBodies(std::vector<store::CommitLogRecord> &records)
{
    for (auto &record : records) {
        if (record.message.body.size() > kKeptBodyBytes) {
            record.message.body.resize(kKeptBodyBytes);
            record.message.body.shrink_to_fit();
        }
    }
}

} // namespace

void keepLogOrder(QTableView *table)
{
    table->setSortingEnabled(false);
    table->horizontalHeader()->setSortIndicatorShown(false);
    table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // Columns fit the first page of each read (capped: a body preview must not push the status
    // off screen); later pages keep the widths, so the table does not jump while scrolling.
    QObject::connect(table->model(), &QAbstractItemModel::rowsInserted, table, [table](const QModelIndex &, int first) {
        if (first != 0)
            return;
        constexpr int kMaxColumnWidth = 320;
        table->resizeColumnsToContents();
        for (int column = 0; column < table->model()->columnCount(); ++column)
            table->setColumnWidth(column, qMin(table->columnWidth(column), kMaxColumnWidth));
    });
}

RecordTableModel::RecordTableModel(std::shared_ptr<const store::StoreReader> reader, QObject *parent)
    : QAbstractTableModel(parent), reader_(std::move(reader)), scan_(new BackgroundScan(this))
{
    connect(scan_, &BackgroundScan::started, this, [this] { emit loadingChanged(true); });
    connect(scan_, &BackgroundScan::finished, this, [this] {
        if (!scan_->isRunning())
            emit loadingChanged(false);
    });
}

int RecordTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(records_.size());
}

int RecordTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString RecordTableModel::statusText(const store::CommitLogRecord &record)
{
    switch (record.kind) {
    case store::RecordKind::Blank: return tr("end-of-file blank");
    case store::RecordKind::Invalid: return tr("invalid: %1").arg(qtText(record.error));
    case store::RecordKind::Message: break;
    }
    if (!record.crcOk)
        return tr("CRC mismatch");
    if (!record.positionOk)
        return tr("wrong position: PHYSICALOFFSET is %1").arg(record.message.physicalOffset);
    return tr("OK");
}

QVariant RecordTableModel::data(const QModelIndex &index, int role) const
{
    const store::CommitLogRecord *r = record(index.row());
    if (!r)
        return {};
    if (role == Qt::TextAlignmentRole && index.column() <= QueueOffsetColumn && index.column() != TopicColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == StatusColumn && statusText(*r) != tr("OK"))
        return QColor(Qt::darkRed);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const bool message = r->kind == store::RecordKind::Message;
    const common::StoredMessage &m = r->message;
    switch (index.column()) {
    case OffsetColumn: return QVariant::fromValue<qint64>(r->offset);
    case SizeColumn: return r->size;
    case StatusColumn: return statusText(*r);
    default: break;
    }
    if (!message)
        return {};
    switch (index.column()) {
    case TopicColumn: return qtText(m.topic);
    case QueueColumn: return m.queueId;
    case QueueOffsetColumn: return QVariant::fromValue<qint64>(m.queueOffset);
    case StoreTimeColumn: return localTimeText(m.storeTimestamp);
    case TagsColumn: return qtText(m.tags());
    case KeysColumn: return qtText(std::string(m.properties.get(common::property::kKeys).value_or("")));
    case BodyColumn: return bodyPreview(m.body);
    default: return {};
    }
}

QVariant RecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case OffsetColumn: return tr("Offset");
    case SizeColumn: return tr("Size");
    case TopicColumn: return tr("Topic");
    case QueueColumn: return tr("Queue");
    case QueueOffsetColumn: return tr("Queue offset");
    case StoreTimeColumn: return tr("Store time");
    case TagsColumn: return tr("Tags");
    case KeysColumn: return tr("Keys");
    case BodyColumn: return tr("Body");
    case StatusColumn: return tr("Status");
    default: return {};
    }
}

bool RecordTableModel::isLoading() const { return scan_->isRunning(); }

bool RecordTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !atEnd_ && !paused_ && !scan_->isRunning();
}

void RecordTableModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    foundThisFetch_ = 0;
    startChunk();
}

void RecordTableModel::restart(qint64 fromOffset, const RecordFilter &filter)
{
    scan_->cancel();
    beginResetModel();
    records_.clear();
    filter_ = filter;
    startOffset_ = nextOffset_ = fromOffset;
    atEnd_ = false;
    paused_ = false;
    endResetModel();
    fetchMore({});
}

void RecordTableModel::restartAtEnd()
{
    scan_->cancel();
    beginResetModel();
    records_.clear();
    filter_ = {};
    atEnd_ = true; // nothing to fetch until the tail is read
    paused_ = false;
    endResetModel();
    auto reader = reader_;
    scan_->start(
        [reader](const store::ScanProgress &) {
            store::RecordPage page = reader->readRecordsBefore(reader->commitLogDataEnd(), kPageSize);
            trimBodies(page.records);
            return page;
        },
        [this](store::RecordPage page) {
            startOffset_ = page.records.empty() ? page.nextOffset : page.records.front().offset;
            nextOffset_ = page.nextOffset;
            Chunk chunk;
            chunk.page = std::move(page);
            chunk.page.atEnd = true;
            chunk.page.nextOffset = nextOffset_;
            appendChunk(std::move(chunk));
        });
}

void RecordTableModel::followEnd()
{
    if (!atEnd_ || scan_->isRunning())
        return;
    atEnd_ = false;
    fetchMore({});
}

void RecordTableModel::cancelScan()
{
    if (!scan_->isRunning())
        return;
    paused_ = true;
    scan_->cancel();
}

void RecordTableModel::resumeScan()
{
    paused_ = false;
    fetchMore({});
}

void RecordTableModel::startChunk()
{
    store::RecordQuery query;
    query.fromOffset = nextOffset_;
    query.limit = kPageSize - foundThisFetch_;
    query.topic = filter_.topic.toStdString();
    query.tag = filter_.tag.toStdString();
    query.key = filter_.key.toStdString();
    if (!filter_.isEmpty())
        query.maxScanBytes = scanChunkBytes_;
    auto reader = reader_;
    const bool filtered = !filter_.isEmpty();
    scan_->start(
        [reader, query, filtered](const store::ScanProgress &progress) {
            Chunk chunk;
            chunk.page = reader->readRecords(query, progress);
            trimBodies(chunk.page.records);
            // Only a filtered scan reports progress; finding the end costs a scan of the last file
            // the first time, which the first screen of an unfiltered table must not wait for.
            if (filtered)
                chunk.dataEnd = reader->commitLogDataEnd();
            return chunk;
        },
        [this](Chunk chunk) { appendChunk(std::move(chunk)); });
}

void RecordTableModel::appendChunk(Chunk chunk)
{
    auto &found = chunk.page.records;
    if (!found.empty()) {
        beginInsertRows({}, rowCount(), rowCount() + static_cast<int>(found.size()) - 1);
        records_.insert(records_.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
        endInsertRows();
    }
    foundThisFetch_ += found.size();
    // A page that ends at the data end may still have moved nextOffset on; never go backwards.
    nextOffset_ = std::max<qint64>(nextOffset_, chunk.page.nextOffset);
    atEnd_ = chunk.page.atEnd;
    if (!filter_.isEmpty())
        emit scanProgress(nextOffset_ - startOffset_, std::max<qint64>(chunk.dataEnd - startOffset_, 0));
    // A filtered fetch scans on, chunk after chunk, until a page of matches is found.
    if (!filter_.isEmpty() && !atEnd_ && foundThisFetch_ < kPageSize && !paused_) {
        startChunk();
        return;
    }
    emit pageLoaded();
}

const store::CommitLogRecord *RecordTableModel::record(int row) const
{
    return row >= 0 && row < rowCount() ? &records_[static_cast<size_t>(row)] : nullptr;
}

int RecordTableModel::rowOfOffset(qint64 offset) const
{
    const auto it = std::lower_bound(records_.begin(), records_.end(), offset,
                                     [](const store::CommitLogRecord &r, qint64 value) { return r.offset < value; });
    return it != records_.end() && it->offset == offset ? static_cast<int>(it - records_.begin()) : -1;
}

} // namespace mqdesk::ui
