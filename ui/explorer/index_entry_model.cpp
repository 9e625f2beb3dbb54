#include "ui/explorer/index_entry_model.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/explorer_view_util.h"

namespace mqdesk::ui {

IndexEntryModel::IndexEntryModel(std::shared_ptr<const store::StoreReader> reader, QObject *parent)
    : QAbstractTableModel(parent), reader_(std::move(reader)), scan_(new BackgroundScan(this))
{
}

void IndexEntryModel::setFile(const QString &fileName, int32_t entryCount)
{
    scan_->cancel(); // a page of the previous file is dropped
    beginResetModel();
    fileName_ = fileName;
    entryCount_ = std::max(entryCount, 0);
    wantedEntry_ = 0;
    fetching_ = false;
    entries_.clear();
    endResetModel();
}

void IndexEntryModel::fetchUntil(int32_t entry)
{
    wantedEntry_ = std::min(entry, entryCount_);
    if (!fetching_ && rowCount() < wantedEntry_)
        fetchPage(std::max(kPageSize, wantedEntry_ - rowCount()));
    else if (!fetching_)
        emit fetched();
}

int IndexEntryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int IndexEntryModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant IndexEntryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const store::IndexChainStep &e = entries_[static_cast<size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == TimeColumn ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case EntryColumn: return e.entry;
    case PositionColumn: return static_cast<qint64>(e.filePosition);
    case KeyHashColumn: return e.keyHash;
    case PhyOffsetColumn: return static_cast<qint64>(e.phyOffset);
    case TimeColumn: return localTimeText(e.timestamp);
    case PrevColumn: return e.prev;
    default: return {};
    }
}

QVariant IndexEntryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case EntryColumn: return tr("Entry");
    case PositionColumn: return tr("Position");
    case KeyHashColumn: return tr("Key hash");
    case PhyOffsetColumn: return tr("Commit-log offset");
    case TimeColumn: return tr("Stored at");
    case PrevColumn: return tr("Prev");
    default: return {};
    }
}

bool IndexEntryModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !fetching_ && rowCount() < entryCount_;
}

void IndexEntryModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        fetchPage(kPageSize);
}

void IndexEntryModel::fetchPage(int32_t count)
{
    fetching_ = true;
    const int32_t first = rowCount() + 1; // entries are numbered from 1
    scan_->start([reader = reader_, file = fileName_.toStdString(), first, count](const store::ScanProgress &) {
        return reader->readIndexEntries(file, first, count);
    }, [this, first](std::vector<store::IndexChainStep> page) {
        fetching_ = false;
        if (first != rowCount() + 1)
            return; // the model was reset meanwhile
        if (page.empty()) {
            entryCount_ = rowCount(); // the file holds fewer entries than its header said
        } else {
            beginInsertRows({}, rowCount(), rowCount() + static_cast<int>(page.size()) - 1);
            entries_.insert(entries_.end(), page.begin(), page.end());
            endInsertRows();
        }
        if (rowCount() < wantedEntry_ && rowCount() < entryCount_)
            fetchPage(std::max(kPageSize, wantedEntry_ - rowCount()));
        else
            emit fetched();
    });
}

} // namespace mqdesk::ui
