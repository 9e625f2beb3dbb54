#pragma once

// Messages: read what a topic holds without consuming it. Browse one queue or all queues of a
// topic from an offset or from a store time (SEARCH_OFFSET_BY_TIMESTAMP per queue), 32 messages
// a page, the next page read when the table scrolls near its end or on "Load more" (bounded
// pulls as TOOLS_CONSUMER, never a commit); look a message up by its id (offset id or
// UNIQ_KEY) or by key within a time range (at most 64 shown, said so). The selected message's
// fields, properties and body are shown below; a test message can be sent from a dialog. Shown
// messages of a dead-letter topic (%DLQ%<group>) can be resent to their group — the selected ones,
// or all shown — after one inline confirmation (messages_view_resend.cpp); the selected messages
// (or all shown) of any topic can be exported whole, bodies included (message_export.h).
// Every call runs off the GUI thread; results and errors go to the view's banner and empty
// state (a TablePage: ui/widgets/table_page.h).

#include "broker/client/message_browse.h"

#include <QDateTime>
#include "ui/widgets/table_page.h"

#include <functional>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;

namespace mqdesk::ui {

class ClusterConnection;
class MessageDetailPane;
class MessageTableModel;
class SendMessageDialog;

class MessagesView : public TablePage
{
    Q_OBJECT

public:
    static constexpr int kPageSize = 32;
    static constexpr int kMaxKeyResults = 64;

    explicit MessagesView(ClusterConnection &connection, QWidget *parent = nullptr);

    // Browses with the controls' topic, queue and start (the Browse button).
    void browse();
    // Sets the controls and browses: `queueId` -1 for all queues.
    void browseFromOffset(const QString &topic, int queueId, qint64 offset);
    void browseFromTime(const QString &topic, int queueId, const QDateTime &time);
    // Reads the next page of the current browse ("Load more").
    void loadMore();
    // Looks up with the controls (the Find button), or sets them first.
    void lookup();
    void lookupById(const QString &topic, const QString &msgId);
    void lookupByKey(const QString &topic, const QString &key, const QDateTime &begin = {},
                     const QDateTime &end = {});
    // Fetches the topic list for the topic box again; F5 also repeats the last query.
    void refresh();
    // Opens the send dialog for the current topic.
    SendMessageDialog *openSendDialog();
    void selectRow(int row);

    bool isBusy() const { return busy_; }
    QString bannerText() const;
    QString emptyStateText() const { return emptyText(); }
    QString resultText() const;
    MessageTableModel *messageModel() const { return model_; }
    MessageDetailPane *detailPane() const { return detail_; }
    QComboBox *topicBox() const { return topicCombo_; }
    QPushButton *resendButton() const { return resendButton_; }
    QPushButton *exportButton() const { return exportButton_; }
    QString resendConfirmationText() const;
    // The inline confirmation's Confirm: resends what requestResend() named.
    void confirmResend();

signals:
    // A browse, a page or a lookup finished (ok or not).
    void queryFinished();
    // A send from the dialog finished.
    void messageSent(bool ok);
    // A resend of dead letters finished: how many were sent again, how many failed.
    void resendFinished(int sent, int failed);
    // An export finished: the file written (empty when it failed or was cancelled).
    void exportFinished(const QString &path);

private:
    enum class Query { None, Browse, ById, ByKey };

    QWidget *buildBrowseBar();
    QWidget *buildLookupBar();
    void startBrowse(const QString &topic, const client::BrowseStart &start);
    void fetchNextPage();
    void fillQueues();
    void sendMessage(SendMessageDialog *dialog, const client::Message &message);
    void resetKeyRangeIfUntouched();
    void finishQuery(const client::Status &status, const QString &emptyReason);
    void showBanner(const QString &text, bool error);
    void updateEmptyState();
    void updateControls();
    void onCurrentChanged();
    // Reads the trace of `msgId` for the detail pane's Trace tab (the shown message's, if it
    // still is when the answer comes).
    void readTrace(const QString &msgId);
    // messages_view_resend.cpp: the dead letters' group (empty unless a %DLQ% topic is shown),
    // the confirmation bar, and the resend itself.
    QString deadLetterGroup() const;
    QWidget *buildResendBar();
    void requestResend();
    // The Resend and Export buttons: shown and enabled by what the table holds.
    void updateRowActions();
    // The selected rows' messages, in table order, or every row's when none is selected
    // (`selected` says which).
    std::vector<common::StoredMessage> chosenMessages(bool &selected) const;
    // Export…: asks for a file (.jsonl or .csv) and writes the chosen messages to it.
    void exportMessages();

    ClusterConnection &connection_;
    MessageTableModel *model_ = nullptr;
    QComboBox *topicCombo_ = nullptr;
    QComboBox *queueCombo_ = nullptr;
    QComboBox *startMode_ = nullptr;
    QLineEdit *offsetEdit_ = nullptr;
    QDateTimeEdit *startTime_ = nullptr;
    QPushButton *browseButton_ = nullptr;
    QComboBox *lookupMode_ = nullptr;
    QLineEdit *lookupEdit_ = nullptr;
    QDateTimeEdit *keyBegin_ = nullptr;
    QDateTimeEdit *keyEnd_ = nullptr;
    QWidget *keyRange_ = nullptr;
    QPushButton *findButton_ = nullptr;
    QPushButton *sendButton_ = nullptr;
    QPushButton *loadMoreButton_ = nullptr;
    QPushButton *resendButton_ = nullptr;
    QPushButton *exportButton_ = nullptr;
    QWidget *resendBar_ = nullptr;
    QLabel *resendLabel_ = nullptr;
    std::vector<common::StoredMessage> pendingResend_;
    QLabel *resultLabel_ = nullptr;
    MessageDetailPane *detail_ = nullptr;
    QTimer *queueTimer_ = nullptr;

    Query query_ = Query::None;
    bool busy_ = false;
    bool keyRangeTouched_ = false;
    uint64_t generation_ = 0;
    uint64_t queueGeneration_ = 0;
    client::BrowseCursor cursor_;
    std::function<void()> repeat_; // the last query, for F5
    QString queryError_;
    QString emptyReason_;
    QString resultText_;
};

} // namespace mqdesk::ui
