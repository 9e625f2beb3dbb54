#pragma once

// Tables as text: the selected rows as tab-separated text (Ctrl+C in every view) and a whole
// table as CSV ("Export CSV…" in every table's context menu). Both read through the view's own
// model, so sorting and filtering are respected and what is written is what the user sees.

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <functional>

class QAbstractItemModel;
class QAction;
class QTableView;
class QWidget;

namespace mqdesk::ui {

// One RFC 4180 CSV record in UTF-8, ending with CRLF: a field holding a comma, a quote or a line
// break is quoted, quotes doubled.
QByteArray csvRecord(const QStringList &fields);

// With `withHeader`, the column titles come first; every line ends with '\n' then.
QString selectedRowsText(const QTableView &table, bool withHeader);

// Every row `model` holds now (a lazily paged model: the rows fetched so far), header first, as
// RFC 4180 CSV in UTF-8: fields holding a comma, a quote or a line break are quoted, quotes
// doubled, lines end with CRLF. Display text, as shown. False with `error` set when the file
// cannot be written.
bool writeTableCsv(const QAbstractItemModel &model, const QString &path, QString *error = nullptr);

// Adds "Export CSV…" to `table`'s context menu (sets Qt::ActionsContextMenu: the table's actions
// are its context menu): asks for a file, suggesting `suggestedFileName`, and writes the table
// through writeTableCsv. The outcome ("Saved <path>." or why not) goes to `report`, usually the
// view's banner.
QAction *addExportCsvAction(QTableView *table, const QString &suggestedFileName,
                            std::function<void(const QString &outcome)> report);

} // namespace mqdesk::ui
