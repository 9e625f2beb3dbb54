// RemotingServer over real sockets on 127.0.0.1: echo in both encodings, oneway requests never
// answered, unknown codes answered REQUEST_CODE_NOT_SUPPORTED (remoting spec §9), malformed
// frames closing only their own connection, big bodies, executor overload, listeners, idle
// connections closed, a peer that stops reading closed instead of queueing without bound, and
// replies the kernel takes in parts arriving whole and in order.

#include "test_support.h"

#include "remoting_net_test_util.h"
#include "remoting_test_util.h"

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/net/remoting_server.h"

#include <algorithm>
#include <atomic>
#include <future>
#include <thread>

using namespace mqdesk::remoting;
using namespace mqdesk::test;

namespace {

constexpr int32_t kEcho = 9001;
constexpr int32_t kUnknown = 4242;

// Answers with the request's extFields, remark "echo" and body.
void echo(const RequestContext &, RemotingCommand request, Responder respond)
{
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess, "echo");
    response.extFields = request.extFields;
    response.body = std::move(request.body);
    respond(std::move(response));
}

RemotingCommand echoRequest(std::string_view body, SerializeType type = SerializeType::Json)
{
    RemotingCommand request = RemotingCommand::createRequest(kEcho, {{"k", "v"}, {"n", "1"}});
    request.serializeType = type;
    request.body = bytesOf(body);
    return request;
}

} // namespace

class RemotingServerTest : public QObject
{
    Q_OBJECT

private slots:
    void echoRoundTripInBothEncodings()
    {
        ProcessorExecutor executor("echo", 2);
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kEcho, echo, executor);
        QVERIFY(server.start());
        QVERIFY(server.localPort() != 0);
        RemotingClient client;

        for (SerializeType type : {SerializeType::Json, SerializeType::RocketMq}) {
            const InvokeResult result = client.invokeSync(localAddress(server.localPort()),
                                                          echoRequest("hello", type), kWait);
            QVERIFY2(result.ok(), result.errorMessage.c_str());
            QCOMPARE(result.response.code, ResponseCode::kSuccess);
            QVERIFY(result.response.isResponse());
            QCOMPARE(result.response.serializeType, type); // answered in the request's encoding
            QCOMPARE(result.response.remark, std::optional<std::string>("echo"));
            QCOMPARE(result.response.extFields.value("k"), std::string("v"));
            QCOMPARE(textOf(result.response.body), std::string("hello"));
        }
    }

    void onewayIsNeverAnswered()
    {
        ProcessorExecutor executor("echo");
        EventCounter onewaySeen;
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kEcho, [&](const RequestContext &context, RemotingCommand request, Responder respond) {
            if (request.isOneway())
                onewaySeen.add();
            echo(context, std::move(request), std::move(respond)); // the responder drops it
        }, executor);
        QVERIFY(server.start());

        RawSocket socket(server.localPort());
        QVERIFY(socket.connected());
        RemotingCommand oneway = echoRequest("oneway");
        oneway.opaque = 1;
        oneway.markOneway();
        RemotingCommand unknownOneway = RemotingCommand::createRequest(kUnknown);
        unknownOneway.opaque = 2;
        unknownOneway.markOneway();
        RemotingCommand normal = echoRequest("normal");
        normal.opaque = 3;
        QVERIFY(socket.send(oneway));
        QVERIFY(socket.send(unknownOneway));
        QVERIFY(onewaySeen.waitFor(1));
        QVERIFY(socket.send(normal));

        // The first frame back answers the normal request: neither oneway one was answered.
        const std::optional<RemotingCommand> response = socket.receive();
        QVERIFY(response.has_value());
        QCOMPARE(response->opaque, 3);
        QCOMPARE(textOf(response->body), std::string("normal"));
    }

    void unknownCodeIsNotSupported()
    {
        RemotingServer server({.host = "127.0.0.1"});
        QVERIFY(server.start());
        RemotingClient client;
        const InvokeResult result = client.invokeSync(localAddress(server.localPort()),
                                                      RemotingCommand::createRequest(kUnknown), kWait);
        QVERIFY2(result.ok(), result.errorMessage.c_str());
        QCOMPARE(result.response.code, ResponseCode::kRequestCodeNotSupported);
        QCOMPARE(result.response.remark, std::optional<std::string>(" request type 4242 not supported"));
    }

    void defaultProcessorTakesUnregisteredCodes()
    {
        ProcessorExecutor executor("default");
        RemotingServer server({.host = "127.0.0.1"});
        server.setDefaultProcessor(echo, executor);
        QVERIFY(server.start());
        RemotingClient client;
        const InvokeResult result = client.invokeSync(localAddress(server.localPort()),
                                                      RemotingCommand::createRequest(kUnknown), kWait);
        QVERIFY2(result.ok(), result.errorMessage.c_str());
        QCOMPARE(result.response.code, ResponseCode::kSuccess);
    }

    void malformedFrameClosesOnlyItsConnection_data()
    {
        QTest::addColumn<QByteArray>("frame");
        auto bytes = [](const std::vector<uint8_t> &v) { return QByteArray(reinterpret_cast<const char *>(v.data()), qsizetype(v.size())); };
        QTest::newRow("negative length") << bytes({0xFF, 0xFF, 0xFF, 0xF0, 0, 0, 0, 0});
        QTest::newRow("over the frame limit") << bytes({0x7F, 0, 0, 0, 0, 0, 0, 2});
        QTest::newRow("unknown encoding byte") << bytes(rawFrame(7, bytesOf("{}")));
        QTest::newRow("garbage JSON") << bytes(jsonFrame("{\"code\":10,,,garbage"));
    }

    void malformedFrameClosesOnlyItsConnection()
    {
        QFETCH(QByteArray, frame);
        ProcessorExecutor executor("echo");
        std::atomic<int> closed{0};
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kEcho, echo, executor);
        server.setConnectionCloseListener([&](const RequestContext &) { ++closed; });
        QVERIFY(server.start());
        RemotingClient client;
        const std::string address = localAddress(server.localPort());
        QVERIFY(client.invokeSync(address, echoRequest("before"), kWait).ok());

        RawSocket bad(server.localPort());
        QVERIFY(bad.connected());
        QVERIFY(bad.send(std::span(reinterpret_cast<const uint8_t *>(frame.constData()), size_t(frame.size()))));
        QVERIFY(bad.waitForClose());

        const InvokeResult after = client.invokeSync(address, echoRequest("after"), kWait);
        QVERIFY2(after.ok(), after.errorMessage.c_str());
        QCOMPARE(textOf(after.response.body), std::string("after"));
        QCOMPARE(closed.load(), 1);
    }

    void oneMebibyteBody()
    {
        ProcessorExecutor executor("echo");
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kEcho, echo, executor);
        QVERIFY(server.start());
        RemotingClient client;
        for (SerializeType type : {SerializeType::Json, SerializeType::RocketMq}) {
            RemotingCommand request = echoRequest({}, type);
            request.body.resize(1024 * 1024);
            for (size_t i = 0; i < request.body.size(); ++i)
                request.body[i] = uint8_t(i * 31 + i / 4099);
            const std::vector<uint8_t> expected = request.body;
            const InvokeResult result = client.invokeSync(localAddress(server.localPort()), std::move(request), kWait);
            QVERIFY2(result.ok(), result.errorMessage.c_str());
            QVERIFY(result.response.body == expected);
        }
    }

    void fullExecutorAnswersSystemBusy()
    {
        // One thread blocked on a gate, a queue of one: the third request is refused.
        ProcessorExecutor executor("busy", 1, 1);
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
        std::vector<InvokeResult> results(3);
        auto send = [&](int i) {
            client.invokeAsync(address, echoRequest(std::to_string(i)), kWait, [&, i](InvokeResult result) {
                results[size_t(i)] = std::move(result);
                done.add();
            });
        };
        send(0);
        QVERIFY(started.waitFor(1)); // running, so the queue is empty
        send(1);
        send(2);
        QVERIFY(done.waitFor(1)); // only the refused one can complete while the gate is shut
        gate.set_value();
        QVERIFY(done.waitFor(3));
        int busy = 0;
        for (const InvokeResult &result : results) {
            QVERIFY2(result.ok(), result.errorMessage.c_str());
            if (result.response.code == ResponseCode::kSystemBusy) {
                ++busy;
                QCOMPARE(result.response.remark,
                         std::optional<std::string>("[OVERLOAD]system busy, start flow control for a while"));
            }
        }
        QCOMPARE(busy, 1);
        QCOMPARE(results[2].response.code, ResponseCode::kSystemBusy);
    }

    void processorExceptionAnswersSystemError()
    {
        ProcessorExecutor executor("throw");
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kEcho, [](const RequestContext &, RemotingCommand, Responder) {
            throw std::runtime_error("the custom field topic is null");
        }, executor);
        QVERIFY(server.start());
        RemotingClient client;
        const InvokeResult result = client.invokeSync(localAddress(server.localPort()), echoRequest("x"), kWait);
        QVERIFY2(result.ok(), result.errorMessage.c_str());
        QCOMPARE(result.response.code, ResponseCode::kSystemError);
        QCOMPARE(result.response.remark, std::optional<std::string>("the custom field topic is null"));
    }

    void listenersSeeOpenAndClose()
    {
        EventCounter opened;
        EventCounter closed;
        uint64_t openedId = 0;
        std::string openedPeer;
        std::atomic<uint64_t> closedId{0};
        RemotingServer server({.host = "127.0.0.1", .ioThreads = 2});
        server.setConnectionOpenListener([&](const RequestContext &context) {
            openedId = context.connectionId();
            openedPeer = context.peerAddress();
            opened.add();
        });
        server.setConnectionCloseListener([&](const RequestContext &context) {
            closedId = context.connectionId();
            closed.add();
        });
        QVERIFY(server.start());
        {
            RawSocket socket(server.localPort());
            QVERIFY(socket.connected());
            QVERIFY(opened.waitFor(1));
            QVERIFY2(openedPeer.starts_with("127.0.0.1:"), openedPeer.c_str());
            QCOMPARE(server.connectionCount(), size_t{1});
        }
        QVERIFY(closed.waitFor(1));
        QCOMPARE(closedId.load(), openedId);
        QCOMPARE(server.connectionCount(), size_t{0});
    }

    void idleConnectionIsClosed()
    {
        ProcessorExecutor executor("echo");
        EventCounter opened;
        RemotingServer server({.host = "127.0.0.1", .maxIdle = std::chrono::milliseconds(2000)});
        server.registerProcessor(kEcho, echo, executor);
        server.setConnectionOpenListener([&](const RequestContext &) { opened.add(); });
        QVERIFY(server.start());

        // A client that keeps talking keeps its connection past the idle limit: one open only.
        RemotingClient client;
        for (int i = 0; i < 50; ++i) {
            QVERIFY(client.invokeSync(localAddress(server.localPort()), echoRequest("ping"), kWait).ok());
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        QCOMPARE(opened.count(), 1);

        // A connection that says nothing is closed once idle for longer than the limit.
        RawSocket silent(server.localPort());
        QVERIFY(silent.connected());
        QVERIFY(silent.waitForClose());
        // Closing it did not disturb the others, and the idle client reconnects by itself.
        QVERIFY(client.invokeSync(localAddress(server.localPort()), echoRequest("after"), kWait).ok());
    }

    void peerThatDoesNotReadIsClosed()
    {
        ProcessorExecutor executor("echo");
        EventCounter closed;
        RemotingServer server({.host = "127.0.0.1", .maxQueuedWriteBytes = 256 * 1024});
        server.registerProcessor(kEcho, echo, executor);
        server.setConnectionCloseListener([&](const RequestContext &) { closed.add(); });
        QVERIFY(server.start());

        // 16 MiB of requests whose echoes the peer never reads: far more than the kernel's
        // buffers hold, so the server's queue reaches the limit and the connection is closed.
        RawSocket stuck(server.localPort(), 4096);
        QVERIFY(stuck.connected());
        RemotingCommand request = echoRequest({});
        request.body.assign(64 * 1024, uint8_t{'x'});
        const std::vector<uint8_t> frame = encodeFrame(request).bytes;
        for (int i = 0; i < 256; ++i) {
            if (!stuck.send(frame))
                break; // closed by the server already
        }
        QVERIFY(closed.waitFor(1));
        QVERIFY(stuck.waitForClose());

        // The server serves everyone else as before.
        RemotingClient client;
        const InvokeResult after = client.invokeSync(localAddress(server.localPort()), echoRequest("after"), kWait);
        QVERIFY2(after.ok(), after.errorMessage.c_str());
    }

    void repliesTheKernelTakesInPartsArriveWholeAndInOrder()
    {
        // A reply is written by the executor thread that made it; what the kernel does not take
        // at once (this peer reads nothing until the end, through a 4 KiB window) is queued and
        // written by the io thread. Every reply must arrive whole, once and in order.
        ProcessorExecutor executor("echo");
        RemotingServer server({.host = "127.0.0.1", .maxQueuedWriteBytes = 64 * 1024 * 1024});
        server.registerProcessor(kEcho, echo, executor);
        QVERIFY(server.start());
        RawSocket slow(server.localPort(), 4096);
        QVERIFY(slow.connected());
        constexpr int kRequests = 96; // 6 MiB: more than the largest send buffer (tcp_wmem 4 MiB)
        constexpr size_t kBodyBytes = 64 * 1024 + 7; // frames end mid-page, mid-segment
        std::vector<int32_t> opaques;
        for (int i = 0; i < kRequests; ++i) {
            RemotingCommand request = echoRequest({});
            request.body.assign(kBodyBytes, static_cast<uint8_t>(i));
            opaques.push_back(request.opaque);
            QVERIFY(slow.send(request));
        }
        for (int i = 0; i < kRequests; ++i) {
            const std::optional<RemotingCommand> reply = slow.receive();
            QVERIFY2(reply, ("reply " + std::to_string(i + 1) + " did not arrive").c_str());
            QCOMPARE(reply->opaque, opaques[i]);
            QCOMPARE(reply->body.size(), kBodyBytes);
            QVERIFY(std::all_of(reply->body.begin(), reply->body.end(),
                                [i](uint8_t byte) { return byte == static_cast<uint8_t>(i); }));
        }
        // Drained: the next reply is written by its maker again, and arrives.
        RemotingCommand last = echoRequest("last");
        QVERIFY(slow.send(last));
        const std::optional<RemotingCommand> reply = slow.receive();
        QVERIFY(reply);
        QCOMPARE(reply->opaque, last.opaque);
        QCOMPARE(reply->body, bytesOf("last"));
    }

    void bindFailureIsReported()
    {
        RemotingServer first({.host = "127.0.0.1"});
        QVERIFY(first.start());
        RemotingServer second({.host = "127.0.0.1", .port = first.localPort()});
        std::string error;
        QVERIFY(!second.start(&error));
        QVERIFY2(error.find("127.0.0.1:" + std::to_string(first.localPort())) != std::string::npos, error.c_str());
    }
};

QObject *createRemotingServerTest() { return new RemotingServerTest; }

#include "tst_remoting_server.moc"
