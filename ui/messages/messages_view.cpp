#include "ui/messages/messages_view.h"

#include "ui/widgets/banner.h"

#include "ui/connection/cluster_connection.h"
#include "ui/messages/message_detail_pane.h"
#include "ui/messages/message_table_model.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

namespace mqdesk::ui {

namespace {

constexpr int kPrefetchRows = 8;

} // namespace

MessagesView::MessagesView(ClusterConnection &connection, QWidget *parent)
    : TablePage({QString(), tr("Read the shown query again (F5)"), tr("messages.csv"), QStringLiteral("messages")},
                parent),
      connection_(connection)
{
    model_ = new MessageTableModel(this);
    addToolbarWidget(buildBrowseBar(), 1);
    addToolbarRow(buildLookupBar());
    setFindTarget(lookupEdit_); // Ctrl+F: the lookup

    addBelowBanner(buildResendBar());
    setModel(model_);
    QTableView *messages = table();
    messages->sortByColumn(MessageTableModel::QueueColumn, Qt::AscendingOrder);
    messages->horizontalHeader()->setSectionResizeMode(MessageTableModel::MsgIdColumn, QHeaderView::Stretch);
    messages->setColumnWidth(MessageTableModel::StoreTimeColumn, messages->fontMetrics().horizontalAdvance(
                                                                     QStringLiteral("0000-00-00 00:00:00.000WW")));

    resultLabel_ = new QLabel(this);
    resultLabel_->setObjectName(QStringLiteral("messagesResult"));
    loadMoreButton_ = new QPushButton(tr("Load &more"), this);
    loadMoreButton_->setObjectName(QStringLiteral("loadMore"));
    loadMoreButton_->setToolTip(tr("Read the next %1 messages").arg(kPageSize));
    auto *resultBar = new QHBoxLayout;
    resultBar->addWidget(resultLabel_, 1);
    resultBar->addWidget(loadMoreButton_);
    resultBar->addWidget(exportButton_); // beside the results it writes (created with the browse bar)
    addBelowTable(resultBar);
    detail_ = new MessageDetailPane(this);
    setDetail(detail_, 1, 1);
    connect(this, &TablePage::refreshRequested, this, &MessagesView::refresh);

    connect(model_, &MessageTableModel::fetchRequested, this, &MessagesView::fetchNextPage);
    connect(loadMoreButton_, &QPushButton::clicked, this, &MessagesView::loadMore);
    // The next page is read a few rows before the end is reached (the view itself asks only at
    // the very end). The table scrolls per row, so the scroll bar counts rows.
    connect(table()->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (query_ == Query::Browse && value >= table()->verticalScrollBar()->maximum() - kPrefetchRows)
            loadMore();
    });
    connect(table()->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MessagesView::onCurrentChanged);
    connect(model_, &QAbstractItemModel::modelReset, this, &MessagesView::onCurrentChanged);
    connect(detail_, &MessageDetailPane::traceRequested, this, &MessagesView::readTrace);

    connect(&connection_, &ClusterConnection::namesrvAddressChanged, this, [this] {
        ++generation_; // whatever was running is about the previous cluster
        busy_ = false;
        query_ = Query::None;
        cursor_ = {};
        queryError_.clear();
        resultText_.clear();
        showBanner({}, false);
        model_->clear();
        refresh();
    });
    refresh();
}

QWidget *MessagesView::buildBrowseBar()
{
    topicCombo_ = new QComboBox(this);
    topicCombo_->setObjectName(QStringLiteral("messagesTopic"));
    topicCombo_->setEditable(true);
    topicCombo_->setInsertPolicy(QComboBox::NoInsert);
    topicCombo_->setMinimumContentsLength(18);
    topicCombo_->lineEdit()->setPlaceholderText(tr("Topic"));
    queueCombo_ = new QComboBox(this);
    queueCombo_->setObjectName(QStringLiteral("messagesQueue"));
    queueCombo_->addItem(tr("All queues"), -1);
    startMode_ = new QComboBox(this);
    startMode_->setObjectName(QStringLiteral("messagesStartMode"));
    startMode_->addItem(tr("from offset"));
    startMode_->addItem(tr("from store time"));
    offsetEdit_ = new QLineEdit(QStringLiteral("0"), this);
    offsetEdit_->setObjectName(QStringLiteral("messagesStartOffset"));
    offsetEdit_->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,18}")), offsetEdit_));
    offsetEdit_->setMaximumWidth(offsetEdit_->fontMetrics().horizontalAdvance(QStringLiteral("0000000000000")));
    startTime_ = new QDateTimeEdit(QDateTime::currentDateTime().addSecs(-3600), this);
    startTime_->setObjectName(QStringLiteral("messagesStartTime"));
    startTime_->setCalendarPopup(true);
    startTime_->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    startTime_->hide();
    browseButton_ = new QPushButton(tr("&Browse"), this);
    browseButton_->setObjectName(QStringLiteral("browseButton"));
    browseButton_->setToolTip(tr("Read the queue from the start you chose, %1 messages at a time").arg(kPageSize));
    sendButton_ = new QPushButton(tr("Send test &message…"), this);
    sendButton_->setObjectName(QStringLiteral("openSendDialog"));
    resendButton_ = new QPushButton(tr("&Resend to its group…"), this);
    resendButton_->setObjectName(QStringLiteral("resendDeadLetters"));
    resendButton_->setToolTip(tr("Send the selected dead letters (or all shown) to their group's retry topic, "
                                 "so that the group consumes them again"));
    resendButton_->hide();
    exportButton_ = new QPushButton(tr("E&xport…"), this);
    exportButton_->setObjectName(QStringLiteral("exportMessages"));
    exportButton_->setToolTip(tr("Write the selected messages (or all shown) to a file, bodies and properties "
                                 "included: JSON Lines (.jsonl) or CSV (.csv)"));

    auto *bar = new QWidget(this);
    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Topic:"), this));
    layout->addWidget(topicCombo_, 2);
    layout->addWidget(queueCombo_);
    layout->addWidget(startMode_);
    layout->addWidget(offsetEdit_);
    layout->addWidget(startTime_);
    layout->addWidget(browseButton_);
    layout->addStretch(1);
    layout->addWidget(resendButton_);
    layout->addWidget(sendButton_);

    queueTimer_ = new QTimer(this);
    queueTimer_->setSingleShot(true);
    queueTimer_->setInterval(300);
    connect(queueTimer_, &QTimer::timeout, this, &MessagesView::fillQueues);
    connect(topicCombo_, &QComboBox::currentTextChanged, queueTimer_, qOverload<>(&QTimer::start));
    connect(startMode_, &QComboBox::currentIndexChanged, this, [this](int index) {
        offsetEdit_->setVisible(index == 0);
        startTime_->setVisible(index == 1);
    });
    connect(browseButton_, &QPushButton::clicked, this, &MessagesView::browse);
    connect(resendButton_, &QPushButton::clicked, this, &MessagesView::requestResend);
    connect(exportButton_, &QPushButton::clicked, this, &MessagesView::exportMessages);
    connect(topicCombo_, &QComboBox::currentTextChanged, this, &MessagesView::updateRowActions);
    connect(offsetEdit_, &QLineEdit::returnPressed, this, &MessagesView::browse);
    connect(sendButton_, &QPushButton::clicked, this, &MessagesView::openSendDialog);
    return bar;
}

QWidget *MessagesView::buildLookupBar()
{
    lookupMode_ = new QComboBox(this);
    lookupMode_->setObjectName(QStringLiteral("lookupMode"));
    lookupMode_->addItem(tr("Message ID"));
    lookupMode_->addItem(tr("Key"));
    lookupEdit_ = new QLineEdit(this);
    lookupEdit_->setObjectName(QStringLiteral("lookupText"));
    lookupEdit_->setClearButtonEnabled(true);
    lookupEdit_->setPlaceholderText(tr("Offset message ID or UNIQ_KEY (Ctrl+F)"));
    keyBegin_ = new QDateTimeEdit(this);
    keyBegin_->setObjectName(QStringLiteral("keyBegin"));
    keyEnd_ = new QDateTimeEdit(this);
    keyEnd_->setObjectName(QStringLiteral("keyEnd"));
    for (QDateTimeEdit *edit : {keyBegin_, keyEnd_}) {
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        // Once the user picks a range it stays; until then it follows "the last 24 hours".
        connect(edit, &QDateTimeEdit::editingFinished, this, [this] { keyRangeTouched_ = true; });
    }
    resetKeyRangeIfUntouched();
    keyRange_ = new QWidget(this);
    auto *rangeLayout = new QHBoxLayout(keyRange_);
    rangeLayout->setContentsMargins(0, 0, 0, 0);
    rangeLayout->addWidget(new QLabel(tr("stored between"), this));
    rangeLayout->addWidget(keyBegin_);
    rangeLayout->addWidget(new QLabel(tr("and"), this));
    rangeLayout->addWidget(keyEnd_);
    keyRange_->hide();
    findButton_ = new QPushButton(tr("&Find"), this);
    findButton_->setObjectName(QStringLiteral("findButton"));

    auto *bar = new QWidget(this);
    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Look up by"), this));
    layout->addWidget(lookupMode_);
    layout->addWidget(lookupEdit_, 2);
    layout->addWidget(keyRange_);
    layout->addWidget(findButton_);

    connect(lookupMode_, &QComboBox::currentIndexChanged, this, [this](int index) {
        keyRange_->setVisible(index == 1);
        lookupEdit_->setPlaceholderText(index == 1 ? tr("Key (one of the message's KEYS)")
                                                   : tr("Offset message ID or UNIQ_KEY (Ctrl+F)"));
    });
    connect(findButton_, &QPushButton::clicked, this, &MessagesView::lookup);
    connect(lookupEdit_, &QLineEdit::returnPressed, this, &MessagesView::lookup);
    return bar;
}

void MessagesView::resetKeyRangeIfUntouched()
{
    if (keyRangeTouched_)
        return;
    const QDateTime now = QDateTime::currentDateTime();
    keyBegin_->setDateTime(now.addDays(-1));
    keyEnd_->setDateTime(now.addSecs(60)); // a minute ahead: a message sent just now is in range
}

void MessagesView::selectRow(int row)
{
    const QModelIndex index = model_->index(row, 0);
    if (!index.isValid())
        return;
    table()->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table()->scrollTo(index);
}

void MessagesView::onCurrentChanged()
{
    const QModelIndex current = table()->selectionModel()->currentIndex();
    detail_->showMessage(current.isValid() ? model_->message(current.row()) : nullptr);
}

QString MessagesView::bannerText() const
{
    return banner()->shownText();
}

QString MessagesView::resultText() const
{
    return resultLabel_->text();
}

void MessagesView::showBanner(const QString &text, bool error)
{
    banner()->report(text, error ? Banner::Tone::Error : Banner::Tone::Info);
}

void MessagesView::updateEmptyState()
{
    QString text;
    if (!connection_.isConnected())
        text = tr("Not connected. Messages can be browsed once the embedded broker is running.");
    else if (model_->rowCount() == 0 && busy_)
        text = query_ == Query::Browse ? tr("Reading messages…") : tr("Searching…");
    else if (model_->rowCount() == 0 && !queryError_.isEmpty())
        text = queryError_;
    else if (model_->rowCount() == 0 && query_ == Query::None)
        text = tr("Choose a topic and where to start, then Browse — or look a message up by its ID or key.\n"
                  "Clients send to the NameServer %1; “Send test message…” sends one from here.")
                   .arg(connection_.namesrvAddress());
    else if (model_->rowCount() == 0)
        text = emptyReason_;
    setEmptyText(text);
    resultLabel_->setText(busy_ ? tr("Loading…") : resultText_);
    updateControls();
}

void MessagesView::updateControls()
{
    const bool connected = connection_.isConnected();
    browseButton_->setEnabled(connected);
    findButton_->setEnabled(connected);
    sendButton_->setEnabled(connected);
    loadMoreButton_->setVisible(query_ == Query::Browse);
    loadMoreButton_->setEnabled(query_ == Query::Browse && model_->canFetchMore({}));
    updateRowActions();
}

} // namespace mqdesk::ui
