#pragma once

// ConfigFilesView: every file of <root>/config (.bak files too), each as a table — topics,
// subscription groups, consumer offsets with each queue's max offset and the lag, delay offsets,
// broker.properties — or as a JSON tree, and as raw text with a syntax error's position
// highlighted and its message shown. A file that does not parse is listed and shown as text; it
// never breaks the view. Files and queues are read off the GUI thread; reload() reads again.

#include "broker/store/reader/store_reader.h"
#include "ui/explorer/config_tables.h"
#include "ui/explorer/store_location.h"

#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QStackedWidget;
class QStandardItemModel;
class QTabWidget;
class QTableView;
class QTreeView;

namespace mqdesk::ui {

class BackgroundScan;

class ConfigFilesView : public QWidget
{
    Q_OBJECT

public:
    enum FileColumn { NameColumn, SizeColumn, StatusColumn };
    enum Tab { TableTab, RawTab };

    explicit ConfigFilesView(std::shared_ptr<const store::StoreReader> reader, QWidget *parent = nullptr);

    void reload();
    // Selects the config file `location` names ("config/<name>"); a non-zero offset (a syntax error)
    // shows the raw text with the cursor there. False when no such file is listed.
    bool showLocation(const StoreLocation &location);
    // Selects the file called `name`; false when it is not listed.
    bool selectFile(const QString &name);

    bool isLoading() const;
    QString selectedFile() const;
    QStandardItemModel *fileModel() const { return files_; }
    QTableView *fileTable() const { return fileTable_; }
    // The selected file's table or tree model; nullptr when it has none.
    QStandardItemModel *contentModel() const { return content_; }
    QTableView *contentTable() const { return contentTable_; }
    QTreeView *contentTree() const { return contentTree_; }
    QTabWidget *tabs() const { return tabs_; }
    QPlainTextEdit *rawText() const { return raw_; }
    QString rawErrorText() const;
    QString noteText() const;
    QString bannerText() const;

signals:
    void locationRequested(const mqdesk::ui::StoreLocation &location);
    void loaded();

private:
    struct Snapshot
    {
        std::vector<store::ConfigFileContent> files;
        std::map<std::string, QueueMaxOffsets> maxOffsets; // by file name: consumer-offset files
    };

    QWidget *buildDetail();
    void showSnapshot(Snapshot snapshot);
    void showFile(int row);
    void showRawText(const store::ConfigFileContent &file);
    void moveRawCursorToByte(qint64 byteOffset);

    std::shared_ptr<const store::StoreReader> reader_;
    BackgroundScan *scan_ = nullptr;
    Snapshot snapshot_;
    QLabel *banner_ = nullptr;
    QStandardItemModel *files_ = nullptr;
    QTableView *fileTable_ = nullptr;
    QLabel *note_ = nullptr;
    QTabWidget *tabs_ = nullptr;
    QStackedWidget *contentStack_ = nullptr;
    QStandardItemModel *content_ = nullptr;
    QTableView *contentTable_ = nullptr;
    QTreeView *contentTree_ = nullptr;
    QLabel *noContent_ = nullptr;
    QLabel *rawError_ = nullptr;
    QPlainTextEdit *raw_ = nullptr;
};

} // namespace mqdesk::ui
