// SerialFetch (ui/widgets/serial_fetch.h), the list pages' refresh rule, driven as a page drives
// it: requests while a fetch is under way, answers in and out of order, a lost connection.

#include "ui/widgets/serial_fetch.h"

#include <QtTest/QtTest>

using mqdesk::ui::SerialFetch;
using Outcome = SerialFetch::Outcome;

class SerialFetchTest : public QObject
{
    Q_OBJECT

private slots:
    void anAnswerWithNothingAskedMeanwhileIsUsed()
    {
        SerialFetch fetch;
        QVERIFY(!fetch.busy());
        QVERIFY(fetch.request());
        const auto ticket = fetch.begin();
        QVERIFY(fetch.busy());
        QCOMPARE(fetch.finish(ticket), Outcome::Use);
        QVERIFY(!fetch.busy());
        QVERIFY(fetch.isLatest(ticket)); // a follow-up pass of this answer may still land
    }

    void requestsWhileBusyMakeOneMoreFetchAndDropTheOlderAnswer()
    {
        SerialFetch fetch;
        QVERIFY(fetch.request());
        const auto first = fetch.begin();
        QVERIFY(!fetch.request()); // F5
        QVERIFY(!fetch.request()); // a change, then another: still one more fetch
        QCOMPARE(fetch.finish(first), Outcome::FetchAgain);
        QVERIFY(!fetch.busy());
        QVERIFY(fetch.request());
        const auto second = fetch.begin();
        QVERIFY(!fetch.isLatest(first)); // the first answer's follow-ups are dropped now
        QCOMPARE(fetch.finish(second), Outcome::Use);
    }

    void cancelDropsTheAnswerUnderWayAndWhatWasAsked()
    {
        SerialFetch fetch;
        fetch.request();
        const auto ticket = fetch.begin();
        QVERIFY(!fetch.request());
        fetch.cancel(); // disconnected
        QVERIFY(!fetch.busy());
        QCOMPARE(fetch.finish(ticket), Outcome::Stale);
        QVERIFY(!fetch.isLatest(ticket));
        QVERIFY(fetch.request()); // connected again: a fetch starts at once
        const auto next = fetch.begin();
        QCOMPARE(fetch.finish(next), Outcome::Use); // the request from before the cancel is gone
    }

    void anAnswerDeliveredTwiceOrLateIsStale()
    {
        SerialFetch fetch;
        fetch.request();
        const auto first = fetch.begin();
        QCOMPARE(fetch.finish(first), Outcome::Use);
        QCOMPARE(fetch.finish(first), Outcome::Stale);
        fetch.request();
        const auto second = fetch.begin();
        QCOMPARE(fetch.finish(first), Outcome::Stale); // an old answer cannot end the fetch under way
        QVERIFY(fetch.busy());
        QCOMPARE(fetch.finish(second), Outcome::Use);
    }
};

QTEST_APPLESS_MAIN(SerialFetchTest)
#include "tst_serial_fetch.moc"
