#include "ui/widgets/table_page.h"

#include "ui/widgets/banner.h"
#include "ui/widgets/table_text.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace mqdesk::ui {

namespace {

// Ctrl+Home and Ctrl+End show the first and the last row even when the current row already is
// that row: QAbstractItemView only moves the current row, and scrolls only when it moved, so
// after a filter left the current row on the first one, scrolled out of sight, Ctrl+Home did
// nothing.
class EdgeKeysScroll : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::KeyPress) {
            const auto *key = static_cast<QKeyEvent *>(event);
            auto *table = qobject_cast<QTableView *>(watched);
            if (table && key->modifiers().testFlag(Qt::ControlModifier)) {
                if (key->key() == Qt::Key_Home)
                    table->scrollToTop();
                else if (key->key() == Qt::Key_End)
                    table->scrollToBottom();
            }
        }
        return false; // the view moves the current row as always
    }
};

} // namespace

void configureListTable(QTableView *table)
{
    table->installEventFilter(new EdgeKeysScroll(table));
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
}

TablePage::TablePage(const Options &options, QWidget *parent) : QWidget(parent)
{
    const QString prefix = options.objectNamePrefix;
    toolbar_ = new QHBoxLayout;
    if (!options.findPlaceholder.isEmpty()) {
        find_ = new QLineEdit(this);
        find_->setObjectName(prefix + QStringLiteral("Find"));
        find_->setPlaceholderText(options.findPlaceholder);
        find_->setClearButtonEnabled(true);
        toolbar_->addWidget(find_, 2);
        findTarget_ = find_;
    }
    refreshButton_ = new QPushButton(tr("Refresh"), this);
    refreshButton_->setObjectName(prefix + QStringLiteral("Refresh"));
    refreshButton_->setToolTip(options.refreshToolTip);
    toolbar_->addWidget(refreshButton_);
    connect(refreshButton_, &QPushButton::clicked, this, &TablePage::refreshRequested);

    banner_ = new Banner(this);
    banner_->setObjectName(prefix + QStringLiteral("Banner"));

    table_ = new QTableView(this);
    table_->setObjectName(prefix + QStringLiteral("Table"));
    configureListTable(table_);
    emptyState_ = new QLabel(this);
    emptyState_->setObjectName(prefix + QStringLiteral("EmptyState"));
    emptyState_->setAlignment(Qt::AlignCenter);
    emptyState_->setWordWrap(true);
    emptyState_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(table_);
    stack_->addWidget(emptyState_);

    tableArea_ = new QWidget(this);
    tableLayout_ = new QVBoxLayout(tableArea_);
    tableLayout_->setContentsMargins(0, 0, 0, 0);
    tableLayout_->addWidget(stack_, 1);
    splitter_ = new QSplitter(Qt::Vertical, this);
    splitter_->addWidget(tableArea_);
    splitter_->setChildrenCollapsible(false);

    layout_ = new QVBoxLayout(this);
    layout_->addLayout(toolbar_);
    layout_->addWidget(banner_);
    belowBannerIndex_ = layout_->count();
    layout_->addWidget(splitter_, 1);
    addShortcuts(options);
}

void TablePage::addShortcuts(const Options &options)
{
    // F5 and Ctrl+F: window shortcuts, live only while this page is shown.
    auto *refreshAction = new QAction(tr("Refresh"), this);
    refreshAction->setShortcut(QKeySequence::Refresh);
    connect(refreshAction, &QAction::triggered, this, &TablePage::refreshRequested);
    QWidget::addAction(refreshAction);
    auto *findAction = new QAction(tr("Find"), this);
    findAction->setShortcut(QKeySequence::Find);
    connect(findAction, &QAction::triggered, this, [this] {
        if (!findTarget_)
            return;
        findTarget_->setFocus(Qt::ShortcutFocusReason);
        findTarget_->selectAll();
    });
    QWidget::addAction(findAction);

    // The table's own: Ctrl+C while it has the focus, and its context menu (its actions).
    auto *copyAction = new QAction(tr("Copy"), table_);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetShortcut);
    connect(copyAction, &QAction::triggered, this, &TablePage::copySelectedRows);
    table_->addAction(copyAction);
    addExportCsvAction(table_, options.csvFileName, [this](const QString &outcome) { banner_->report(outcome); });
}

void TablePage::setModel(QAbstractItemModel *model)
{
    table_->setModel(model);
}

void TablePage::addToolbarWidget(QWidget *widget, int stretch)
{
    toolbar_->insertWidget(toolbar_->indexOf(refreshButton_), widget, stretch);
}

void TablePage::addToolbarRow(QWidget *row)
{
    layout_->insertWidget(layout_->indexOf(banner_), row);
    ++belowBannerIndex_;
}

void TablePage::addBelowBanner(QWidget *widget)
{
    layout_->insertWidget(belowBannerIndex_++, widget);
}

void TablePage::addBelowTable(QWidget *widget)
{
    tableLayout_->addWidget(widget);
}

void TablePage::addBelowTable(QHBoxLayout *layout)
{
    tableLayout_->addLayout(layout);
}

void TablePage::setDetail(QWidget *detail, int tableShare, int detailShare)
{
    splitter_->addWidget(detail);
    splitter_->setStretchFactor(0, tableShare);
    splitter_->setStretchFactor(1, detailShare);
    splitter_->setSizes({tableShare * 100, detailShare * 100});
}

void TablePage::setEmptyText(const QString &text)
{
    emptyState_->setText(text);
    stack_->setCurrentWidget(text.isEmpty() ? static_cast<QWidget *>(table_) : emptyState_);
}

QString TablePage::emptyText() const
{
    return stack_->currentWidget() == emptyState_ ? emptyState_->text() : QString();
}

QString TablePage::selectedRowsText() const
{
    return ui::selectedRowsText(*table_, true);
}

void TablePage::copySelectedRows() const
{
    if (table_->selectionModel() && table_->selectionModel()->hasSelection())
        QApplication::clipboard()->setText(selectedRowsText());
}

void TablePage::startLiveRefresh(int intervalMillis)
{
    if (!liveTimer_) {
        liveTimer_ = new QTimer(this);
        connect(liveTimer_, &QTimer::timeout, this, [this] {
            if (isOnScreen())
                emit liveRefreshDue();
        });
    }
    liveTimer_->start(intervalMillis);
}

bool TablePage::isOnScreen() const
{
    return isVisible() && !window()->isMinimized();
}

void TablePage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (liveTimer_ && isOnScreen())
        emit liveRefreshDue();
}

} // namespace mqdesk::ui
