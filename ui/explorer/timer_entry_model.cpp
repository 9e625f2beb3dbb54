#include "ui/explorer/timer_entry_model.h"

#include "ui/explorer/background_scan.h"
#include "ui/explorer/explorer_view_util.h"

#include "broker/store/reader/store_timer_reader.h"

#include <QBrush>
#include <QLocale>

namespace mqdesk::ui {

struct TimerEntryModel::Page
{
    std::vector<Row> rows;
    qint64 next = 0;
    bool atEnd = true;
    QString error;
};

namespace {

QString number(qint64 value) { return QString::number(value); }

QString unitKindText(const store::TimerLogEntry &e)
{
    switch (e.kind) {
    case store::TimerLogEntryKind::Blank:
        return e.error.empty() ? TimerEntryModel::tr("end-of-file blank")
                               : TimerEntryModel::tr("end-of-file blank: %1").arg(qtText(e.error));
    case store::TimerLogEntryKind::Invalid: return TimerEntryModel::tr("invalid: %1").arg(qtText(e.error));
    case store::TimerLogEntryKind::Unit: break;
    }
    if (e.unit.deleteMarker())
        return TimerEntryModel::tr("delete marker");
    return e.unit.roll() ? TimerEntryModel::tr("unit (rolled)") : TimerEntryModel::tr("unit");
}

TimerEntryModel::Row logRow(const store::TimerLogEntry &e)
{
    TimerEntryModel::Row row;
    row.file = qtText(e.file);
    row.position = e.filePosition;
    row.length = e.length;
    row.invalid = e.kind == store::TimerLogEntryKind::Invalid || !e.error.empty();
    row.cells = {number(e.offset), row.file.section(QLatin1Char('/'), -1), number(e.filePosition), unitKindText(e)};
    if (e.kind == store::TimerLogEntryKind::Blank) {
        row.cells << number(e.length);
        return row;
    }
    const store::TimerLogUnit &u = e.unit;
    row.cells << number(u.size) << number(u.prevPos) << number(u.magic) << localTimeText(u.writeTimeMs)
              << number(u.delayMs) << localTimeText(u.targetMs()) << number(u.commitLogOffset)
              << number(u.commitLogSize) << number(u.realTopicHash);
    return row;
}

} // namespace

TimerEntryModel::TimerEntryModel(std::shared_ptr<const store::StoreReader> reader, QObject *parent)
    : QAbstractTableModel(parent), reader_(std::move(reader)), scan_(new BackgroundScan(this))
{
}

TimerEntryModel::Mode TimerEntryModel::modeOf(const QString &relativePath)
{
    if (relativePath == QLatin1String(store::kTimerWheelFile))
        return Mode::Wheel;
    if (relativePath.startsWith(QLatin1String(store::kTimerLogDir) + QLatin1Char('/')))
        return Mode::Log;
    if (relativePath == QLatin1String(store::kTimerCheckFile))
        return Mode::Checkpoint;
    if (relativePath == QLatin1String(store::kTimerMetricsFile))
        return Mode::Metrics;
    return Mode::None;
}

void TimerEntryModel::setFile(const QString &relativePath)
{
    scan_->cancel();
    beginResetModel();
    file_ = relativePath;
    mode_ = modeOf(relativePath);
    rows_.clear();
    error_.clear();
    fetching_ = false;
    wantedFile_.clear();
    wantedPosition_ = -1;
    atEnd_ = mode_ == Mode::None;
    next_ = 0;
    if (mode_ == Mode::Log)
        next_ = relativePath.section(QLatin1Char('/'), -1).toLongLong();
    switch (mode_) {
    case Mode::Wheel:
        headers_ = {tr("Slot"), tr("Position"), tr("Time (stored)"), tr("Time (× 1000 ms)"), tr("First pos"),
                    tr("Last pos"), tr("Messages"), tr("Magic"), tr("State")};
        break;
    case Mode::Log:
        headers_ = {tr("Offset"), tr("File"), tr("Position"), tr("Kind"), tr("Size"), tr("Prev pos"), tr("Magic"),
                    tr("Written at"), tr("Delay (ms)"), tr("Target time"), tr("Commit-log offset"), tr("Record size"),
                    tr("Topic hash")};
        break;
    case Mode::Checkpoint: headers_ = {tr("Field"), tr("Value"), tr("Local time"), tr("Position")}; break;
    case Mode::Metrics: headers_ = {tr("Topic"), tr("Parked"), tr("Changed at")}; break;
    case Mode::None: headers_.clear(); break;
    }
    endResetModel();
    if (mode_ != Mode::None)
        fetchPage(kPageSize);
}

void TimerEntryModel::fetchUntil(const QString &file, qint64 position)
{
    wantedFile_ = file;
    wantedPosition_ = position;
    if (fetching_)
        return;
    if (rowOf(file, position) >= 0 || atEnd_) {
        wantedPosition_ = -1;
        emit fetched();
    } else {
        fetchPage(kPageSize);
    }
}

int TimerEntryModel::rowOf(const QString &file, qint64 position) const
{
    for (size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].file == file && position >= rows_[i].position && position < rows_[i].position + qMax<qint64>(rows_[i].length, 1))
            return static_cast<int>(i);
    return -1;
}

int TimerEntryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TimerEntryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(headers_.size());
}

QVariant TimerEntryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Row &r = rows_[static_cast<size_t>(index.row())];
    if (role == Qt::ForegroundRole && r.invalid)
        return QBrush(Qt::red);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    return index.column() < r.cells.size() ? r.cells[index.column()] : QString();
}

QVariant TimerEntryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section >= headers_.size())
        return {};
    return headers_[section];
}

bool TimerEntryModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !fetching_ && !atEnd_;
}

void TimerEntryModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        fetchPage(kPageSize);
}

void TimerEntryModel::fetchPage(int count)
{
    fetching_ = true;
    const Mode mode = mode_;
    const qint64 from = next_;
    scan_->start([reader = reader_, mode, from, count](const store::ScanProgress &) {
        Page page;
        if (mode == Mode::Wheel) {
            const store::TimerWheelPage read = store::readTimerWheelSlots(*reader, static_cast<int32_t>(from), static_cast<size_t>(count));
            // Java keeps delivered slots in the wheel; timercheck's read time tells them apart.
            const auto checkpoint = store::readTimerCheckpointFile(*reader);
            for (const auto &s : read.occupied) {
                Row row;
                row.file = QLatin1String(store::kTimerWheelFile);
                row.position = s.filePosition;
                row.length = 32;
                row.invalid = s.time >= 0 && read.slotCount > 0 && s.time % read.slotCount != s.index;
                row.cells = {number(s.index), number(s.filePosition), number(s.time), localTimeText(s.timeMs),
                             number(s.firstPos), number(s.lastPos), number(s.num), number(s.magic),
                             !checkpoint ? QString()
                             : s.timeMs < checkpoint->lastReadTimeMs ? tr("delivered") : tr("waiting")};
                page.rows.push_back(std::move(row));
            }
            page.next = read.nextSlot;
            page.atEnd = read.atEnd;
            page.error = qtText(read.error);
        } else if (mode == Mode::Log) {
            store::TimerLogPage read = store::readTimerLogEntries(*reader, from, static_cast<size_t>(count));
            for (const auto &e : read.entries)
                page.rows.push_back(logRow(e));
            page.next = read.nextOffset;
            page.atEnd = read.atEnd;
            page.error = qtText(read.error);
        } else if (mode == Mode::Checkpoint) {
            std::string error;
            if (const auto c = store::readTimerCheckpointFile(*reader, &error)) {
                const QString file = QLatin1String(store::kTimerCheckFile);
                const auto add = [&](const char *field, qint64 value, qint64 position, bool time) {
                    page.rows.push_back({{QLatin1String(field), number(value), time ? localTimeText(value) : QString(), number(position)},
                                         file, position, 8, false});
                };
                add("lastReadTimeMs", c->lastReadTimeMs, 0, true);
                add("lastTimerLogFlushPos", c->lastTimerLogFlushPos, 8, false);
                add("lastTimerQueueOffset", c->lastTimerQueueOffset, 16, false);
                add("masterTimerQueueOffset", c->masterTimerQueueOffset, 24, false);
                add("dataVersion.stateVersion", c->stateVersion, 32, false);
                add("dataVersion.timestamp", c->versionTimestamp, 40, true);
                add("dataVersion.counter", c->versionCounter, 48, false);
            } else {
                page.error = qtText(error);
            }
        } else if (mode == Mode::Metrics) {
            const store::TimerMetricsRead read = store::readTimerMetricsFile(*reader);
            // JSON has no byte positions per entry: each row shows the whole file's bytes.
            const auto view = reader->view(store::kTimerMetricsFile);
            const qint64 size = view ? view->size() : 0;
            const QString file = QLatin1String(store::kTimerMetricsFile);
            for (const auto &e : read.entries)
                page.rows.push_back({{qtText(e.topic), number(e.count), localTimeText(e.timeStamp)}, file, 0, size, false});
            if (read.error.empty())
                page.rows.push_back({{QStringLiteral("dataVersion"), QStringLiteral("counter %1").arg(read.counter),
                                      localTimeText(read.timestamp)}, file, 0, size, false});
            page.error = qtText(read.error);
        }
        return page;
    }, [this](Page page) { append(std::move(page)); });
}

void TimerEntryModel::append(Page page)
{
    fetching_ = false;
    if (!page.rows.empty()) {
        beginInsertRows({}, rowCount(), rowCount() + static_cast<int>(page.rows.size()) - 1);
        rows_.insert(rows_.end(), std::make_move_iterator(page.rows.begin()), std::make_move_iterator(page.rows.end()));
        endInsertRows();
    }
    next_ = page.next;
    atEnd_ = page.atEnd || page.rows.empty();
    if (!page.error.isEmpty())
        error_ = page.error;
    if (wantedPosition_ >= 0 && !atEnd_ && rowOf(wantedFile_, wantedPosition_) < 0) {
        fetchPage(kPageSize);
        return;
    }
    wantedPosition_ = -1;
    emit fetched();
}

} // namespace mqdesk::ui
