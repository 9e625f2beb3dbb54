#include "ui/explorer/explorer_view_util.h"

#include "ui/widgets/table_page.h"
#include "ui/widgets/table_text.h"

#include <QAction>
#include <QClipboard>
#include <QDateTime>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStandardItem>
#include <QTableView>

namespace mqdesk::ui {

QString localTimeText(qint64 epochMillis)
{
    if (epochMillis == 0)
        return QStringLiteral("—");
    return QDateTime::fromMSecsSinceEpoch(epochMillis).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString byteSizeText(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

QTableView *makeExplorerTable(QAbstractItemModel *model, const QString &csvName,
                              const std::function<void(const QString &)> &report, QWidget *parent)
{
    auto *table = new QTableView(parent);
    table->setModel(model);
    configureListTable(table);
    table->horizontalHeader()->setStretchLastSection(true);
    auto *copy = new QAction(QCoreApplication::translate("mqdesk::ui::ExplorerTable", "Copy"), table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(copy, &QAction::triggered, table,
                     [table] { QGuiApplication::clipboard()->setText(selectedRowsText(*table, true)); });
    table->addAction(copy);
    addExportCsvAction(table, csvName, report);
    return table;
}

QLabel *makeBanner(QWidget *parent)
{
    auto *banner = new QLabel(parent);
    banner->setWordWrap(true);
    banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner->hide();
    return banner;
}

void showBanner(QLabel *banner, const QString &text, bool error)
{
    banner->setText(text);
    banner->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    banner->setVisible(!text.isEmpty());
}

QStandardItem *numberItem(qint64 value)
{
    auto *item = new QStandardItem;
    item->setData(value, Qt::DisplayRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QStandardItem *textItem(const QString &text)
{
    return new QStandardItem(text);
}

std::optional<StoreLocation> commitLogLocation(const store::StoreReader &reader,
                                               const store::CommitLogSnapshot &log, qint64 offset)
{
    const store::FileView *file = log.fileFor(offset);
    if (!file)
        return std::nullopt;
    return StoreLocation{qtText(reader.relativePath(file->path())), offset - file->startOffset()};
}

} // namespace mqdesk::ui
