#pragma once

// ConsumeQueueModel: one consume queue's 20-byte entries from a queue offset on, read lazily
// through StoreReader::readConsumeQueue off the GUI thread, 200 a page.

#include "broker/store/reader/store_reader.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace mqdesk::ui {

class BackgroundScan;

class ConsumeQueueModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        QueueOffsetColumn,
        CommitLogOffsetColumn,
        SizeColumn,
        TagsCodeColumn,
        ValidColumn,
        FileColumn,
        PositionColumn,
        MessagesColumn, // 1, or a BatchCQ unit's batch size
        ColumnCount
    };
    static constexpr size_t kPageSize = 200;

    explicit ConsumeQueueModel(std::shared_ptr<const store::StoreReader> reader, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    // Shows `topic`/`queueId` from `fromQueueOffset` on.
    void showQueue(const QString &topic, int queueId, qint64 fromQueueOffset);
    void followEnd(); // a live broker's new entries after the last row
    const store::ConsumeQueueRead *entry(int row) const;
    // The row of the entry holding `queueOffset` (a BatchCQ unit holds several); -1 when not loaded.
    int rowOfQueueOffset(qint64 queueOffset) const;
    QString topic() const { return topic_; }
    int queueId() const { return queueId_; }
    bool isLoading() const;
    // Why an entry is not valid ("" when it is): RocketMQ's recovery rule, §5.3.
    static QString validityText(const store::ConsumeQueueRead &entry);

signals:
    void pageLoaded();

private:
    void appendPage(store::ConsumeQueuePage page);

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *scan_ = nullptr;
    std::vector<store::ConsumeQueueRead> entries_;
    QString topic_;
    int queueId_ = -1;
    qint64 nextQueueOffset_ = 0;
    bool atEnd_ = true;
};

} // namespace mqdesk::ui
