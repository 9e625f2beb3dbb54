#pragma once

// Small pieces the store explorer's views share: their tables (sortable, Ctrl+C, Export CSV…),
// their inline banner, times and sizes as the views show them, and the StoreLocation of a
// commit-log offset.

#include "broker/store/reader/store_reader.h"
#include "ui/explorer/store_location.h"

#include <QString>

#include <functional>
#include <optional>
#include <string>

class QAbstractItemModel;
class QLabel;
class QStandardItem;
class QTableView;
class QWidget;

namespace mqdesk::ui {

inline QString qtText(const std::string &text) { return QString::fromStdString(text); }

// A store time (epoch milliseconds) as a local date-time with milliseconds, "—" for 0 (never set).
QString localTimeText(qint64 epochMillis);
// A byte count in the locale's format with its unit ("1.5 MiB", "512 bytes").
QString byteSizeText(qint64 bytes);

// A read-only table of whole rows: sortable, Ctrl+C copies the selected rows with their header,
// its context menu has "Export CSV…" (suggesting `csvName`), whose outcome goes to `report`.
QTableView *makeExplorerTable(QAbstractItemModel *model, const QString &csvName,
                              const std::function<void(const QString &)> &report, QWidget *parent);

// The inline banner above a view's content: word-wrapped, selectable, hidden while empty.
QLabel *makeBanner(QWidget *parent);
void showBanner(QLabel *banner, const QString &text, bool error);

// A cell that shows `value` and sorts as a number (QStandardItemModel sorts by the display role).
QStandardItem *numberItem(qint64 value);
QStandardItem *textItem(const QString &text);

// Where the commit-log record at `offset` lies: the file holding it (relative to the store root)
// and the position in it; nullopt when no commit-log file holds that offset.
std::optional<StoreLocation> commitLogLocation(const store::StoreReader &reader,
                                               const store::CommitLogSnapshot &log, qint64 offset);

} // namespace mqdesk::ui
