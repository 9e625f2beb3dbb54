#pragma once

// MessageTableModel: the messages a browse or a lookup returned, one row each (queue, queue
// offset, store time, tags, keys, offset msgId, size, reconsume times). A thin model: it only
// holds what the view hands it. Browsing is lazy: while more may follow, canFetchMore() is
// true and fetchMore() asks the view (fetchRequested) for the next page, which the view
// appends when its pull returns. Sorting reorders the rows loaded so far.

#include "broker/common/message.h"

#include <QAbstractTableModel>

#include <vector>

namespace mqdesk::ui {

class MessageTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        QueueColumn,
        QueueOffsetColumn,
        StoreTimeColumn,
        TagsColumn,
        KeysColumn,
        MsgIdColumn,
        SizeColumn,
        ReconsumeColumn,
        ColumnCount
    };

    explicit MessageTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    void sort(int column, Qt::SortOrder order) override;

    // Replaces the rows; `more` says whether a further page may follow.
    void setMessages(std::vector<common::StoredMessage> messages, bool more);
    // Appends a page; ends the fetch fetchRequested started.
    void appendMessages(std::vector<common::StoredMessage> messages, bool more);
    void clear();
    // A fetch failed or was abandoned: another may be asked for later.
    void setFetching(bool fetching) { fetching_ = fetching; }
    bool isFetching() const { return fetching_; }
    bool hasMore() const { return more_; }

    const common::StoredMessage *message(int row) const;
    // The offset message id (store host ‖ commit-log offset) of a message.
    static QString offsetMsgId(const common::StoredMessage &message);
    static QString keysText(const common::StoredMessage &message);

signals:
    // The view should read the next page and appendMessages() it.
    void fetchRequested();

private:
    void applySort();

    std::vector<common::StoredMessage> messages_;
    bool more_ = false;
    bool fetching_ = false;
    int sortColumn_ = -1;
    Qt::SortOrder sortOrder_ = Qt::AscendingOrder;
};

} // namespace mqdesk::ui
