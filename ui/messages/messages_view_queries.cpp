// MessagesView's calls to the cluster: the topic list, a topic's queues, browsing page by page,
// the lookups by id and by key, and sending a test message. Each runs off the GUI thread and
// is dropped when a newer query started meanwhile (generation_).

#include "ui/messages/messages_view.h"

#include "ui/connection/cluster_connection.h"
#include "ui/messages/message_detail_pane.h"
#include "ui/messages/message_trace_view.h"
#include "ui/messages/message_table_model.h"
#include "ui/messages/send_message_dialog.h"


#include <QComboBox>
#include <QDateTimeEdit>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QTableView>

#include <algorithm>

namespace mqdesk::ui {

namespace {

struct PageResult
{
    client::Status status;
    client::BrowseCursor cursor;
    std::vector<common::StoredMessage> messages;
};

PageResult openAndRead(client::AdminClient &admin, const std::string &topic, const client::BrowseStart &start)
{
    PageResult page;
    client::Result<client::BrowseCursor> cursor = client::openBrowse(admin, topic, start);
    if (!cursor.ok) {
        page.status = cursor.status();
        return page;
    }
    page.cursor = std::move(cursor.value);
    client::Result<std::vector<common::StoredMessage>> read = client::browseNext(admin, page.cursor, MessagesView::kPageSize);
    page.status = read.status();
    page.messages = std::move(read.value);
    return page;
}

QString errorText(const client::Status &status)
{
    return QString::fromStdString(status.error);
}

QString timeText(const QDateTime &time)
{
    return QLocale().toString(time, QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

void MessagesView::refresh()
{
    if (!connection_.isConnected()) {
        updateEmptyState();
        return;
    }
    connection_.run(
        this, [](client::AdminClient &admin) { return admin.topicList(); },
        [this](client::Result<remoting::TopicList> topics) {
            if (!topics.ok)
                return; // the box stays editable; a browse will say what is wrong
            std::sort(topics.value.topicList.begin(), topics.value.topicList.end());
            const QString current = topicCombo_->currentText();
            QSignalBlocker blocker(topicCombo_);
            topicCombo_->clear();
            for (const std::string &topic : topics.value.topicList)
                topicCombo_->addItem(QString::fromStdString(topic));
            topicCombo_->setCurrentIndex(-1);
            topicCombo_->setEditText(current);
        });
    if (repeat_)
        repeat_();
    else
        updateEmptyState();
}

void MessagesView::fillQueues()
{
    const QString topic = topicCombo_->currentText().trimmed();
    const uint64_t generation = ++queueGeneration_;
    const int keep = queueCombo_->currentData().toInt();
    if (topic.isEmpty() || !connection_.isConnected())
        return;
    connection_.run(
        this, [topic = topic.toStdString()](client::AdminClient &admin) { return admin.topicRoute(topic); },
        [this, generation, keep](client::Result<remoting::TopicRouteData> route) {
            if (generation != queueGeneration_)
                return;
            int queues = 0;
            for (const remoting::QueueData &queueData : route.value.queueDatas)
                queues = std::max(queues, queueData.readQueueNums);
            queueCombo_->clear();
            queueCombo_->addItem(tr("All queues"), -1);
            for (int queue = 0; queue < queues; ++queue)
                queueCombo_->addItem(tr("Queue %1").arg(queue), queue);
            queueCombo_->setCurrentIndex(std::max(0, queueCombo_->findData(keep)));
        });
}

void MessagesView::browse()
{
    client::BrowseStart start;
    start.queueId = queueCombo_->currentData().toInt();
    if (startMode_->currentIndex() == 1)
        start.timestamp = startTime_->dateTime().toMSecsSinceEpoch();
    else
        start.offset = offsetEdit_->text().toLongLong();
    startBrowse(topicCombo_->currentText().trimmed(), start);
}

void MessagesView::browseFromOffset(const QString &topic, int queueId, qint64 offset)
{
    topicCombo_->setEditText(topic);
    if (queueCombo_->findData(queueId) < 0)
        queueCombo_->addItem(tr("Queue %1").arg(queueId), queueId);
    queueCombo_->setCurrentIndex(queueCombo_->findData(queueId));
    startMode_->setCurrentIndex(0);
    offsetEdit_->setText(QString::number(offset));
    browse();
}

void MessagesView::browseFromTime(const QString &topic, int queueId, const QDateTime &time)
{
    topicCombo_->setEditText(topic);
    if (queueCombo_->findData(queueId) < 0)
        queueCombo_->addItem(tr("Queue %1").arg(queueId), queueId);
    queueCombo_->setCurrentIndex(queueCombo_->findData(queueId));
    startMode_->setCurrentIndex(1);
    startTime_->setDateTime(time);
    browse();
}

void MessagesView::startBrowse(const QString &topic, const client::BrowseStart &start)
{
    if (topic.isEmpty()) {
        showBanner(tr("Choose a topic to browse."), true);
        return;
    }
    if (!connection_.isConnected())
        return;
    const uint64_t generation = ++generation_;
    query_ = Query::Browse;
    repeat_ = [this, topic, start] { startBrowse(topic, start); };
    busy_ = true;
    queryError_.clear();
    resultText_.clear();
    cursor_ = {};
    showBanner({}, false);
    model_->clear();
    updateEmptyState();
    const QString where = start.queueId >= 0 ? tr("queue %1 of %2").arg(start.queueId).arg(topic) : topic;
    const QString from = start.timestamp
                             ? tr("from %1").arg(timeText(QDateTime::fromMSecsSinceEpoch(*start.timestamp)))
                             : tr("from offset %1").arg(start.offset);
    connection_.run(
        this, [topic = topic.toStdString(), start](client::AdminClient &admin) { return openAndRead(admin, topic, start); },
        [this, generation, where, from](PageResult page) {
            if (generation != generation_)
                return;
            cursor_ = std::move(page.cursor);
            emptyReason_ = tr("No messages in %1 %2. Send one with “Send test message…”, or start earlier.")
                               .arg(where, from);
            resultText_ = tr("Browsing %1 %2").arg(where, from);
            model_->setMessages(std::move(page.messages), page.status.ok && !cursor_.atEnd());
            finishQuery(page.status, tr("%1 could not be read: %2").arg(where));
        });
}

void MessagesView::loadMore()
{
    if (model_->canFetchMore({}))
        model_->fetchMore({});
}

void MessagesView::fetchNextPage()
{
    if (query_ != Query::Browse || !connection_.isConnected()) {
        model_->setFetching(false);
        return;
    }
    const uint64_t generation = generation_;
    busy_ = true;
    updateEmptyState();
    connection_.run(
        this,
        [cursor = cursor_](client::AdminClient &admin) mutable {
            PageResult page;
            client::Result<std::vector<common::StoredMessage>> read =
                client::browseNext(admin, cursor, MessagesView::kPageSize);
            page.status = read.status();
            page.messages = std::move(read.value);
            page.cursor = std::move(cursor);
            return page;
        },
        [this, generation](PageResult page) {
            if (generation != generation_)
                return;
            if (page.status.ok)
                cursor_ = std::move(page.cursor);
            model_->appendMessages(std::move(page.messages), !cursor_.atEnd());
            finishQuery(page.status, tr("The next page could not be read: %1"));
        });
}

void MessagesView::finishQuery(const client::Status &status, const QString &errorFormat)
{
    busy_ = false;
    if (!status.ok) {
        queryError_ = errorFormat.arg(errorText(status));
        showBanner(queryError_, true);
    }
    if (query_ == Query::Browse) {
        QString shown = tr("%n message(s) shown", nullptr, model_->rowCount());
        shown += model_->hasMore() ? tr(" — more follow as you scroll") : tr(" — the end of the queue(s)");
        resultText_ = resultText_.section(QStringLiteral(" · "), 0, 0) + QStringLiteral(" · ") + shown;
    }
    updateEmptyState();
    emit queryFinished();
}

void MessagesView::lookup()
{
    const QString topic = topicCombo_->currentText().trimmed();
    const QString text = lookupEdit_->text().trimmed();
    if (lookupMode_->currentIndex() == 1)
        lookupByKey(topic, text);
    else
        lookupById(topic, text);
}

void MessagesView::lookupById(const QString &topic, const QString &msgId)
{
    topicCombo_->setEditText(topic);
    lookupMode_->setCurrentIndex(0);
    lookupEdit_->setText(msgId);
    if (topic.isEmpty() || msgId.isEmpty()) {
        showBanner(tr("Enter a topic and a message ID to look up."), true);
        return;
    }
    if (!connection_.isConnected())
        return;
    const uint64_t generation = ++generation_;
    query_ = Query::ById;
    repeat_ = [this, topic, msgId] { lookupById(topic, msgId); };
    busy_ = true;
    queryError_.clear();
    showBanner({}, false);
    model_->clear();
    updateEmptyState();
    connection_.run(
        this,
        [topic = topic.toStdString(), id = msgId.toStdString()](client::AdminClient &admin) {
            return admin.queryMessageById(topic, id);
        },
        [this, generation, topic, msgId](client::Result<common::StoredMessage> found) {
            if (generation != generation_)
                return;
            emptyReason_ = tr("No message with ID %1 in topic %2.\nAn offset message ID has 32 hex digits (56 for "
                              "IPv6) and names the broker that stored it; a UNIQ_KEY is the ID the producer gave. "
                              "Check the topic, or look the message up by key.")
                               .arg(msgId, topic);
            std::vector<common::StoredMessage> rows;
            const bool notFound = found.isNotFound();
            if (found.ok)
                rows.push_back(std::move(found.value));
            resultText_ = found.ok ? tr("The message with ID %1").arg(msgId) : tr("No message with ID %1").arg(msgId);
            model_->setMessages(std::move(rows), false);
            finishQuery(notFound ? client::Status::success() : found.status(), tr("The lookup failed: %1"));
            if (model_->rowCount() == 1)
                selectRow(0);
        });
}

void MessagesView::lookupByKey(const QString &topic, const QString &key, const QDateTime &begin, const QDateTime &end)
{
    topicCombo_->setEditText(topic);
    lookupMode_->setCurrentIndex(1);
    lookupEdit_->setText(key);
    if (begin.isValid() && end.isValid()) {
        keyBegin_->setDateTime(begin);
        keyEnd_->setDateTime(end);
        keyRangeTouched_ = true;
    }
    resetKeyRangeIfUntouched();
    if (topic.isEmpty() || key.isEmpty()) {
        showBanner(tr("Enter a topic and a key to look up."), true);
        return;
    }
    if (!connection_.isConnected())
        return;
    const QDateTime from = keyBegin_->dateTime();
    const QDateTime to = keyEnd_->dateTime();
    const uint64_t generation = ++generation_;
    query_ = Query::ByKey;
    repeat_ = [this, topic, key] { lookupByKey(topic, key); };
    busy_ = true;
    queryError_.clear();
    showBanner({}, false);
    model_->clear();
    updateEmptyState();
    connection_.run(
        this,
        [topic = topic.toStdString(), key = key.toStdString(), begin = from.toMSecsSinceEpoch(),
         end = to.toMSecsSinceEpoch()](client::AdminClient &admin) {
            return admin.queryMessageByKey(topic, key, kMaxKeyResults, begin, end);
        },
        [this, generation, topic, key, from, to](client::Result<std::vector<common::StoredMessage>> found) {
            if (generation != generation_)
                return;
            emptyReason_ = tr("No message with key “%1” in topic %2 stored between %3 and %4.\nWiden the time "
                              "range, check the topic, or browse the queues.")
                               .arg(key, topic, timeText(from), timeText(to));
            const int count = found.ok ? static_cast<int>(found.value.size()) : 0;
            resultText_ = count >= kMaxKeyResults
                              ? tr("Key “%1”: the first %2 shown — narrow the time range to see others")
                                    .arg(key)
                                    .arg(kMaxKeyResults)
                              : tr("Key “%1”: %n message(s)", nullptr, count).arg(key);
            model_->setMessages(std::move(found.value), false);
            finishQuery(found.status(), tr("The lookup failed: %1"));
            if (model_->rowCount() == 1)
                selectRow(0);
        });
}

SendMessageDialog *MessagesView::openSendDialog()
{
    auto *dialog = new SendMessageDialog(topicCombo_->currentText().trimmed(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SendMessageDialog::sendRequested, this,
            [this, dialog](const client::Message &message) { sendMessage(dialog, message); });
    dialog->open();
    return dialog;
}

void MessagesView::sendMessage(SendMessageDialog *dialog, const client::Message &message)
{
    if (!connection_.isConnected())
        return;
    dialog->showSending();
    QPointer<SendMessageDialog> guard(dialog);
    connection_.run(
        this,
        [connection = &connection_, message](client::AdminClient &) -> client::Result<client::SendResult> {
            std::shared_ptr<client::Producer> producer = connection->producer();
            if (!producer)
                return client::Status::failure(client::clientCode::kNoRoute, "not connected");
            return producer->send(message);
        },
        [this, guard, message](client::Result<client::SendResult> sent) {
            if (guard) {
                if (sent.ok)
                    guard->showResult(sent.value);
                else
                    guard->showError(errorText(sent.status()));
            }
            if (!sent.ok) {
                showBanner(tr("The message was not sent to %1: %2")
                               .arg(QString::fromStdString(message.topic), errorText(sent.status())),
                           true);
                emit messageSent(false);
                return;
            }
            const QString topic = QString::fromStdString(message.topic);
            showBanner(tr("Sent to %1: message ID %2, queue %3, queue offset %4.")
                           .arg(topic, QString::fromStdString(sent.value.msgId))
                           .arg(sent.value.queue.queueId)
                           .arg(sent.value.queueOffset),
                       false);
            // Ready to find it: the topic and its first key (or its id) in the lookup bar.
            topicCombo_->setEditText(topic);
            if (!message.keys.empty()) {
                lookupMode_->setCurrentIndex(1);
                lookupEdit_->setText(QString::fromStdString(message.keys.front()));
            } else {
                lookupMode_->setCurrentIndex(0);
                lookupEdit_->setText(QString::fromStdString(sent.value.msgId));
            }
            emit messageSent(true);
        });
}

void MessagesView::readTrace(const QString &msgId)
{
    if (!connection_.isConnected())
        return;
    connection_.run(
        this,
        [id = msgId.toStdString()](client::AdminClient &admin) { return admin.queryMessageTrace(id); },
        [this, msgId](const client::Result<client::MessageTrace> &trace) {
            if (detail_->uniqKey() != msgId)
                return; // another message is shown now
            if (trace.ok)
                detail_->traceView()->showTrace(msgId, trace.value, detail_->storeTimestamp());
            else
                detail_->traceView()->showError(msgId, QString::fromStdString(trace.error));
        });
}

} // namespace mqdesk::ui
