#pragma once

// The selected rows of a table view as tab-separated text (Ctrl+C in every view), in row order,
// read through the view's own model so sorting and filtering are respected.

#include <QString>

class QTableView;

namespace mqdesk::ui {

// With `withHeader`, the column titles come first; every line ends with '\n' then.
QString selectedRowsText(const QTableView &table, bool withHeader);

} // namespace mqdesk::ui
