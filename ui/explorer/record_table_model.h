#pragma once

// RecordTableModel: the commit log's records from an offset on, read lazily through
// StoreReader::readRecords off the GUI thread — a page of 200 each time the view scrolls near
// the end (canFetchMore/fetchMore); nothing counts the records up front, so the first screen
// of a store of millions of records costs one page.
//
// With a filter (topic / tag / key), a fetch scans on in chunks of maxScanBytes until it found a
// page of matches or reached the end, reporting its progress after each chunk; rows appear as
// they are found. cancelScan() stops it where it is (resumeScan() goes on from there).

#include "broker/store/reader/store_reader.h"

#include <QAbstractTableModel>

class QTableView;

#include <memory>
#include <vector>

namespace mqdesk::ui {

class BackgroundScan;

// The lazy tables (records, queue entries) stay in store order: sorting would only reorder the
// pages read so far, and paging on from the last row needs that order. Their rows keep one fixed
// height, so the view never measures rows while pages are appended. Call after setModel.
void keepLogOrder(QTableView *table);

struct RecordFilter
{
    QString topic;
    QString tag; // "A || B" for alternatives
    QString key; // a KEYS token or the UNIQ_KEY
    bool isEmpty() const { return topic.isEmpty() && tag.isEmpty() && key.isEmpty(); }
};

class RecordTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        OffsetColumn,
        SizeColumn,
        TopicColumn,
        QueueColumn,
        QueueOffsetColumn,
        StoreTimeColumn,
        TagsColumn,
        KeysColumn,
        BodyColumn,
        StatusColumn,
        ColumnCount
    };
    static constexpr size_t kPageSize = 200;
    static constexpr int64_t kScanChunkBytes = 32 * 1024 * 1024;

    explicit RecordTableModel(std::shared_ptr<const store::StoreReader> reader, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    // Drops the rows and reads from `fromOffset` with `filter`.
    void restart(qint64 fromOffset, const RecordFilter &filter);
    // Drops the rows and the filter and shows the last page of messages (readRecordsBefore the
    // data end); rows a live broker appends follow through followEnd().
    void restartAtEnd();
    // Reads what a live broker appended after the last row (when the end was reached).
    void followEnd();
    void cancelScan();
    void resumeScan();
    // Bytes a filtered scan reads between progress reports (tests use small chunks).
    void setScanChunkBytes(qint64 bytes) { scanChunkBytes_ = bytes; }

    const store::CommitLogRecord *record(int row) const;
    int rowOfOffset(qint64 offset) const; // -1 when not loaded
    qint64 startOffset() const { return startOffset_; }
    qint64 nextOffset() const { return nextOffset_; }
    const RecordFilter &filter() const { return filter_; }
    bool isLoading() const;
    bool isAtEnd() const { return atEnd_; }
    bool isPaused() const { return paused_; }
    static QString statusText(const store::CommitLogRecord &record);

signals:
    void loadingChanged(bool loading);
    // A filtered scan's position: bytes scanned from the start offset and the bytes up to the end.
    void scanProgress(qint64 scanned, qint64 total);
    void pageLoaded();

private:
    struct Chunk
    {
        store::RecordPage page;
        qint64 dataEnd = 0;
    };
    void startChunk();
    void appendChunk(Chunk chunk);

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *scan_ = nullptr;
    std::vector<store::CommitLogRecord> records_;
    RecordFilter filter_;
    qint64 startOffset_ = 0;
    qint64 nextOffset_ = 0;
    size_t foundThisFetch_ = 0;
    qint64 scanChunkBytes_ = kScanChunkBytes;
    bool atEnd_ = false;
    bool paused_ = false;
};

} // namespace mqdesk::ui
