#include "ui/table_text.h"

#include <QItemSelectionModel>
#include <QStringList>
#include <QTableView>

#include <algorithm>

namespace mqdesk::ui {

QString selectedRowsText(const QTableView &table, bool withHeader)
{
    const QAbstractItemModel *model = table.model();
    if (!model || !table.selectionModel())
        return {};
    QStringList lines;
    if (withHeader) {
        QStringList header;
        for (int column = 0; column < model->columnCount(); ++column)
            header << model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        lines << header.join(QLatin1Char('\t'));
    }
    QModelIndexList rows = table.selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &row : rows) {
        QStringList cells;
        for (int column = 0; column < model->columnCount(); ++column)
            cells << model->index(row.row(), column).data().toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    const QString text = lines.join(QLatin1Char('\n'));
    return withHeader ? text + QLatin1Char('\n') : text;
}

} // namespace mqdesk::ui
