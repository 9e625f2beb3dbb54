#pragma once

// IndexFileView: the store's index files (store-format §6). For the selected file: its header
// (begin/end store times as local date-times and raw milliseconds, begin/end commit-log offsets,
// hash slot and index counts, the slot and entry capacity inferred from its size, a layout error
// if any); a chart of slot occupancy; its entries, read lazily; and a key lookup (topic + key)
// that shows the chain RocketMQ's lookup walks in every index file, step by step, and why it
// stopped. Double-click on an entry or a step asks the explorer to show the commit-log record it
// points at. Everything is read off the GUI thread; reload() reads the list again.

#include "broker/store/reader/store_reader.h"
#include "ui/explorer/store_location.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QStandardItemModel;
class QTabWidget;
class QTableView;

namespace mqdesk::ui {

class BackgroundScan;
class IndexEntryModel;
class IndexOccupancyChart;

class IndexFileView : public QWidget
{
    Q_OBJECT

public:
    enum FileColumn { NameColumn, SizeColumn, EntriesColumn, BeginColumn, EndColumn };
    enum ChainColumn {
        ChainFileColumn, StepColumn, ChainEntryColumn, ChainPositionColumn, ChainHashColumn, ChainPhyOffsetColumn,
        ChainTimeColumn, ChainPrevColumn, HashMatchColumn, HasKeyColumn, NoteColumn
    };
    enum Tab { OccupancyTab, EntriesTab, LookupTab };
    static constexpr int kPhyOffsetRole = Qt::UserRole + 1; // chain rows: the step's offset, -1 otherwise

    explicit IndexFileView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent = nullptr);

    void reload();
    // Selects the index file `location` names ("index/<name>"); an offset in its entry area selects
    // that entry (once read). False when no such file is listed.
    bool showLocation(const StoreLocation &location);
    bool selectFile(const QString &name);
    // Runs the key lookup as if typed and clicked.
    void lookUp(const QString &topic, const QString &key);

    bool isLoading() const;
    QString selectedFile() const;
    QString headerText() const; // the header panel as "label: value" lines
    QString bannerText() const;
    QString lookupSummary() const;
    QStandardItemModel *fileModel() const { return files_; }
    QTableView *fileTable() const { return fileTable_; }
    IndexEntryModel *entryModel() const { return entries_; }
    QTableView *entryTable() const { return entryTable_; }
    QStandardItemModel *chainModel() const { return chain_; }
    QTableView *chainTable() const { return chainTable_; }
    IndexOccupancyChart *occupancyChart() const { return chart_; }
    QTabWidget *tabs() const { return tabs_; }

signals:
    void locationRequested(const mqdesk::ui::StoreLocation &location);
    void loaded();             // the file list is shown
    void occupancyShown();     // the selected file's chart is drawn
    void lookupFinished();     // a key lookup's chain is shown

private:
    QWidget *buildHeaderPanel();
    QWidget *buildLookupPanel();
    void showFiles(std::vector<store::IndexFileSummary> files);
    void showFile(int row);
    void showHeader(const store::IndexFileSummary *summary);
    void showLookup(const std::vector<store::IndexKeyLookup> &lookups);
    void requestRecord(qint64 phyOffset);

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *listScan_ = nullptr;
    BackgroundScan *chartScan_ = nullptr;
    BackgroundScan *lookupScan_ = nullptr;
    BackgroundScan *locateScan_ = nullptr;
    std::vector<store::IndexFileSummary> summaries_;
    QLabel *banner_ = nullptr;
    QStandardItemModel *files_ = nullptr;
    QTableView *fileTable_ = nullptr;
    std::vector<std::pair<QString, QLabel *>> headerFields_;
    QTabWidget *tabs_ = nullptr;
    IndexOccupancyChart *chart_ = nullptr;
    QLabel *chartNote_ = nullptr;
    IndexEntryModel *entries_ = nullptr;
    QTableView *entryTable_ = nullptr;
    QLineEdit *topicEdit_ = nullptr;
    QLineEdit *keyEdit_ = nullptr;
    QPushButton *lookupButton_ = nullptr;
    QLabel *lookupSummary_ = nullptr;
    QStandardItemModel *chain_ = nullptr;
    QTableView *chainTable_ = nullptr;
};

} // namespace mqdesk::ui
