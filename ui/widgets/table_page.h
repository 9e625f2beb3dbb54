#pragma once

// TablePage: the frame every list of the console is built in (Topics, Consumer groups,
// Messages, the Overview's brokers). From top to bottom:
//
//   toolbar   [find field (Ctrl+F)] [the page's own controls …] [Refresh (F5)]
//   …         more toolbar rows (addToolbarRow)
//   banner    what the page's last action did, or why it failed (ui/widgets/banner.h)
//   …         rows the page adds (addBelowBanner: a confirmation bar, a status line)
//   table     or, in its place, the empty state: a sentence saying why there are no rows and
//             what to do (setEmptyText, decided by the page, which knows loading and errors)
//   …         rows under the table (addBelowTable) and a detail pane in a splitter (setDetail)
//
// The table copies its selected rows with Ctrl+C or its context menu (tab-separated, header
// first) and exports every row as CSV from the context menu (ui/widgets/table_text.h). F5 and
// Ctrl+F are window shortcuts while the page is shown (a hidden page's shortcuts are off).
// With startLiveRefresh the page asks for a quiet refresh (liveRefreshDue) every interval while
// it is visible and its window not minimised, and when it is shown again; the page skips it
// while a fetch of its own is under way. GUI thread only.

#include <QWidget>

class QAbstractItemModel;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTimer;
class QVBoxLayout;

namespace mqdesk::ui {

class Banner;

// How every list table of the console looks and behaves: sortable, whole rows selected, not
// editable, alternating rows, one line per row, no row numbers. TablePage's table has it; so
// have the tables that are not a page of their own (a detail pane's, the explorer's).
void configureListTable(QTableView *table);

class TablePage : public QWidget
{
    Q_OBJECT

public:
    struct Options
    {
        QString findPlaceholder;  // the find field's hint; empty: no find field
        QString refreshToolTip;   // "Fetch the topics again (F5)"
        QString csvFileName;      // suggested by Export CSV…
        QString objectNamePrefix; // "topics": topicsTable, topicsBanner, topicsEmptyState, …
    };

    TablePage(const Options &options, QWidget *parent = nullptr);

    // The table shows `model` (usually a sort/filter proxy); sorting is on, rows are selected whole.
    void setModel(QAbstractItemModel *model);
    QTableView *table() const { return table_; }
    QLineEdit *findField() const { return find_; }
    // Ctrl+F focuses `field` instead of the find field (a page whose search is a lookup).
    void setFindTarget(QLineEdit *field) { findTarget_ = field; }
    QPushButton *refreshButton() const { return refreshButton_; }
    Banner *banner() const { return banner_; }

    // Adds a control to the toolbar, before Refresh, in call order.
    void addToolbarWidget(QWidget *widget, int stretch = 0);
    // A second toolbar row under the first (above the banner).
    void addToolbarRow(QWidget *row);
    void addBelowBanner(QWidget *widget);
    void addBelowTable(QWidget *widget);
    void addBelowTable(QHBoxLayout *layout);
    // Puts `detail` under the table in a vertical splitter, with `tableShare` : `detailShare` of
    // the height.
    void setDetail(QWidget *detail, int tableShare, int detailShare);
    QSplitter *splitter() const { return splitter_; }

    // Shows `text` in place of the table; an empty text shows the table.
    void setEmptyText(const QString &text);
    // The empty state shown now, "" while the table is shown.
    QString emptyText() const;

    // The selected rows as tab-separated text with the column titles first (what Ctrl+C copies).
    QString selectedRowsText() const;
    void copySelectedRows() const;

    void startLiveRefresh(int intervalMillis);

signals:
    // F5 or the Refresh button.
    void refreshRequested();
    // The live interval passed (or the page was shown) while the page is on screen.
    void liveRefreshDue();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void addShortcuts(const Options &options);
    bool isOnScreen() const;

    QHBoxLayout *toolbar_ = nullptr;
    QVBoxLayout *layout_ = nullptr;
    QVBoxLayout *tableLayout_ = nullptr;
    QLineEdit *find_ = nullptr;
    QLineEdit *findTarget_ = nullptr;
    QPushButton *refreshButton_ = nullptr;
    Banner *banner_ = nullptr;
    QWidget *tableArea_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    QTableView *table_ = nullptr;
    QLabel *emptyState_ = nullptr;
    QSplitter *splitter_ = nullptr;
    QTimer *liveTimer_ = nullptr;
    int belowBannerIndex_ = 0;
};

} // namespace mqdesk::ui
