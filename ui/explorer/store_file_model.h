#pragma once

// StoreFileModel: the tree of a store's files — commitlog, consumequeue/<topic>/<queue>/files,
// index, timer (timerwheel, timerlog/), config, checkpoint / abort / lock and every other file
// (compaction, unknown), nothing hidden — with size, range (commit-log offsets; queue offsets for consume queues), fill
// (how much of the file holds data) and count (queue and index entries). buildStoreTree() reads
// the store (off the GUI thread); the model only shows the snapshot it is handed. Commit-log
// records are not counted: that would mean scanning the whole log.

#include "broker/store/reader/store_reader.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace mqdesk::ui {

struct StoreTreeNode
{
    enum class Type { Group, File, Queue };
    Type type = Type::Group;
    store::StoreFileKind kind = store::StoreFileKind::Other;
    QString name;
    QString relativePath; // files: as StoreReader names them; queues and groups: their folder
    qint64 size = -1;
    qint64 rangeStart = -1; // commit-log offsets; queue offsets for consume queues and their files
    qint64 rangeEnd = -1;
    double fill = -1;       // 0..1
    qint64 count = -1;
    QString topic;          // queues and their files
    int queueId = -1;
    qint64 startOffset = -1; // mapped files: the offset the name gives (bytes)

    StoreTreeNode *parent = nullptr;
    std::vector<std::unique_ptr<StoreTreeNode>> children;
    int row = 0;

    StoreTreeNode *add(std::unique_ptr<StoreTreeNode> child);
};

// Reads the file lists and summaries of `reader` (blocking: call it off the GUI thread).
std::shared_ptr<StoreTreeNode> buildStoreTree(const store::StoreReader &reader);

class StoreFileModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, SizeColumn, RangeColumn, FillColumn, CountColumn, ColumnCount };

    explicit StoreFileModel(QObject *parent = nullptr);
    ~StoreFileModel() override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // Shows `root`. When the tree has the same items as before (a live store's sizes and ranges
    // moved on), the values are updated in place and selections survive; otherwise it resets and
    // returns true.
    bool setTree(std::shared_ptr<StoreTreeNode> root);
    const StoreTreeNode *node(const QModelIndex &index) const;
    // The item of a file, queue or group by its relative path; invalid when there is none.
    QModelIndex indexOfPath(const QString &relativePath) const;
    QModelIndex indexOfQueue(const QString &topic, int queueId) const;

private:
    QModelIndex indexOfNode(const StoreTreeNode *node) const;

    std::shared_ptr<StoreTreeNode> root_;
};

} // namespace mqdesk::ui
