#pragma once

// IndexEntryModel: the entries of one index file (store-format §6), read lazily in pages of
// kPageSize through StoreReader::readIndexEntries off the GUI thread (fetchMore returns at once;
// the rows arrive when read). Rows are in file order, entry 1 first; sorting would only sort the
// rows read so far, so the table showing it does not sort.

#include "broker/store/reader/store_reader.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace mqdesk::ui {

class BackgroundScan;

class IndexEntryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int kPageSize = 500;
    enum Column { EntryColumn, PositionColumn, KeyHashColumn, PhyOffsetColumn, TimeColumn, PrevColumn, ColumnCount };

    explicit IndexEntryModel(std::shared_ptr<const store::StoreReader> reader, QObject *parent = nullptr);

    // Shows `fileName`'s entries 1 .. entryCount (none while entryCount is 0).
    void setFile(const QString &fileName, int32_t entryCount);
    // Reads on until `entry` is loaded (or the file ends); fetched() follows.
    void fetchUntil(int32_t entry);
    const store::IndexChainStep &entry(int row) const { return entries_[static_cast<size_t>(row)]; }
    int32_t entryCount() const { return entryCount_; }
    bool isFetching() const { return fetching_; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    // A page of rows arrived.
    void fetched();

private:
    void fetchPage(int32_t count);

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *scan_ = nullptr;
    QString fileName_;
    int32_t entryCount_ = 0;
    int32_t wantedEntry_ = 0; // fetchUntil's target
    bool fetching_ = false;
    std::vector<store::IndexChainStep> entries_;
};

} // namespace mqdesk::ui
