#pragma once

// TimerEntryModel: the decoded entries of one timer file (store_timer_reader.h) as table rows —
// the timerwheel's non-empty slots and the timer log's units (with its end-of-file blank and
// invalid bytes), both read lazily in pages of kPageSize off the GUI thread (fetchMore returns at
// once; the rows arrive when read), or config/timercheck's fields and config/timermetrics'
// topics (read at once). Each row knows the bytes it was decoded from (file, position, length)
// for the hex view and the health findings.

#include "broker/store/reader/store_reader.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <memory>
#include <vector>

namespace mqdesk::ui {

class BackgroundScan;

class TimerEntryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int kPageSize = 500;
    enum class Mode { None, Wheel, Log, Checkpoint, Metrics };

    struct Row
    {
        QStringList cells;
        QString file;         // relative path of the bytes
        qint64 position = 0;  // in that file
        qint64 length = 0;
        bool invalid = false; // damaged bytes (shown in red)
    };

    explicit TimerEntryModel(std::shared_ptr<const store::StoreReader> reader, QObject *parent = nullptr);

    // The mode a store file is shown in (None: not a timer file).
    static Mode modeOf(const QString &relativePath);
    // Shows the entries of `relativePath` (a timer-log file shows the whole timer log, its
    // rows from that file's first unit on); the first page is read at once.
    void setFile(const QString &relativePath);
    // Reads on until a row covering `file` + `position` is loaded (or the data ends); fetched() follows.
    void fetchUntil(const QString &file, qint64 position);
    int rowOf(const QString &file, qint64 position) const; // -1 when not loaded
    const Row &row(int index) const { return rows_[static_cast<size_t>(index)]; }
    Mode mode() const { return mode_; }
    QString file() const { return file_; }
    QString error() const { return error_; } // the file's reading error, if any
    bool isFetching() const { return fetching_; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

signals:
    void fetched(); // a page arrived (or the file was read)

private:
    struct Page;
    void fetchPage(int count);
    void append(Page page);

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *scan_ = nullptr;
    Mode mode_ = Mode::None;
    QString file_;
    QStringList headers_;
    std::vector<Row> rows_;
    qint64 next_ = 0; // next slot index or timer-log offset
    bool atEnd_ = true;
    bool fetching_ = false;
    QString error_;
    QString wantedFile_;
    qint64 wantedPosition_ = -1;
};

} // namespace mqdesk::ui
