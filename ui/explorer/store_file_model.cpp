#include "ui/explorer/store_file_model.h"

#include "broker/store/reader/store_timer_reader.h"

#include <QLocale>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace mqdesk::ui {

namespace {

QString q(const std::string &text) { return QString::fromStdString(text); }

std::unique_ptr<StoreTreeNode> group(const QString &name, const QString &path, store::StoreFileKind kind)
{
    auto node = std::make_unique<StoreTreeNode>();
    node->name = name;
    node->relativePath = path;
    node->kind = kind;
    return node;
}

std::unique_ptr<StoreTreeNode> fileNode(const QString &relativePath, store::StoreFileKind kind, qint64 size)
{
    auto node = std::make_unique<StoreTreeNode>();
    node->type = StoreTreeNode::Type::File;
    node->kind = kind;
    node->relativePath = relativePath;
    node->name = relativePath.section(QLatin1Char('/'), -1);
    node->size = size;
    return node;
}

// Commit-log files: data before the file holding the end is whole files (each closed by its
// end-of-file record), the file holding the end is filled up to it, later ones are unused.
void addCommitLog(StoreTreeNode &root, const store::StoreReader &reader, std::set<QString> &placed)
{
    const store::MappedFamily family = reader.commitLogFiles();
    const qint64 dataEnd = reader.commitLogDataEnd();
    StoreTreeNode *log = root.add(group(QStringLiteral("commitlog"), QStringLiteral("commitlog"), store::StoreFileKind::CommitLog));
    qint64 total = 0;
    for (const auto &file : family.files) {
        const QString path = q(reader.relativePath(file.path));
        auto node = fileNode(path, store::StoreFileKind::CommitLog, file.size);
        node->startOffset = file.startOffset;
        node->rangeStart = file.startOffset;
        node->rangeEnd = std::clamp<int64_t>(file.startOffset, dataEnd, file.startOffset + file.size);
        node->fill = file.size > 0 ? double(node->rangeEnd - node->rangeStart) / double(file.size) : 0;
        total += file.size;
        placed.insert(path);
        log->add(std::move(node));
    }
    log->size = total;
    if (!family.files.empty()) {
        log->rangeStart = family.files.front().startOffset;
        log->rangeEnd = dataEnd;
    }
}

// The queue offsets a file's entries hold: by their place for a SimpleCQ file (entries are
// contiguous across a queue's files and end at maxOffset), from its first and last unit for a
// BatchCQ one (units hold batches; zeros end the data).
void setQueueFileRange(StoreTreeNode &node, const store::StoreReader &reader, const store::ConsumeQueueInfo &info,
                       const store::MappedFileInfo &file)
{
    qint64 dataBytes = 0;
    if (!info.batch) {
        constexpr qint64 entrySize = store::SimpleConsumeQueue::kEntrySize;
        dataBytes = std::clamp<int64_t>(0, info.maxOffset * entrySize - file.startOffset, file.size);
        node.rangeStart = file.startOffset / entrySize;
        node.rangeEnd = node.rangeStart + dataBytes / entrySize;
    } else if (const auto view = reader.view(reader.relativePath(file.path))) {
        constexpr qint64 unit = store::BatchConsumeQueue::kUnitSize;
        const auto bytes = view->bytes();
        qint64 units = static_cast<qint64>(bytes.size()) / unit;
        while (units > 0 && std::all_of(bytes.begin() + (units - 1) * unit, bytes.begin() + units * unit,
                                        [](uint8_t b) { return b == 0; }))
            --units; // written in order: the data ends before the trailing zeros
        dataBytes = units * unit;
        if (units > 0) {
            const auto last = store::BatchConsumeQueue::readUnit(bytes.data() + (units - 1) * unit);
            node.rangeStart = store::BatchConsumeQueue::readUnit(bytes.data()).queueOffset;
            node.rangeEnd = last.queueOffset + last.batchSize;
        }
    }
    node.count = std::max<qint64>(node.rangeEnd - node.rangeStart, 0);
    node.fill = file.size > 0 ? double(dataBytes) / double(file.size) : 0;
}

// consumequeue/ and, when the store has BatchCQ topics, batchconsumequeue/: topic, queue, files.
void addConsumeQueues(StoreTreeNode &root, const store::StoreReader &reader, std::set<QString> &placed)
{
    StoreTreeNode *groups[2] = {nullptr, nullptr};
    StoreTreeNode *topic = nullptr;
    const auto infos = reader.consumeQueues();
    for (const bool batch : {false, true}) {
        const QString folder = batch ? QStringLiteral("batchconsumequeue") : QStringLiteral("consumequeue");
        if (!batch || std::any_of(infos.begin(), infos.end(), [](const auto &info) { return info.batch; }))
            groups[batch] = root.add(group(folder, folder, store::StoreFileKind::ConsumeQueue));
        topic = nullptr;
        for (const auto &info : infos) {
            if (info.batch != batch)
                continue;
            if (!topic || topic->topic != q(info.topic)) {
                topic = groups[batch]->add(group(q(info.topic), folder + QLatin1Char('/') + q(info.topic),
                                                 store::StoreFileKind::ConsumeQueue));
                topic->topic = q(info.topic);
            }
            auto queue = group(QString::number(info.queueId),
                               topic->relativePath + QLatin1Char('/') + QString::number(info.queueId),
                               store::StoreFileKind::ConsumeQueue);
            queue->type = StoreTreeNode::Type::Queue;
            queue->topic = topic->topic;
            queue->queueId = info.queueId;
            queue->rangeStart = info.minOffset;
            queue->rangeEnd = info.maxOffset;
            queue->count = info.maxOffset - info.minOffset;
            qint64 size = 0;
            for (const auto &file : info.files) {
                const QString path = q(reader.relativePath(file.path));
                auto node = fileNode(path, store::StoreFileKind::ConsumeQueue, file.size);
                node->topic = queue->topic;
                node->queueId = info.queueId;
                node->startOffset = file.startOffset;
                setQueueFileRange(*node, reader, info, file);
                size += file.size;
                placed.insert(path);
                queue->add(std::move(node));
            }
            queue->size = size;
            topic->size = std::max<int64_t>(topic->size, 0) + size;
            topic->count = std::max<int64_t>(topic->count, 0) + queue->count;
            topic->add(std::move(queue));
        }
    }
}

void addIndexFiles(StoreTreeNode &root, const store::StoreReader &reader, std::set<QString> &placed)
{
    StoreTreeNode *index = root.add(group(QStringLiteral("index"), QStringLiteral("index"), store::StoreFileKind::Index));
    for (const auto &summary : reader.indexFiles()) {
        const QString path = q(reader.relativePath(summary.file.path));
        auto node = fileNode(path, store::StoreFileKind::Index, summary.file.size);
        // indexCount starts at 1 (entry 0 is never used); a file that never got an entry reads 0.
        node->count = qMax(summary.header.indexCount - 1, 0);
        node->rangeStart = summary.header.beginPhyOffset;
        node->rangeEnd = summary.header.endPhyOffset;
        if (summary.indexNum > 0)
            node->fill = double(node->count) / double(summary.indexNum);
        placed.insert(path);
        index->add(std::move(node));
    }
}

// RocketMQ 5's timer store: the wheel and the timer log's files (config/timercheck and
// config/timermetrics stay under config); each opens TimerFileView.
void addTimerFiles(StoreTreeNode &root, const store::StoreReader &reader, std::set<QString> &placed)
{
    const auto wheel = reader.view(store::kTimerWheelFile);
    const auto logFiles = store::timerLogFiles(reader);
    if (!wheel && logFiles.empty())
        return;
    StoreTreeNode *timer = root.add(group(QStringLiteral("timer"), QString(), store::StoreFileKind::Other));
    if (wheel) {
        timer->add(fileNode(QLatin1String(store::kTimerWheelFile), store::StoreFileKind::Other, wheel->size()));
        placed.insert(QLatin1String(store::kTimerWheelFile));
    }
    if (logFiles.empty())
        return;
    StoreTreeNode *log = timer->add(group(QStringLiteral("timerlog"), QLatin1String(store::kTimerLogDir), store::StoreFileKind::Other));
    qint64 total = 0;
    for (const auto &file : logFiles) {
        auto node = fileNode(q(file.relativePath), store::StoreFileKind::Other, file.size);
        node->startOffset = file.startOffset;
        total += file.size;
        placed.insert(node->relativePath);
        log->add(std::move(node));
    }
    log->size = total;
}

} // namespace

StoreTreeNode *StoreTreeNode::add(std::unique_ptr<StoreTreeNode> child)
{
    child->parent = this;
    child->row = static_cast<int>(children.size());
    children.push_back(std::move(child));
    return children.back().get();
}

std::shared_ptr<StoreTreeNode> buildStoreTree(const store::StoreReader &reader)
{
    auto root = std::make_shared<StoreTreeNode>();
    std::set<QString> placed;
    addCommitLog(*root, reader, placed);
    addConsumeQueues(*root, reader, placed);
    addIndexFiles(*root, reader, placed);
    addTimerFiles(*root, reader, placed);
    StoreTreeNode *config = root->add(group(QStringLiteral("config"), QStringLiteral("config"), store::StoreFileKind::Config));
    std::vector<std::unique_ptr<StoreTreeNode>> topLevel;
    auto others = group(StoreFileModel::tr("other files"), QString(), store::StoreFileKind::Other);
    for (const auto &file : reader.listFiles()) {
        const QString path = q(file.relativePath);
        if (placed.count(path))
            continue;
        auto node = fileNode(path, file.kind, file.size);
        switch (file.kind) {
        case store::StoreFileKind::Config: config->add(std::move(node)); break;
        case store::StoreFileKind::Checkpoint:
        case store::StoreFileKind::Abort:
        case store::StoreFileKind::Lock: topLevel.push_back(std::move(node)); break;
        default:
            // Timer, compaction, unknown files and strays in the families' folders: shown by path.
            node->name = path;
            others->add(std::move(node));
            break;
        }
    }
    for (auto &node : topLevel)
        root->add(std::move(node));
    if (!others->children.empty())
        root->add(std::move(others));
    for (const auto &child : root->children)
        if (child->type == StoreTreeNode::Type::Group && child->size < 0 && !child->children.empty()) {
            qint64 size = 0;
            for (const auto &file : child->children)
                size += std::max<int64_t>(file->size, 0);
            child->size = size;
        }
    return root;
}

StoreFileModel::StoreFileModel(QObject *parent) : QAbstractItemModel(parent), root_(std::make_shared<StoreTreeNode>()) {}

StoreFileModel::~StoreFileModel() = default;

const StoreTreeNode *StoreFileModel::node(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<const StoreTreeNode *>(index.internalPointer()) : root_.get();
}

QModelIndex StoreFileModel::index(int row, int column, const QModelIndex &parent) const
{
    const StoreTreeNode *parentNode = node(parent);
    if (row < 0 || column < 0 || column >= ColumnCount || row >= static_cast<int>(parentNode->children.size()))
        return {};
    return createIndex(row, column, parentNode->children[static_cast<size_t>(row)].get());
}

QModelIndex StoreFileModel::parent(const QModelIndex &child) const
{
    const StoreTreeNode *childNode = child.isValid() ? node(child) : nullptr;
    if (!childNode || !childNode->parent || childNode->parent == root_.get())
        return {};
    return createIndex(childNode->parent->row, 0, childNode->parent);
}

int StoreFileModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    return static_cast<int>(node(parent)->children.size());
}

int StoreFileModel::columnCount(const QModelIndex &) const { return ColumnCount; }

QVariant StoreFileModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const StoreTreeNode &n = *node(index);
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return n.relativePath;
    if (role != Qt::DisplayRole)
        return {};
    const QLocale locale;
    switch (index.column()) {
    case NameColumn: return n.name;
    case SizeColumn: return n.size >= 0 ? locale.formattedDataSize(n.size, 1, QLocale::DataSizeTraditionalFormat) : QString();
    case RangeColumn:
        return n.rangeStart >= 0 ? QStringLiteral("%1 – %2").arg(locale.toString(n.rangeStart), locale.toString(n.rangeEnd)) : QString();
    case FillColumn: return n.fill >= 0 ? locale.toString(n.fill * 100, 'f', 1) + QLatin1Char('%') : QString();
    case CountColumn: return n.count >= 0 ? locale.toString(n.count) : QString();
    default: return {};
    }
}

QVariant StoreFileModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case SizeColumn: return tr("Size");
    case RangeColumn: return tr("Range");
    case FillColumn: return tr("Fill");
    case CountColumn: return tr("Count");
    default: return {};
    }
}

namespace {
bool sameShape(const StoreTreeNode &a, const StoreTreeNode &b)
{
    if (a.relativePath != b.relativePath || a.name != b.name || a.children.size() != b.children.size())
        return false;
    for (size_t i = 0; i < a.children.size(); ++i)
        if (!sameShape(*a.children[i], *b.children[i]))
            return false;
    return true;
}
} // namespace

bool StoreFileModel::setTree(std::shared_ptr<StoreTreeNode> root)
{
    if (!sameShape(*root_, *root)) {
        beginResetModel();
        root_ = std::move(root);
        endResetModel();
        return true;
    }
    // Same items: copy the values over so the indexes (and the selection) stay valid.
    const std::function<void(StoreTreeNode &, StoreTreeNode &)> update = [&](StoreTreeNode &old, StoreTreeNode &fresh) {
        for (size_t i = 0; i < old.children.size(); ++i) {
            StoreTreeNode &to = *old.children[i];
            const StoreTreeNode &from = *fresh.children[i];
            to.size = from.size;
            to.rangeStart = from.rangeStart;
            to.rangeEnd = from.rangeEnd;
            to.fill = from.fill;
            to.count = from.count;
            update(to, *fresh.children[i]);
        }
        if (!old.children.empty()) {
            const QModelIndex parent = indexOfNode(&old);
            emit dataChanged(index(0, SizeColumn, parent), index(static_cast<int>(old.children.size()) - 1, CountColumn, parent));
        }
    };
    update(*root_, *root);
    return false;
}

QModelIndex StoreFileModel::indexOfNode(const StoreTreeNode *n) const
{
    return !n || n == root_.get() ? QModelIndex() : createIndex(n->row, 0, const_cast<StoreTreeNode *>(n));
}

QModelIndex StoreFileModel::indexOfPath(const QString &relativePath) const
{
    const std::function<const StoreTreeNode *(const StoreTreeNode &)> find = [&](const StoreTreeNode &n) -> const StoreTreeNode * {
        for (const auto &child : n.children) {
            if (child->relativePath == relativePath)
                return child.get();
            if (const StoreTreeNode *found = find(*child))
                return found;
        }
        return nullptr;
    };
    return indexOfNode(find(*root_));
}

QModelIndex StoreFileModel::indexOfQueue(const QString &topic, int queueId) const
{
    const QModelIndex simple = indexOfPath(QStringLiteral("consumequeue/%1/%2").arg(topic).arg(queueId));
    return simple.isValid() ? simple : indexOfPath(QStringLiteral("batchconsumequeue/%1/%2").arg(topic).arg(queueId));
}

} // namespace mqdesk::ui
