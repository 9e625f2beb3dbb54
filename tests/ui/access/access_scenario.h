#pragma once

// The Access control page driven as a person drives it, shared by the test against an MQDesk
// broker (tst_access_view.cpp) and the one against Java RocketMQ 5.5 (tst_access_java.cpp):
// a user and a policy entry made with the page's dialogs, each step then met by a real producer
// signed as that user at the broker, and "what may this user do?" answered as the broker
// decides. Each step checks with QVERIFY (so the caller returns on QTest::currentTestFailed()).

#include "ui_test_util.h"
#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "ui/access/access_model.h"
#include "ui/access/access_view.h"
#include "ui/main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTableWidget>

#include <string>

namespace mqdesk::test {

template <typename T>
T *child(QObject *parent, const char *name)
{
    return parent->findChild<T *>(QString::fromLatin1(name));
}

// The page of type View among `window`'s pages; nullptr when there is none.
template <typename View>
View *pageOf(ui::MainWindow &window)
{
    for (int i = 0; i < window.pages()->count(); ++i)
        if (auto *view = qobject_cast<View *>(window.pages()->widget(i)))
            return view;
    return nullptr;
}

// Clicks row `row` of `table` (scrolled into view first).
inline void clickTableRow(QTableView *table, int row)
{
    const QModelIndex index = table->model()->index(row, 0);
    table->scrollTo(index);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
}

class AccessScenario
{
public:
    // `page`: the Access control page, shown and listing the users of the cluster at `namesrv`
    // (read as `root`, a Super user); `topic` exists there.
    AccessScenario(QObject *context, ui::AccessView *page, std::string namesrv, acl::Credentials root,
                   std::string topic, int timeoutMs)
        : context_(context), page_(page), namesrv_(std::move(namesrv)), root_(std::move(root)),
          topic_(std::move(topic)), timeoutMs_(timeoutMs), changed_(page, &ui::AccessView::changeFinished)
    {
    }

    // alice created (refused a send), given Topic:<prefix>* Pub (sends; the answer names the
    // entry), the entry edited to Deny (refused again), deleted, alice disabled and deleted.
    // Screenshots <prefix>-*.
    void runUserLifecycle(const QString &screenshotPrefix)
    {
        const QString topicPrefix = QString::fromStdString(topic_.substr(0, topic_.size() - 2)) + u'*';

        whenDialogOpens<QDialog>(context_, timeoutMs_, [screenshotPrefix](QDialog *dialog) {
            QTest::keyClicks(child<QLineEdit>(dialog, "userName"), QStringLiteral("alice"));
            QTest::keyClicks(child<QLineEdit>(dialog, "userPassword"), QStringLiteral("alice-secret"));
            saveScreenshot(*dialog, screenshotPrefix + QStringLiteral("-new-user"));
            clickDialogButton(dialog, QDialogButtonBox::Ok);
        });
        QVERIFY(click("newUserButton"));
        QVERIFY2(page_->bannerText().contains(QStringLiteral("Created user alice")), qPrintable(page_->bannerText()));
        QVERIFY(selectUser(QStringLiteral("alice")));
        QVERIFY(!sendAsAlice().ok);

        whenDialogOpens<QDialog>(context_, timeoutMs_, [screenshotPrefix, topicPrefix](QDialog *dialog) {
            QTest::keyClicks(child<QLineEdit>(dialog, "entryResourceName"), topicPrefix);
            QTest::mouseClick(child<QCheckBox>(dialog, "entryActionPub"), Qt::LeftButton);
            saveScreenshot(*dialog, screenshotPrefix + QStringLiteral("-new-entry"));
            clickDialogButton(dialog, QDialogButtonBox::Ok);
        });
        QVERIFY(click("newEntryButton"));
        QTRY_COMPARE_WITH_TIMEOUT(page_->entryModel()->rowCount(), 1, timeoutMs_);
        QCOMPARE(page_->entryModel()->index(0, ui::PolicyEntryModel::ResourceColumn).data().toString(),
                 QStringLiteral("Topic:") + topicPrefix);
        const client::Result<client::SendResult> sent = sendAsAlice();
        QVERIFY2(sent.ok, sent.error.c_str());
        QCOMPARE(answer(QString::fromStdString(topic_)),
                 QStringLiteral("Pub allowed; Sub denied; Create denied; Update denied; Delete denied; Get denied; "
                                "List denied"));
        const QString why = page_->answerTable()->item(0, 2)->text();
        QVERIFY2(why.contains(QStringLiteral("Custom policy: Topic:%1 Pub Allow").arg(topicPrefix)), qPrintable(why));
        QCOMPARE(answer(QStringLiteral("payments")).section(u';', 0, 0), QStringLiteral("Pub denied"));
        saveScreenshot(*page_->window(), screenshotPrefix + QStringLiteral("-what-may-alice-do"));

        clickTableRow(page_->entryTable(), 0);
        whenDialogOpens<QDialog>(context_, timeoutMs_, [](QDialog *dialog) {
            auto *decision = child<QComboBox>(dialog, "entryDecision");
            decision->setFocus();
            QTest::keyClick(decision, Qt::Key_Down);
            QCOMPARE(decision->currentIndex(), 1);
            clickDialogButton(dialog, QDialogButtonBox::Ok);
        });
        QVERIFY(click("editEntryButton"));
        QCOMPARE(page_->entryModel()->index(0, ui::PolicyEntryModel::DecisionColumn).data().toString(),
                 QStringLiteral("Deny"));
        QVERIFY(!sendAsAlice().ok);
        QCOMPARE(answer(QString::fromStdString(topic_)).section(u';', 0, 0), QStringLiteral("Pub denied"));

        clickTableRow(page_->entryTable(), 0);
        QVERIFY(click("deleteEntryButton"));
        QCOMPARE(page_->entryModel()->rowCount(), 0);

        whenDialogOpens<QDialog>(context_, timeoutMs_, [](QDialog *dialog) {
            auto *status = child<QComboBox>(dialog, "userStatus");
            status->setFocus();
            QTest::keyClick(status, Qt::Key_Down);
            clickDialogButton(dialog, QDialogButtonBox::Ok);
        });
        QVERIFY(click("editUserButton"));
        QVERIFY(selectUser(QStringLiteral("alice")));
        const int row = page_->userModel()->rowOf(QStringLiteral("alice"));
        QCOMPARE(page_->userModel()->index(row, ui::UserTableModel::StatusColumn).data().toString(),
                 QStringLiteral("disabled"));
        answer(QString::fromStdString(topic_));
        QVERIFY(page_->answerTable()->item(0, 2)->text().contains(QStringLiteral("disabled")));

        whenDialogOpens<QMessageBox>(context_, timeoutMs_, [](QMessageBox *box) {
            QTest::mouseClick(child<QPushButton>(box, "confirmDeleteUser"), Qt::LeftButton);
        });
        QVERIFY(click("deleteUserButton"));
        QCOMPARE(page_->userModel()->rowOf(QStringLiteral("alice")), -1);
        QVERIFY(!brokerHasUser("alice"));
        saveScreenshot(*page_->window(), screenshotPrefix + QStringLiteral("-after-delete"));
    }

    // Clicks the page's button `name` and waits for the change it starts; its outcome.
    bool click(const char *name)
    {
        changed_.clear();
        QTest::mouseClick(child<QPushButton>(page_, name), Qt::LeftButton);
        return changed_.wait(timeoutMs_) && changed_.first().at(0).toBool();
    }

    // Whether the broker's first master lists `username` (asked as root).
    bool brokerHasUser(const std::string &username) const
    {
        client::ClientConfig config;
        config.namesrvAddr = namesrv_;
        config.credentials = root_;
        client::AdminClient admin(config);
        const auto masters = admin.masterAddresses();
        bool found = false;
        if (masters.ok)
            if (const auto user = admin.api().getUser(masters.value.front(), username); user.ok)
                found = user.value.username == username; // an unknown user: ok, no body
        admin.shutdown();
        return found;
    }

private:
    client::Result<client::SendResult> sendAsAlice() const
    {
        client::ClientConfig config;
        config.namesrvAddr = namesrv_;
        config.credentials = {"alice", "alice-secret", {}};
        client::ProducerOptions options;
        options.group = "PG_ACCESS_TEST";
        options.retryTimesWhenSendFailed = 0;
        client::Producer producer(config, options);
        producer.start();
        client::Message message;
        message.topic = topic_;
        message.setBody("hi");
        client::Result<client::SendResult> result = producer.send(message);
        producer.shutdown();
        return result;
    }

    bool selectUser(const QString &name)
    {
        QAbstractItemModel *rows = page_->table()->model();
        for (int i = 0; i < rows->rowCount(); ++i) {
            if (rows->index(i, ui::UserTableModel::NameColumn).data().toString() == name) {
                clickTableRow(page_->table(), i);
                return true;
            }
        }
        return false;
    }

    // Asks "what may the selected user do?" on topic `name` by typing and clicking Answer;
    // "Pub allowed; Sub denied; …".
    QString answer(const QString &name)
    {
        auto *field = child<QLineEdit>(page_, "questionName");
        field->selectAll();
        QTest::keyClick(field, Qt::Key_Delete);
        QTest::keyClicks(field, name);
        QTest::mouseClick(child<QPushButton>(page_, "answerButton"), Qt::LeftButton);
        QStringList parts;
        QTableWidget *table = page_->answerTable();
        for (int i = 0; i < table->rowCount(); ++i)
            parts << table->item(i, 0)->text() + u' ' + table->item(i, 1)->text();
        return parts.join(QStringLiteral("; "));
    }

    QObject *context_;
    ui::AccessView *page_;
    std::string namesrv_;
    acl::Credentials root_;
    std::string topic_;
    int timeoutMs_;
    QSignalSpy changed_;
};

} // namespace mqdesk::test
