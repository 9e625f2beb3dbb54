#pragma once

// CommitLogView: the explorer's commit-log page — the record table (RecordTableModel, lazy),
// jumps to an offset or a store time, the topic / tag / key filter with its progress and Cancel,
// and the selected record's fields and bytes (RecordView) beside it.

#include "ui/explorer/record_table_model.h"

#include <QDateTime>
#include <QWidget>

class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace mqdesk::ui {

class BackgroundScan;
class RecordView;

class CommitLogView : public QWidget
{
    Q_OBJECT

public:
    explicit CommitLogView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent = nullptr);

    // Reads from the first record on (the first time the page is shown).
    void showFromStart();
    // Shows the records from `offset` on (those matching the filter, when one is set) and selects
    // the record starting there.
    void jumpToOffset(qint64 offset);
    // Shows the record at `offset`, which another page pointed at (a consume-queue, index or
    // timer entry): the filter is cleared, as the record may not match it.
    void showRecordAt(qint64 offset);
    // Finds the first record stored at or after `time` (off the GUI thread) and jumps to it.
    void jumpToTime(const QDateTime &time);
    // Shows the last page of messages and selects the newest.
    void jumpToEnd();
    void applyFilter(const RecordFilter &filter);
    void refresh();   // F5: read again from the same start
    void followEnd(); // a live store: rows appended after the last one
    void focusFilter(); // Ctrl+F

    RecordTableModel *model() const { return model_; }
    QTableView *table() const { return table_; }
    RecordView *recordView() const { return recordView_; }
    QProgressBar *progressBar() const { return progress_; }
    QPushButton *cancelButton() const { return cancel_; }
    QLineEdit *offsetEdit() const { return offsetEdit_; }
    QString statusText() const;

signals:
    void message(const QString &text); // outcomes for the window's status bar

private:
    QWidget *buildToolbar();
    void onCurrentRowChanged();
    void onPageLoaded();
    void onScanProgress(qint64 scanned, qint64 total);
    void updateStatus();
    RecordFilter filterFromEdits() const;

    std::shared_ptr<const store::StoreReader> reader_;
    RecordTableModel *model_ = nullptr;
    BackgroundScan *timeLookup_ = nullptr;
    QTableView *table_ = nullptr;
    RecordView *recordView_ = nullptr;
    QLineEdit *offsetEdit_ = nullptr;
    QDateTimeEdit *timeEdit_ = nullptr;
    QLineEdit *topicEdit_ = nullptr;
    QLineEdit *tagEdit_ = nullptr;
    QLineEdit *keyEdit_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QPushButton *cancel_ = nullptr;
    QPushButton *resume_ = nullptr;
    QLabel *status_ = nullptr;
    qint64 selectOffset_ = -1; // a jump's target, selected once its page is loaded
    bool selectLast_ = false;  // jumpToEnd: the newest row, once loaded
    bool started_ = false;
};

} // namespace mqdesk::ui
