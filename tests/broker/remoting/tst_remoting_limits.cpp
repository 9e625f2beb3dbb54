// What bounds the work and memory one client can cause (issue 12): headers of many entries decode
// in linear time and are refused past kMaxExtFieldsEntries, connections past maxConnections are
// closed at once, accept() out of descriptors pauses instead of spinning, and an executor's
// queued bytes are bounded (SYSTEM_BUSY). Decode times are printed as figures, never asserted.

#include "test_support.h"

#include "remoting_net_test_util.h"

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/remoting_header.h"
#include "broker/remoting/net/remoting_server.h"

#include <sys/resource.h>

#include <future>
#include <memory>
#include <thread>

using namespace mqdesk::remoting;
using namespace mqdesk::test;

namespace {

constexpr int32_t kEcho = 9001;

void echo(const RequestContext &, RemotingCommand request, Responder respond)
{
    respond(RemotingCommand::createResponse(request, ResponseCode::kSuccess, "echo"));
}

RemotingCommand withEntries(size_t count, size_t valueSize)
{
    RemotingCommand command = RemotingCommand::createRequest(kEcho);
    std::vector<ExtFields::Entry> entries;
    for (size_t i = 0; i < count; ++i)
        entries.emplace_back("key" + std::to_string(i), std::string(valueSize, 'v'));
    command.extFields.assign(std::move(entries));
    return command;
}

double millisSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

class RemotingLimitsTest : public QObject
{
    Q_OBJECT

private slots:
    void repeatedKeysKeepFirstPositionAndLastValue()
    {
        std::vector<ExtFields::Entry> entries;
        for (int i = 0; i < 1000; ++i)
            entries.emplace_back("k" + std::to_string(i % 100), std::to_string(i));
        ExtFields fields;
        fields.assign(std::move(entries));
        QCOMPARE(fields.size(), size_t{100});
        QCOMPARE(fields.entries().front().first, std::string("k0"));
        QCOMPARE(*fields.find("k0"), std::string("900"));
        QCOMPARE(*fields.find("k99"), std::string("999"));
    }

    // Both encodings: the most entries allowed decode, one more is refused with the limit named.
    void headerEntriesAreBounded_data()
    {
        QTest::addColumn<bool>("binary");
        QTest::newRow("json") << false;
        QTest::newRow("rocketmq") << true;
    }
    void headerEntriesAreBounded()
    {
        QFETCH(bool, binary);
        for (const size_t count : {kMaxExtFieldsEntries, kMaxExtFieldsEntries + 1}) {
            const RemotingCommand command = withEntries(count, 4);
            RemotingCommand decoded;
            std::string error;
            if (binary) {
                std::vector<uint8_t> header;
                QVERIFY(encodeRocketMqHeader(command, header).empty());
                error = decodeRocketMqHeader(header, decoded);
            } else {
                const std::string header = encodeJsonHeader(command);
                error = decodeJsonHeader(std::span(reinterpret_cast<const uint8_t *>(header.data()), header.size()), decoded);
            }
            if (count <= kMaxExtFieldsEntries) {
                QVERIFY2(error.empty(), error.c_str());
                QCOMPARE(decoded.extFields.size(), count);
            } else {
                QVERIFY2(error.find(std::to_string(kMaxExtFieldsEntries)) != std::string::npos, error.c_str());
            }
        }
    }

    // A header filling a 16 MiB frame (a few entries with huge values, and the most entries with
    // values filling the rest) decodes in one pass; the time is printed for the note.
    void sixteenMebibyteHeaderDecodes()
    {
        const size_t budget = kDefaultMaxFrameSize - 64 * 1024;
        for (const size_t entries : {size_t{4}, kMaxExtFieldsEntries}) {
            const RemotingCommand command = withEntries(entries, budget / entries - 32);
            std::vector<uint8_t> binary;
            QVERIFY(encodeRocketMqHeader(command, binary).empty());
            const std::string json = encodeJsonHeader(command);
            RemotingCommand decoded;
            auto start = std::chrono::steady_clock::now();
            QVERIFY(decodeRocketMqHeader(binary, decoded).empty());
            const double binaryMillis = millisSince(start);
            QCOMPARE(decoded.extFields.size(), entries);
            start = std::chrono::steady_clock::now();
            const std::string error = decodeJsonHeader(std::span(reinterpret_cast<const uint8_t *>(json.data()), json.size()), decoded);
            const double jsonMillis = millisSince(start);
            QVERIFY2(error.empty(), error.c_str());
            QCOMPARE(decoded.extFields.size(), entries);
            qInfo("figure: %zu-byte header, %zu entries: ROCKETMQ decode %.1f ms, JSON decode %.1f ms",
                  binary.size(), entries, binaryMillis, jsonMillis);
        }
    }

    void connectionsOverTheLimitAreClosed()
    {
        ProcessorExecutor executor("echo");
        RemotingServer server({.host = "127.0.0.1", .maxConnections = 3});
        server.registerProcessor(kEcho, echo, executor);
        QVERIFY(server.start());
        std::vector<std::unique_ptr<RawSocket>> open;
        for (int i = 0; i < 3; ++i) {
            open.push_back(std::make_unique<RawSocket>(server.localPort()));
            QVERIFY(open.back()->connected());
            QVERIFY(open.back()->send(RemotingCommand::createRequest(kEcho)));
            QVERIFY(open.back()->receive()); // accepted and served
        }
        RawSocket fourth(server.localPort());
        QVERIFY(fourth.connected()); // the kernel completes the handshake; the server then closes it
        QVERIFY(fourth.waitForClose());
        open.pop_back();
        QTRY_COMPARE_WITH_TIMEOUT(server.connectionCount(), size_t{2}, int(kWait.count()));
        RawSocket again(server.localPort());
        QVERIFY(again.send(RemotingCommand::createRequest(kEcho)));
        QVERIFY(again.receive());
    }

    // Out of descriptors, accept() fails with EMFILE while the connection waits in the backlog:
    // the server pauses between tries instead of spinning, and serves again once fds are free.
    void acceptOutOfDescriptorsPauses()
    {
        ProcessorExecutor executor("echo");
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kEcho, echo, executor);
        QVERIFY(server.start());
        rlimit original{};
        QVERIFY(getrlimit(RLIMIT_NOFILE, &original) == 0);
        std::vector<std::unique_ptr<RawSocket>> sockets;
        {
            rlimit tight = original;
            tight.rlim_cur = 64;
            QVERIFY(setrlimit(RLIMIT_NOFILE, &tight) == 0);
            // Client sockets take descriptors until none are left for the server's accept().
            for (int i = 0; i < 64; ++i) {
                auto socket = std::make_unique<RawSocket>(server.localPort());
                if (!socket->connected())
                    break;
                sockets.push_back(std::move(socket));
            }
            // Every failure for want of descriptors is followed by a pause, never by accepting
            // again at once (which fails again at once: a loop burning a core). Counted, not timed:
            // three pauses in a row, and no failure without its pause.
            QTRY_VERIFY_WITH_TIMEOUT(server.acceptPauses() >= 3, int(kWait.count()));
            const uint64_t failures = server.acceptFailures(), pauses = server.acceptPauses();
            qInfo("figure: %llu failed accepts, %llu pauses", static_cast<unsigned long long>(failures),
                  static_cast<unsigned long long>(pauses));
            QVERIFY2(failures <= pauses + 1, qPrintable(QStringLiteral("%1 failures, %2 pauses").arg(failures).arg(pauses)));
            sockets.clear();
            QVERIFY(setrlimit(RLIMIT_NOFILE, &original) == 0);
        }
        RemotingClient client;
        const InvokeResult result = client.invokeSync(localAddress(server.localPort()), RemotingCommand::createRequest(kEcho), kWait);
        QVERIFY2(result.ok(), result.errorMessage.c_str());
    }

    void queuedBytesOverTheBudgetAnswerSystemBusy()
    {
        ProcessorExecutor executor("bytes", 1, 1000, 1024 * 1024);
        std::promise<void> gate;
        std::shared_future<void> opened = gate.get_future().share();
        EventCounter started;
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kEcho, [&](const RequestContext &context, RemotingCommand request, Responder respond) {
            started.add();
            opened.wait();
            echo(context, std::move(request), std::move(respond));
        }, executor);
        QVERIFY(server.start());
        RemotingClient client;
        const std::string address = localAddress(server.localPort());
        EventCounter done;
        std::vector<InvokeResult> results(4);
        auto send = [&](int i) {
            RemotingCommand request = RemotingCommand::createRequest(kEcho);
            request.body.assign(400 * 1024, uint8_t{'b'});
            client.invokeAsync(address, std::move(request), kWait, [&, i](InvokeResult result) {
                results[size_t(i)] = std::move(result);
                done.add();
            });
        };
        send(0);
        QVERIFY(started.waitFor(1)); // running: the queue is empty again
        send(1);
        send(2); // 800 KiB queued
        QTRY_COMPARE_WITH_TIMEOUT(executor.queuedTasks(), size_t{2}, int(kWait.count()));
        send(3); // would make 1.2 MiB: refused
        QVERIFY(done.waitFor(1));
        QCOMPARE(results[3].response.code, ResponseCode::kSystemBusy);
        QCOMPARE(executor.refusedTasks(), uint64_t{1});
        gate.set_value();
        QVERIFY(done.waitFor(4));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(results[size_t(i)].response.code, ResponseCode::kSuccess);
        QCOMPARE(executor.queuedBytes(), size_t{0});
    }

    // Threads start when tasks need them, never past the pool's size, and an idle one takes the
    // next task rather than a new thread starting: an idle broker runs no processor thread.
    void executorThreadsStartAsTasksNeedThem()
    {
        ProcessorExecutor executor("lazy", 3);
        QCOMPARE(executor.startedThreads(), size_t{0});
        EventCounter ran;
        QVERIFY(executor.tryExecute([&] { ran.add(); }, 0));
        QVERIFY(ran.waitFor(1));
        QTRY_COMPARE_WITH_TIMEOUT(executor.startedThreads(), size_t{1}, int(kWait.count()));
        for (int i = 0; i < 20; ++i) { // one at a time: the idle thread takes each
            QTRY_COMPARE_WITH_TIMEOUT(executor.idleThreads(), size_t{1}, int(kWait.count()));
            QVERIFY(executor.tryExecute([&] { ran.add(); }, 0));
            QVERIFY(ran.waitFor(2 + i));
        }
        QCOMPARE(executor.startedThreads(), size_t{1});

        std::promise<void> gate;
        std::shared_future<void> opened = gate.get_future().share();
        EventCounter held;
        for (int i = 0; i < 5; ++i)
            QVERIFY(executor.tryExecute([&] { held.add(); opened.wait(); ran.add(); }, 0));
        QVERIFY(held.waitFor(3)); // three run at once: the pool's size
        QCOMPARE(executor.startedThreads(), size_t{3});
        QCOMPARE(executor.queuedTasks(), size_t{2});
        gate.set_value();
        QVERIFY(ran.waitFor(21 + 5));
        QCOMPARE(executor.startedThreads(), size_t{3});
    }

    // headWaitMillis: how long the oldest queued task has waited (the broker's runtime info
    // reports it as Java's …ThreadPoolQueueHeadWaitTimeMills); 0 with nothing queued.
    void headWaitIsTheOldestQueuedTasksWait()
    {
        ProcessorExecutor executor("wait", 1);
        QCOMPARE(executor.headWaitMillis(), int64_t{0});
        std::promise<void> gate;
        std::shared_future<void> opened = gate.get_future().share();
        EventCounter started;
        QVERIFY(executor.tryExecute([&] { started.add(); opened.wait(); }, 0));
        QVERIFY(started.waitFor(1)); // running: nothing queued yet
        QCOMPARE(executor.headWaitMillis(), int64_t{0});
        QVERIFY(executor.tryExecute([] {}, 0));
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        QVERIFY(executor.tryExecute([] {}, 0));
        const int64_t waited = executor.headWaitMillis();
        QVERIFY2(waited >= 50, std::to_string(waited).c_str()); // the first queued task's wait, not the newest
        gate.set_value();
        QTRY_COMPARE(executor.queuedTasks(), size_t{0});
        QCOMPARE(executor.headWaitMillis(), int64_t{0});
        executor.shutdown();
    }
};

QObject *createRemotingLimitsTest() { return new RemotingLimitsTest; }

#include "tst_remoting_limits.moc"
