// The Messages page's resend of dead letters: messages shown from %DLQ%<group> are sent to
// %RETRY%<group>, so that that group — and only it — consumes them again (the dead letters stay
// where they are, as with the Dashboard's resend). What is resent: the selected rows, or every
// row shown when none is selected; one inline confirmation says which and where.

#include "ui/messages/messages_view.h"

#include "broker/client/producer.h"
#include "broker/common/message_properties.h"
#include "ui/connection/cluster_connection.h"
#include "ui/messages/message_table_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

#include <algorithm>
#include <set>

namespace mqdesk::ui {

namespace {

const QString kDlqPrefix = QStringLiteral("%DLQ%");

// The message as its producer sent it, addressed to the group's retry topic: the broker's own
// properties (where it was stored, region, trace switch, the ids it gave it) left out, the rest
// kept — RETRY_TOPIC tells the consumer the topic it was first sent to.
client::Message retryCopy(const common::StoredMessage &stored, const std::string &retryTopic)
{
    static const std::set<std::string_view> kBrokerOwned = {
        common::property::kRealTopic,     common::property::kRealQueueId,   common::property::kCluster,
        common::property::kMsgRegion,     common::property::kTraceSwitch,   common::property::kDelayTimeLevel,
        common::property::kWaitStoreMsgOk, common::property::kUniqClientMessageId, common::property::kTags,
        common::property::kKeys};
    client::Message message;
    message.topic = retryTopic;
    message.body = stored.body;
    for (const auto &[key, value] : stored.properties) {
        if (!kBrokerOwned.contains(key))
            message.properties[key] = value;
    }
    message.tags = std::string(stored.properties.get(common::property::kTags).value_or(""));
    if (const auto keys = stored.properties.get(common::property::kKeys))
        message.keys.emplace_back(*keys);
    if (!message.properties.contains(std::string(common::property::kRetryTopic)))
        message.properties[std::string(common::property::kRetryTopic)] = stored.topic;
    return message;
}

} // namespace

QString MessagesView::deadLetterGroup() const
{
    const QString topic = topicCombo_->currentText().trimmed();
    return topic.startsWith(kDlqPrefix) ? topic.mid(kDlqPrefix.size()) : QString();
}

QWidget *MessagesView::buildResendBar()
{
    resendBar_ = new QWidget(this);
    resendBar_->setObjectName(QStringLiteral("messagesResendBar"));
    resendLabel_ = new QLabel(resendBar_);
    resendLabel_->setWordWrap(true);
    auto *confirm = new QPushButton(tr("Resend"), resendBar_);
    confirm->setObjectName(QStringLiteral("confirmResend"));
    auto *cancel = new QPushButton(tr("Cancel"), resendBar_);
    auto *layout = new QHBoxLayout(resendBar_);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(resendLabel_, 1);
    layout->addWidget(confirm);
    layout->addWidget(cancel);
    resendBar_->setAutoFillBackground(true);
    resendBar_->setBackgroundRole(QPalette::AlternateBase);
    resendBar_->hide();
    connect(confirm, &QPushButton::clicked, this, &MessagesView::confirmResend);
    connect(cancel, &QPushButton::clicked, this, [this] {
        pendingResend_.clear();
        resendBar_->hide();
    });
    return resendBar_;
}

QString MessagesView::resendConfirmationText() const
{
    return resendBar_->isVisible() ? resendLabel_->text() : QString();
}

void MessagesView::updateRowActions()
{
    resendButton_->setVisible(!deadLetterGroup().isEmpty());
    const bool rows = connection_.isConnected() && model_->rowCount() > 0;
    resendButton_->setEnabled(rows);
    exportButton_->setEnabled(model_->rowCount() > 0);
}

std::vector<common::StoredMessage> MessagesView::chosenMessages(bool &selected) const
{
    std::vector<int> rows;
    for (const QModelIndex &index : table()->selectionModel()->selectedRows())
        rows.push_back(index.row());
    selected = !rows.empty();
    if (!selected) {
        for (int row = 0; row < table()->model()->rowCount(); ++row)
            rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end());
    std::vector<common::StoredMessage> messages;
    for (int row : rows) { // the table shows the model itself (it sorts in place)
        if (const common::StoredMessage *message = model_->message(row))
            messages.push_back(*message);
    }
    return messages;
}

void MessagesView::requestResend()
{
    const QString group = deadLetterGroup();
    if (group.isEmpty() || model_->rowCount() == 0)
        return;
    bool selected = false;
    pendingResend_ = chosenMessages(selected);
    const int count = static_cast<int>(pendingResend_.size());
    resendLabel_->setText(
        (selected ? tr("Resend the %n selected dead letter(s) to consumer group %1?", "", count)
                  : tr("Resend all %n dead letter(s) shown to consumer group %1?", "", count))
            .arg(group)
        + QLatin1Char(' ')
        + tr("They are sent to %1, so only %2 consumes them again; the dead letters stay in %3.")
              .arg(QStringLiteral("%RETRY%") + group, group, kDlqPrefix + group));
    resendBar_->show();
}

void MessagesView::confirmResend()
{
    const QString group = deadLetterGroup();
    resendBar_->hide();
    if (group.isEmpty() || pendingResend_.empty())
        return;
    auto producer = connection_.producer();
    if (!producer) {
        showBanner(tr("Not connected: nothing was resent."), true);
        return;
    }
    std::vector<common::StoredMessage> messages = std::move(pendingResend_);
    pendingResend_.clear();
    connection_.run(
        this,
        [producer, messages = std::move(messages), retryTopic = "%RETRY%" + group.toStdString()](client::AdminClient &) {
            std::pair<int, std::string> outcome{0, {}}; // sent, the first failure
            int failed = 0;
            for (const common::StoredMessage &stored : messages) {
                const auto sent = producer->send(retryCopy(stored, retryTopic));
                if (sent.ok) {
                    ++outcome.first;
                } else if (failed++ == 0) {
                    outcome.second = sent.error;
                }
            }
            return std::make_pair(outcome, failed);
        },
        [this, group](const std::pair<std::pair<int, std::string>, int> &result) {
            const auto &[outcome, failed] = result;
            if (failed == 0)
                showBanner(tr("Resent %n dead letter(s) to %1.", "", outcome.first).arg(group), false);
            else
                showBanner(tr("Resent %1 dead letter(s) to %2; %3 failed: %4")
                               .arg(outcome.first)
                               .arg(group)
                               .arg(failed)
                               .arg(QString::fromStdString(outcome.second)),
                           true);
            emit resendFinished(outcome.first, failed);
        });
}

} // namespace mqdesk::ui
