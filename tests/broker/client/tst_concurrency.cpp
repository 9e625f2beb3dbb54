// Several producers, consumers and an admin changing the broker's config, all at once over real
// sockets against one in-process broker. Run under ThreadSanitizer by the tsan preset (and under
// ASan by asan): it is the engine's concurrent-traffic test. Proves that every acknowledged
// message is pulled back exactly once while flushDiskType flips between SYNC and ASYNC.

#include "../server/broker_test_util.h"

#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "broker/client/pull_consumer.h"
#include "test_support.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace mqdesk;
using namespace mqdesk::client;
using mqdesk::test::TestBroker;

namespace {

constexpr int kProducers = 4;
constexpr int kMessagesPerProducer = 300;
constexpr int kQueues = 4;
const std::string kTopic = "ConcurrentTraffic";

} // namespace

class ConcurrencyTest : public QObject
{
    Q_OBJECT

private slots:
    void producersConsumersAndConfigUpdatesTogether()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        ClientConfig config;
        config.namesrvAddr = broker.namesrvAddress();

        AdminClient admin(config);
        remoting::TopicConfigData topic;
        topic.topicName = kTopic;
        topic.readQueueNums = kQueues;
        topic.writeQueueNums = kQueues;
        const Status created = admin.createTopicOnBroker(broker.brokerAddress(), topic);
        QVERIFY2(created.ok, created.error.c_str());

        std::atomic<bool> producing{true};
        std::atomic<int> sendFailures{0};
        std::mutex ackedMutex;
        std::set<std::string> acked; // bodies the broker acknowledged with SEND_OK
        const auto started = std::chrono::steady_clock::now();

        std::vector<std::thread> producers;
        std::vector<int> ackedPerProducer(kProducers, 0); // under ackedMutex
        std::atomic<int> producerStartFailures{0};
        for (int p = 0; p < kProducers; ++p) {
            producers.emplace_back([&, p] {
                Producer producer(config, {.group = "PG_CONC_" + std::to_string(p)});
                if (!producer.start().ok) {
                    ++producerStartFailures; // not a refused send: the test did not run as meant
                    return;
                }
                for (int i = 0; i < kMessagesPerProducer; ++i) {
                    Message message;
                    message.topic = kTopic;
                    message.tags = "T" + std::to_string(p);
                    message.setBody("p" + std::to_string(p) + "-" + std::to_string(i));
                    Result<SendResult> result = producer.send(message);
                    if (result.ok && result.value.status == SendStatus::SendOk) {
                        std::lock_guard lock(ackedMutex);
                        acked.insert("p" + std::to_string(p) + "-" + std::to_string(i));
                        ++ackedPerProducer[p];
                    } else {
                        ++sendFailures; // a refusal is allowed; a lost acknowledged message is not
                    }
                }
            });
        }

        // The admin flips the flush mode and a flush interval while the sends run.
        std::atomic<int> configUpdates{0};
        std::atomic<int> configFailures{0};
        std::thread adminThread([&] {
            AdminClient configurer(config);
            for (int round = 0; producing.load(); ++round) {
                const Status status = configurer.updateBrokerConfig(
                    broker.brokerAddress(), {{"flushDiskType", round % 2 ? "SYNC_FLUSH" : "ASYNC_FLUSH"},
                                             {"flushIntervalCommitLog", std::to_string(200 + round % 300)}});
                (status.ok ? configUpdates : configFailures)++;
                (void)configurer.brokerConfig(broker.brokerAddress());
                (void)configurer.brokerRuntimeInfo(broker.brokerAddress());
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        });

        // One consumer thread per queue, pulling (long-polled) while the producers send.
        std::mutex pulledMutex;
        std::multiset<std::string> pulled;
        std::atomic<int> pullFailures{0};
        std::vector<std::thread> consumers;
        for (int q = 0; q < kQueues; ++q) {
            consumers.emplace_back([&, q] {
                PullConsumer consumer(config, {.group = "CG_CONC"});
                if (!consumer.start().ok) {
                    ++pullFailures;
                    return;
                }
                const MessageQueue queue{kTopic, "broker-a", q};
                int64_t offset = 0;
                int idleRounds = 0;
                // Until the producers are done and a pull after that finds nothing new.
                while (idleRounds < 2) {
                    const bool doneBefore = !producing.load();
                    Result<PullResult> result = consumer.pull(queue, "*", offset, 32);
                    if (!result.ok) {
                        ++pullFailures;
                        std::this_thread::sleep_for(std::chrono::milliseconds(10));
                        continue;
                    }
                    if (result.value.status == PullStatus::Found) {
                        std::lock_guard lock(pulledMutex);
                        for (const common::StoredMessage &message : result.value.messages)
                            pulled.insert(message.bodyText());
                    }
                    offset = result.value.nextBeginOffset;
                    idleRounds = (doneBefore && result.value.status != PullStatus::Found) ? idleRounds + 1 : 0;
                }
            });
        }

        for (std::thread &thread : producers)
            thread.join();
        const double sendSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        producing = false;
        adminThread.join();
        for (std::thread &thread : consumers)
            thread.join();

        qInfo("%zu messages acknowledged by %d producers in %.2f s (%.0f msg/s), %d refused; %d config updates "
              "(%d failed) meanwhile; %d pull errors",
              acked.size(), kProducers, sendSeconds, acked.size() / sendSeconds, sendFailures.load(),
              configUpdates.load(), configFailures.load(), pullFailures.load());
        QVERIFY(configUpdates.load() > 0);
        QCOMPARE(producerStartFailures.load(), 0);
        for (int p = 0; p < kProducers; ++p)
            QVERIFY2(ackedPerProducer[p] > 0, ("producer " + std::to_string(p) + " had no send acknowledged").c_str());
        for (const std::string &body : acked)
            QVERIFY2(pulled.count(body) == 1, ("acknowledged " + body + " pulled " + std::to_string(pulled.count(body))
                                               + " times").c_str());
        // A refused send may still have been stored (e.g. a timeout after the put): then it is
        // pulled too, but never twice.
        QVERIFY(pulled.size() >= acked.size() && pulled.size() <= acked.size() + size_t(sendFailures.load()));
        for (const std::string &body : pulled)
            QVERIFY2(pulled.count(body) == 1, body.c_str());
    }
};

QObject *createConcurrencyTest() { return new ConcurrencyTest; }

#include "tst_concurrency.moc"
