#include "ui/messages/message_table_model.h"

#include "broker/common/message_id.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>
#include <numeric>

namespace mqdesk::ui {

namespace {

QString storeTimeText(int64_t millis)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(millis), QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

// The natural order: queue, then offset.
bool naturalLess(const common::StoredMessage &a, const common::StoredMessage &b)
{
    return std::tie(a.queueId, a.queueOffset) < std::tie(b.queueId, b.queueOffset);
}

} // namespace

MessageTableModel::MessageTableModel(QObject *parent) : QAbstractTableModel(parent) {}

int MessageTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(messages_.size());
}

int MessageTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MessageTableModel::data(const QModelIndex &index, int role) const
{
    const common::StoredMessage *m = message(index.row());
    if (!m)
        return {};
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case QueueColumn:
        case QueueOffsetColumn:
        case SizeColumn:
        case ReconsumeColumn:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case QueueColumn:
        return m->queueId;
    case QueueOffsetColumn:
        return QVariant::fromValue<qint64>(m->queueOffset);
    case StoreTimeColumn:
        return storeTimeText(m->storeTimestamp);
    case TagsColumn:
        return QString::fromStdString(m->tags());
    case KeysColumn:
        return keysText(*m);
    case MsgIdColumn:
        return offsetMsgId(*m);
    case SizeColumn:
        return role == Qt::ToolTipRole ? tr("%1 bytes in the log, body %2 bytes")
                                             .arg(QLocale().toString(m->totalSize),
                                                  QLocale().toString(static_cast<qint64>(m->body.size())))
                                       : QVariant(QLocale().toString(static_cast<qint64>(m->body.size())));
    case ReconsumeColumn:
        return m->reconsumeTimes;
    default:
        return {};
    }
}

QVariant MessageTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case QueueColumn:
        return tr("Queue");
    case QueueOffsetColumn:
        return tr("Queue offset");
    case StoreTimeColumn:
        return tr("Store time");
    case TagsColumn:
        return tr("Tags");
    case KeysColumn:
        return tr("Keys");
    case MsgIdColumn:
        return tr("Message ID (offset)");
    case SizeColumn:
        return tr("Body size");
    case ReconsumeColumn:
        return tr("Reconsumed");
    default:
        return {};
    }
}

bool MessageTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && more_ && !fetching_;
}

void MessageTableModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    fetching_ = true;
    emit fetchRequested();
}

void MessageTableModel::sort(int column, Qt::SortOrder order)
{
    sortColumn_ = column;
    sortOrder_ = order;
    applySort();
}

void MessageTableModel::applySort()
{
    if (sortColumn_ < 0 || messages_.size() < 2)
        return;
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<int> order(messages_.size());
    std::iota(order.begin(), order.end(), 0);
    const auto key = [this](const common::StoredMessage &m) -> QVariant {
        switch (sortColumn_) {
        case StoreTimeColumn:
            return QVariant::fromValue<qint64>(m.storeTimestamp);
        case TagsColumn:
            return QString::fromStdString(m.tags());
        case KeysColumn:
            return keysText(m);
        case MsgIdColumn:
            return QVariant::fromValue<qint64>(m.physicalOffset);
        case SizeColumn:
            return QVariant::fromValue<qint64>(static_cast<qint64>(m.body.size()));
        case ReconsumeColumn:
            return m.reconsumeTimes;
        default:
            return {};
        }
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const common::StoredMessage &x = messages_[a];
        const common::StoredMessage &y = messages_[b];
        const QPartialOrdering c = QVariant::compare(key(x), key(y));
        const bool tie = c != QPartialOrdering::Less && c != QPartialOrdering::Greater;
        const bool less = tie ? naturalLess(x, y) : c == QPartialOrdering::Less;
        const bool greater = tie ? naturalLess(y, x) : c == QPartialOrdering::Greater;
        return sortOrder_ == Qt::AscendingOrder ? less : greater;
    });
    std::vector<int> newRowOf(messages_.size());
    std::vector<common::StoredMessage> sorted;
    sorted.reserve(messages_.size());
    for (size_t i = 0; i < order.size(); ++i) {
        newRowOf[order[i]] = static_cast<int>(i);
        sorted.push_back(std::move(messages_[order[i]]));
    }
    messages_ = std::move(sorted);
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    for (const QModelIndex &index : before)
        after << this->index(newRowOf[index.row()], index.column());
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void MessageTableModel::setMessages(std::vector<common::StoredMessage> messages, bool more)
{
    beginResetModel();
    messages_ = std::move(messages);
    more_ = more;
    fetching_ = false;
    endResetModel();
    applySort();
}

void MessageTableModel::appendMessages(std::vector<common::StoredMessage> messages, bool more)
{
    fetching_ = false;
    more_ = more;
    if (messages.empty())
        return;
    const int first = rowCount();
    beginInsertRows({}, first, first + static_cast<int>(messages.size()) - 1);
    for (common::StoredMessage &m : messages)
        messages_.push_back(std::move(m));
    endInsertRows();
    applySort();
}

void MessageTableModel::clear()
{
    setMessages({}, false);
}

const common::StoredMessage *MessageTableModel::message(int row) const
{
    return row >= 0 && row < rowCount() ? &messages_[static_cast<size_t>(row)] : nullptr;
}

QString MessageTableModel::offsetMsgId(const common::StoredMessage &message)
{
    return QString::fromStdString(common::createOffsetMessageId(message.storeHost, message.physicalOffset));
}

QString MessageTableModel::keysText(const common::StoredMessage &message)
{
    QStringList keys;
    for (std::string_view key : message.properties.keys())
        keys << QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
    return keys.join(QLatin1Char(' '));
}

} // namespace mqdesk::ui
