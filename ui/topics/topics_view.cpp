#include "ui/topics/topics_view.h"

#include "ui/widgets/banner.h"

#include "ui/connection/cluster_connection.h"
#include "ui/topics/topic_data.h"
#include "ui/topics/topic_detail_pane.h"
#include "ui/topics/topic_dialog.h"

#include <QComboBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

namespace mqdesk::ui {

namespace {

constexpr int kMaxCountsPerRequest = 64;

} // namespace

TablePage::Options TopicsView::pageOptions()
{
    return {tr("Filter topics (Ctrl+F)"), tr("Fetch the topics again (F5)"), tr("topics.csv"), QStringLiteral("topics")};
}

TopicsView::TopicsView(ClusterConnection &connection, QWidget *parent)
    : TablePage(pageOptions(), parent), connection_(connection)
{
    model_ = new TopicTableModel(this);
    filter_ = new TopicFilterModel(this);
    filter_->setSourceModel(model_);

    findField()->setObjectName(QStringLiteral("topicSearch"));
    kindCombo_ = new QComboBox(this);
    kindCombo_->setObjectName(QStringLiteral("topicKindFilter"));
    kindCombo_->addItem(tr("All kinds"), -1);
    for (TopicKind kind : {TopicKind::Normal, TopicKind::Retry, TopicKind::DeadLetter, TopicKind::System})
        kindCombo_->addItem(topicKindName(kind), static_cast<int>(kind));
    typeCombo_ = new QComboBox(this);
    typeCombo_->setObjectName(QStringLiteral("topicTypeFilter"));
    typeCombo_->setToolTip(tr("Show topics of one message type (RocketMQ 5 topic attribute message.type)"));
    typeCombo_->addItem(tr("All types"), QString());
    for (const std::string &type : remoting::topicMessageTypes())
        typeCombo_->addItem(QString::fromStdString(type), QString::fromStdString(type));
    createButton_ = new QPushButton(tr("&New topic…"), this);
    editButton_ = new QPushButton(tr("&Edit…"), this);
    deleteButton_ = new QPushButton(tr("&Delete…"), this);
    createButton_->setObjectName(QStringLiteral("newTopicButton"));
    editButton_->setObjectName(QStringLiteral("editTopicButton"));
    countLabel_ = new QLabel(this);
    addToolbarWidget(kindCombo_);
    addToolbarWidget(typeCombo_);
    addToolbarWidget(countLabel_, 1);
    addToolbarWidget(createButton_);
    addToolbarWidget(editButton_);
    addToolbarWidget(deleteButton_);

    setModel(filter_);
    QTableView *table = this->table();
    table->sortByColumn(TopicTableModel::NameColumn, Qt::AscendingOrder);
    table->horizontalHeader()->setSectionResizeMode(TopicTableModel::NameColumn, QHeaderView::Stretch);
    detail_ = new TopicDetailPane(connection_, this);
    setDetail(detail_, 3, 2);

    connect(this, &TablePage::refreshRequested, this, &TopicsView::refreshOnScreen);
    connect(createButton_, &QPushButton::clicked, this, &TopicsView::createTopic);
    connect(editButton_, &QPushButton::clicked, this, &TopicsView::editSelectedTopic);
    connect(deleteButton_, &QPushButton::clicked, this, &TopicsView::deleteSelectedTopic);
    connect(table, &QTableView::activated, this, &TopicsView::editSelectedTopic);
    connect(findField(), &QLineEdit::textChanged, filter_, &TopicFilterModel::setNameFilter);
    connect(kindCombo_, &QComboBox::currentIndexChanged, this,
            [this] { filter_->setKindFilter(kindCombo_->currentData().toInt()); });
    connect(typeCombo_, &QComboBox::currentIndexChanged, this,
            [this] { filter_->setMessageTypeFilter(typeCombo_->currentData().toString()); });
    connect(table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &TopicsView::onCurrentChanged);
    // selectedTopic() needs the current row selected too, and a mouse click moves the current
    // row before it selects it (QAbstractItemView::mousePressEvent): only the selection change
    // that follows names the clicked topic.
    connect(table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &TopicsView::onCurrentChanged);
    connect(detail_, &TopicDetailPane::messageCountKnown, model_, &TopicTableModel::setMessageCount);

    // The rows on screen get their message counts shortly after they appear.
    countTimer_ = new QTimer(this);
    countTimer_->setSingleShot(true);
    countTimer_->setInterval(100);
    connect(countTimer_, &QTimer::timeout, this, &TopicsView::fetchVisibleCounts);
    connect(table->verticalScrollBar(), &QScrollBar::valueChanged, this, &TopicsView::scheduleVisibleCounts);
    const auto onRowsChanged = [this] {
        scheduleVisibleCounts();
        updateEmptyState();
    };
    connect(filter_, &QAbstractItemModel::layoutChanged, this, onRowsChanged);
    connect(filter_, &QAbstractItemModel::modelReset, this, onRowsChanged);
    // A filter typed into the search field removes and inserts rows; the scroll bar need not
    // move (it did not, at the end of a long list), yet other rows are on screen now.
    connect(filter_, &QAbstractItemModel::rowsInserted, this, onRowsChanged);
    connect(filter_, &QAbstractItemModel::rowsRemoved, this, onRowsChanged);

    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, [this] {
        showBanner({}, false); // the last result was about the previous cluster
        model_->clear();
        refresh();
    });
    // Live: the list follows topics created or deleted elsewhere while the view is shown.
    connect(this, &TablePage::liveRefreshDue, this, &TopicsView::refreshIfShown);
    startLiveRefresh(kLiveRefreshMillis);
    refresh();
}

void TopicsView::refresh()
{
    fetchList(false);
}

void TopicsView::refreshOnScreen()
{
    refresh();
    // F5 and Refresh fetch what is on screen: the selected topic's pane too. (Not after a delete:
    // a route lookup of the deleted topic would have an auto-creating NameServer make it again.)
    if (!detail_->topic().isEmpty() && detail_->topic() == selectedTopic())
        detail_->refresh();
}

void TopicsView::refreshIfShown()
{
    if (!isVisible() || window()->isMinimized() || listFetch_.busy() || !connection_.isConnected())
        return;
    fetchList(true);
}

void TopicsView::fetchList(bool live)
{
    if (!live)
        countsRequested_.clear(); // F5 fetches the counts on screen again
    if (!connection_.isConnected()) {
        listFetch_.cancel(); // an answer still under way is of no use
        loading_ = false;
        loadError_.clear();
        model_->clear();
        updateEmptyState();
        updateActions();
        emit topicsLoaded();
        return;
    }
    if (!live) {
        loading_ = true;
        updateEmptyState();
        updateActions();
    }
    // F5 (or a change, or another cluster) while a fetch is under way fetches again once it is
    // answered, and that answer, maybe older than the change, is dropped.
    if (listFetch_.request())
        startFetch(live);
}

void TopicsView::startFetch(bool live)
{
    const SerialFetch::Ticket ticket = listFetch_.begin();
    connection_.run(this, fetchTopics, [this, ticket, live](TopicListing listing) {
        switch (listFetch_.finish(ticket)) {
        case SerialFetch::Outcome::Stale:
            return;
        case SerialFetch::Outcome::FetchAgain:
            fetchList(false); // starts it (or shows the disconnected state)
            return;
        case SerialFetch::Outcome::Use:
            break;
        }
        loading_ = false;
        loadError_ = listing.status.ok ? QString() : QString::fromStdString(listing.status.error);
        const QString keep = topicToSelect_.isEmpty() ? selectedTopic() : topicToSelect_;
        topicToSelect_.clear();
        // In place: the selection, current row, sort and scroll position stay as they were.
        model_->updateTopics(std::move(listing.topics), live);
        if (!keep.isEmpty() && keep != selectedTopic() && !selectTopic(keep))
            detail_->showTopic({});
        if (!loadError_.isEmpty())
            showBanner(tr("Some topics could not be read: %1").arg(loadError_), true);
        updateEmptyState();
        updateActions();
        scheduleVisibleCounts();
        if (!live)
            emit topicsLoaded();
    });
}

void TopicsView::createTopic()
{
    auto *dialog = new TopicDialog(nullptr, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { applyTopicConfig(dialog->topicConfig(), true, dialog->attributeModifications()); });
    dialog->open();
}

void TopicsView::editSelectedTopic()
{
    const TopicRow *row = model_->topic(selectedTopic());
    if (!row || row->kind == TopicKind::System)
        return;
    auto *dialog = new TopicDialog(&row->config, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const remoting::TopicConfigData original = row->config;
    connect(dialog, &QDialog::accepted, this, [this, dialog, original] {
        remoting::TopicConfigData config = original; // keeps order, flags and filter type
        const remoting::TopicConfigData edited = dialog->topicConfig();
        config.readQueueNums = edited.readQueueNums;
        config.writeQueueNums = edited.writeQueueNums;
        config.perm = edited.perm;
        applyTopicConfig(config, false, dialog->attributeModifications());
    });
    dialog->open();
}

void TopicsView::applyTopicConfig(const remoting::TopicConfigData &config, bool creating,
                                  const std::string &attributes)
{
    const QString name = QString::fromStdString(config.topicName);
    showBanner(creating ? tr("Creating topic %1…").arg(name) : tr("Saving topic %1…").arg(name), false);
    connection_.run(
        this, [config, attributes](client::AdminClient &admin) { return admin.createTopic({}, config, attributes); },
        [this, name, config, creating](client::Status status) {
            if (!status.ok) {
                showBanner((creating ? tr("Topic %1 was not created: %2") : tr("Topic %1 was not saved: %2"))
                               .arg(name, QString::fromStdString(status.error)),
                           true);
                emit changeFinished(false);
                return;
            }
            const QString queues = tr("%1 read / %2 write queues, %3 on each master")
                                       .arg(config.readQueueNums)
                                       .arg(config.writeQueueNums)
                                       .arg(QString::fromStdString(remoting::topicPerm::permName(config.perm)));
            showBanner((creating ? tr("Topic %1 created: %2.") : tr("Topic %1 saved: %2.")).arg(name, queues), false);
            topicToSelect_ = name;
            refresh();
            emit changeFinished(true);
        });
}

void TopicsView::deleteSelectedTopic()
{
    const TopicRow *row = model_->topic(selectedTopic());
    if (!row || row->kind == TopicKind::System)
        return;
    const QString name = row->name;
    QString stored;
    if (row->messages >= 0)
        stored = tr("Its %n stored message(s) will no longer be readable. ", nullptr, static_cast<int>(row->messages));
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Delete topic"),
                                tr("Delete topic %1 from every broker and NameServer?").arg(name), QMessageBox::NoButton,
                                this);
    box->setObjectName(QStringLiteral("deleteTopicConfirmation"));
    box->setInformativeText(stored + tr("Producers and consumers using it will fail until it is created again."));
    QPushButton *deleteButton = box->addButton(tr("Delete %1").arg(name), QMessageBox::DestructiveRole);
    deleteButton->setObjectName(QStringLiteral("confirmDelete"));
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, deleteButton, name] {
        if (box->clickedButton() != deleteButton)
            return;
        showBanner(tr("Deleting topic %1…").arg(name), false);
        connection_.run(
            this, [topic = name.toStdString()](client::AdminClient &admin) { return admin.deleteTopic(topic); },
            [this, name](client::Status status) {
                if (status.ok)
                    showBanner(tr("Topic %1 deleted.").arg(name), false);
                else
                    showBanner(tr("Topic %1 was not deleted: %2").arg(name, QString::fromStdString(status.error)),
                               true);
                refresh();
                emit changeFinished(status.ok);
            });
    });
    box->open();
}

bool TopicsView::selectTopic(const QString &topic)
{
    const int sourceRow = model_->rowOf(topic);
    const QModelIndex index = filter_->mapFromSource(model_->index(sourceRow, TopicTableModel::NameColumn));
    if (sourceRow < 0 || !index.isValid())
        return false;
    table()->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table()->scrollTo(index);
    return true;
}

QString TopicsView::selectedTopic() const
{
    const QItemSelectionModel *selection = table()->selectionModel();
    const QModelIndex current = selection->currentIndex();
    if (!current.isValid() || !selection->isRowSelected(current.row(), {}))
        return {};
    return filter_->index(current.row(), TopicTableModel::NameColumn).data().toString();
}

QString TopicsView::bannerText() const
{
    return banner()->shownText();
}

void TopicsView::showBanner(const QString &text, bool error)
{
    banner()->report(text, error ? Banner::Tone::Error : Banner::Tone::Info);
}

void TopicsView::updateEmptyState()
{
    QString text;
    if (!connection_.isConnected())
        text = tr("Not connected. The topics appear here once the embedded broker is running.");
    else if (model_->rowCount() == 0 && loading_)
        text = tr("Loading topics…");
    else if (model_->rowCount() == 0 && !loadError_.isEmpty())
        text = tr("The topics could not be read: %1\nCheck that the broker is running, then press F5.").arg(loadError_);
    else if (model_->rowCount() == 0)
        text = tr("No topics yet. Create one with “New topic…”, or send to a new topic from a client "
                  "using the NameServer %1.")
                   .arg(connection_.namesrvAddress());
    else if (filter_->rowCount() == 0)
        text = tr("No topic matches the filter. Clear the search field or choose “All kinds” and “All types”.");
    setEmptyText(text);
    if (loading_)
        countLabel_->setText(tr("Loading…"));
    else if (filter_->rowCount() == model_->rowCount())
        countLabel_->setText(tr("%n topic(s)", nullptr, model_->rowCount()));
    else
        countLabel_->setText(tr("%1 of %n topic(s)", nullptr, model_->rowCount()).arg(filter_->rowCount()));
}

void TopicsView::updateActions()
{
    const TopicRow *row = model_->topic(selectedTopic());
    const bool editable = row && row->kind != TopicKind::System;
    createButton_->setEnabled(connection_.isConnected());
    editButton_->setEnabled(editable);
    deleteButton_->setEnabled(editable);
    const QString why = row && !editable ? tr("The broker owns system topics.") : QString();
    editButton_->setToolTip(why);
    deleteButton_->setToolTip(why);
}

void TopicsView::onCurrentChanged()
{
    // A click that moves both the current row and the selection arrives twice: fetch once.
    if (const QString topic = selectedTopic(); topic != detail_->topic() || topic.isEmpty())
        detail_->showTopic(topic);
    updateActions();
}

void TopicsView::scheduleVisibleCounts()
{
    if (!countTimer_->isActive())
        countTimer_->start();
}

void TopicsView::fetchVisibleCounts()
{
    if (!connection_.isConnected() || filter_->rowCount() == 0)
        return;
    const int first = std::max(0, table()->rowAt(0));
    int last = table()->rowAt(table()->viewport()->height() - 1);
    if (last < 0)
        last = filter_->rowCount() - 1;
    std::vector<TopicRow> wanted;
    for (int row = first; row <= last && static_cast<int>(wanted.size()) < kMaxCountsPerRequest; ++row) {
        const QModelIndex index = filter_->mapToSource(filter_->index(row, 0));
        const TopicRow *topic = model_->topic(index.row());
        if (topic && topic->messages == TopicRow::kUnknown && !countsRequested_.contains(topic->name)) {
            countsRequested_.insert(topic->name);
            wanted.push_back(*topic);
        }
    }
    if (wanted.empty())
        return;
    connection_.run(
        this, [wanted](client::AdminClient &admin) { return fetchMessageCounts(admin, wanted); },
        [this](const std::vector<std::pair<QString, qint64>> &counts) {
            for (const auto &[name, messages] : counts)
                model_->setMessageCount(name, messages);
        });
}

} // namespace mqdesk::ui
