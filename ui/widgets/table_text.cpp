#include "ui/widgets/table_text.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QSaveFile>
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

namespace {

QString csvField(const QString &text)
{
    static const QString special = QStringLiteral(",\"\r\n");
    if (std::none_of(text.begin(), text.end(), [](QChar c) { return special.contains(c); }))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

QByteArray csvRecord(const QStringList &fields)
{
    QStringList quoted;
    quoted.reserve(fields.size());
    for (const QString &field : fields)
        quoted << csvField(field);
    return quoted.join(QLatin1Char(',')).toUtf8() + "\r\n";
}

bool writeTableCsv(const QAbstractItemModel &model, const QString &path, QString *error)
{
    // QSaveFile: a failed export never leaves half a file where an older one was.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    QStringList header;
    for (int column = 0; column < model.columnCount(); ++column)
        header << model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
    file.write(csvRecord(header));
    for (int row = 0; row < model.rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < model.columnCount(); ++column)
            cells << model.index(row, column).data().toString();
        file.write(csvRecord(cells));
    }
    if (!file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QAction *addExportCsvAction(QTableView *table, const QString &suggestedFileName,
                            std::function<void(const QString &outcome)> report)
{
    auto *action = new QAction(QCoreApplication::translate("mqdesk::ui::TableText", "Export CSV…"), table);
    table->setContextMenuPolicy(Qt::ActionsContextMenu);
    table->addAction(action);
    QObject::connect(action, &QAction::triggered, table, [table, suggestedFileName, report = std::move(report)] {
        const QString path = QFileDialog::getSaveFileName(table, QCoreApplication::translate("mqdesk::ui::TableText", "Export CSV"), suggestedFileName,
                                                          QCoreApplication::translate("mqdesk::ui::TableText", "CSV files (*.csv)"));
        if (path.isEmpty() || !table->model())
            return;
        QString error;
        if (writeTableCsv(*table->model(), path, &error))
            report(QCoreApplication::translate("mqdesk::ui::TableText", "Saved %1.").arg(path));
        else
            report(QCoreApplication::translate("mqdesk::ui::TableText", "Export failed: %1").arg(error));
    });
    return action;
}

} // namespace mqdesk::ui
