// PopLongPolling on its own, without a broker: what wakes a parked POP and what leaves it parked.

#include "broker/server/pop/pop_long_polling.h"

#include <QtTest/QtTest>

#include <string>
#include <utility>
#include <vector>

using namespace mqdesk;

class PopLongPollingTest : public QObject
{
    Q_OBJECT

private slots:
    // A wake that falls between a pop's read and its park (an arrival, an ack, an orderly nack
    // releasing the queue) is not lost: the park itself wakes the request when a watched topic was
    // notified since the read; notifications elsewhere leave it parked.
    void aParkAfterAMissedWakeWakesAtOnce()
    {
        server::pop::PopLongPolling polling("PopLongPollingTest", 16);
        std::vector<std::pair<std::string, bool>> woken; // (group, timed out)
        const auto parkedRequest = [&](const std::string &group, uint64_t seen) {
            server::pop::ParkedRequest request;
            request.topics = {"WatchedTopic", "%RETRY%" + group + "_WatchedTopic"};
            request.group = group;
            request.deadlineMillis = server::pop::steadyMillis() + 60000;
            request.notificationsSeen = seen;
            request.wake = [&woken](server::pop::ParkedRequest parked, bool timedOut) {
                woken.emplace_back(parked.group, timedOut);
            };
            return request;
        };
        const std::vector<std::string> watched = {"WatchedTopic", "%RETRY%missed_WatchedTopic"};
        const uint64_t beforeRead = polling.notificationsOf(watched);
        polling.notifyMessageArriving("SomeOtherTopic", 0);
        QCOMPARE(polling.notificationsOf(watched), beforeRead);
        polling.notifyMessageArriving("WatchedTopic", 3); // after the read, before the park
        server::pop::ParkedRequest missed = parkedRequest("missed", beforeRead);
        QVERIFY(polling.park(missed));
        QCOMPARE(woken, (std::vector<std::pair<std::string, bool>>{{"missed", false}}));
        QCOMPARE(polling.parkedCount(), size_t{0});

        server::pop::ParkedRequest current =
            parkedRequest("current", polling.notificationsOf({"WatchedTopic", "%RETRY%current_WatchedTopic"}));
        QVERIFY(polling.park(current));
        QCOMPARE(polling.parkedCount(), size_t{1});
        polling.notifyMessageArriving("WatchedTopic", 0);
        QCOMPARE(woken.size(), size_t{2});
        QCOMPARE(woken.back(), (std::pair<std::string, bool>{"current", false}));
    }
};

QObject *createPopLongPollingTest() { return new PopLongPollingTest; }

#include "tst_pop_long_polling.moc"
