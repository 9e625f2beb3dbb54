// ReceiptRenewals (broker/grpc/receipt_renewals.h) without a server: which receipts are due and
// for how long (the Java proxy's renewal steps), a take() during a renewal answered with the
// renewed handle, failures and the renewal limit dropping a receipt, a leaving client's receipts
// forgotten. The end-to-end renewal (a PushConsumer consuming past its invisible time) is
// conformance_python_push_slow_consumer.

#include "broker/grpc/receipt_renewals.h"

#include "test_support.h"

#include <QtTest>

using mqdesk::grpc::ReceiptRenewals;

namespace {

ReceiptRenewals::Key key(const std::string &client, const std::string &message)
{
    return {client, "G", message, "handle-of-" + message};
}

} // namespace

class ReceiptRenewalsTest : public QObject
{
    Q_OBJECT

private slots:
    void renewalStepsAreJavas()
    {
        const std::vector<int64_t> minutes = {1, 3, 5, 6, 10, 30, 60, 60, 60};
        for (size_t i = 0; i < minutes.size(); ++i)
            QCOMPARE(ReceiptRenewals::renewStepMillis(static_cast<int>(i)), minutes[i] * 60'000);
    }

    void aReceiptIsDueShortlyBeforeItsTimeAndOnlyOnceAtATime()
    {
        ReceiptRenewals renewals;
        renewals.add(key("c1", "m1"), "T", 1'000, 61'000);
        QVERIFY(renewals.due(50'000, 10'000, 3'600'000).empty()); // 11 s left
        std::vector<ReceiptRenewals::Due> due = renewals.due(51'000, 10'000, 3'600'000);
        QCOMPARE(due.size(), size_t{1});
        QCOMPARE(due[0].handle, std::string("handle-of-m1"));
        QCOMPARE(due[0].topic, std::string("T"));
        QCOMPARE(due[0].invisibleMillis, int64_t{60'000});
        QVERIFY(renewals.due(52'000, 10'000, 3'600'000).empty()); // under way
        renewals.renewed(due[0].key, std::make_pair(std::string("h2"), int64_t{112'000}));
        QVERIFY(renewals.due(60'000, 10'000, 3'600'000).empty());
        due = renewals.due(102'000, 10'000, 3'600'000);
        QCOMPARE(due.size(), size_t{1});
        QCOMPARE(due[0].handle, std::string("h2"));
        QCOMPARE(due[0].invisibleMillis, int64_t{180'000}); // the second step
    }

    void takeGivesTheLatestHandleAndWaitsForARenewalUnderWay()
    {
        ReceiptRenewals renewals;
        std::string got = "none";
        renewals.take(key("c1", "unknown"), [&](const std::string &h) { got = h; });
        QCOMPARE(got, std::string("handle-of-unknown")); // not kept: the client's own

        renewals.add(key("c1", "m1"), "T", 0, 60'000);
        const auto due = renewals.due(55'000, 10'000, 3'600'000);
        QCOMPARE(due.size(), size_t{1});
        got = "none";
        renewals.take(key("c1", "m1"), [&](const std::string &h) { got = h; });
        QCOMPARE(got, std::string("none")); // waits for the renewal's answer
        renewals.renewed(due[0].key, std::make_pair(std::string("renewed"), int64_t{115'000}));
        QCOMPARE(got, std::string("renewed"));
        QCOMPARE(renewals.size(), size_t{0});

        renewals.add(key("c1", "m2"), "T", 0, 60'000);
        renewals.take(key("c1", "m2"), [&](const std::string &h) { got = h; });
        QCOMPARE(got, std::string("handle-of-m2"));
        QCOMPARE(renewals.size(), size_t{0});
    }

    void failuresAndTheRenewalLimitDropAReceipt()
    {
        ReceiptRenewals renewals;
        renewals.add(key("c1", "m1"), "T", 0, 60'000);
        for (int i = 0; i < ReceiptRenewals::kMaxRetries; ++i) {
            const auto due = renewals.due(55'000, 10'000, 3'600'000);
            QCOMPARE(due.size(), size_t{1});
            renewals.renewed(due[0].key, std::nullopt);
        }
        QCOMPARE(renewals.size(), size_t{0});

        renewals.add(key("c1", "m2"), "T", 0, 60'000);
        QVERIFY(renewals.due(55'000, 10'000, 50'000).empty()); // consumed past renewMaxTimeMillis
        QCOMPARE(renewals.size(), size_t{0});

        // A failure while an ack waits: the ack goes on with the handle there is.
        renewals.add(key("c1", "m3"), "T", 0, 60'000);
        const auto due = renewals.due(55'000, 10'000, 3'600'000);
        std::string got;
        renewals.take(key("c1", "m3"), [&](const std::string &h) { got = h; });
        renewals.renewed(due[0].key, std::nullopt);
        QCOMPARE(got, std::string("handle-of-m3"));
    }

    void aLeavingClientTakesItsReceiptsWithIt()
    {
        ReceiptRenewals renewals;
        renewals.add(key("c1", "m1"), "T", 0, 60'000);
        renewals.add(key("c1", "m2"), "T", 0, 60'000);
        renewals.add(key("c2", "m1"), "T", 0, 60'000);
        renewals.add(key("c10", "m1"), "T", 0, 60'000);
        std::string got;
        const auto due = renewals.due(55'000, 10'000, 3'600'000);
        QCOMPARE(due.size(), size_t{4});
        renewals.take(key("c1", "m1"), [&](const std::string &h) { got = h; });
        renewals.forgetClient("c1");
        QCOMPARE(got, std::string("handle-of-m1"));
        QCOMPARE(renewals.size(), size_t{2});
        renewals.renewed(key("c1", "m2"), std::make_pair(std::string("late"), int64_t{1})); // ignored
        QCOMPARE(renewals.size(), size_t{2});
    }
};

QObject *createReceiptRenewalsTest() { return new ReceiptRenewalsTest; }

#include "tst_receipt_renewals.moc"
