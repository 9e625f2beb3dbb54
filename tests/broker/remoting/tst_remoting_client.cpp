// RemotingClient against a RemotingServer on 127.0.0.1: many concurrent requests matched by
// opaque, timeouts and late responses, connection loss failing pending requests at once,
// reconnecting after a server restart, and server-initiated requests answered by the client.

#include "test_support.h"

#include "remoting_net_test_util.h"
#include "remoting_test_util.h"

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/net/remoting_server.h"

#include <algorithm>
#include <future>
#include <random>

using namespace mqdesk::remoting;
using namespace mqdesk::test;

namespace {

constexpr int32_t kEcho = 9001;
constexpr int32_t kHold = 9002; // never answered by the processor itself
constexpr int32_t kAskClient = 9003;

void echo(const RequestContext &, RemotingCommand request, Responder respond)
{
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    response.body = std::move(request.body);
    respond(std::move(response));
}

RemotingCommand request(int32_t code, std::string_view body = {})
{
    RemotingCommand command = RemotingCommand::createRequest(code);
    command.body = bytesOf(body);
    return command;
}

// Keeps the requests of kHold and their responders, for answering later (or never).
struct Held
{
    std::mutex mutex;
    std::vector<std::pair<RemotingCommand, Responder>> requests;
    EventCounter arrived;

    Processor processor()
    {
        return [this](const RequestContext &, RemotingCommand command, Responder respond) {
            {
                std::lock_guard lock(mutex);
                requests.emplace_back(std::move(command), std::move(respond));
            }
            arrived.add();
        };
    }
};

} // namespace

class RemotingClientTest : public QObject
{
    Q_OBJECT

private slots:
    void concurrentRequestsMatchedByOpaque()
    {
        constexpr int kCount = 1000;
        ProcessorExecutor executor("hold", 2);
        Held held;
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kHold, held.processor(), executor);
        QVERIFY(server.start());
        RemotingClient client;

        std::mutex mutex;
        std::vector<std::string> answers(kCount);
        EventCounter done;
        for (int i = 0; i < kCount; ++i) {
            client.invokeAsync(localAddress(server.localPort()), request(kHold, "request " + std::to_string(i)),
                               kWait, [&, i](InvokeResult result) {
                                   std::lock_guard lock(mutex);
                                   answers[size_t(i)] = result.ok() ? textOf(result.response.body)
                                                                    : "error: " + result.errorMessage;
                                   done.add();
                               });
        }
        QVERIFY(held.arrived.waitFor(kCount));
        // Answer from another thread, shuffled: only the opaque can match them up.
        std::thread answering([&] {
            std::lock_guard lock(held.mutex);
            std::shuffle(held.requests.begin(), held.requests.end(), std::mt19937(42));
            for (auto &[command, respond] : held.requests) {
                RemotingCommand response = RemotingCommand::createResponse(command, ResponseCode::kSuccess);
                response.body = bytesOf("answer to " + textOf(command.body));
                respond(std::move(response));
            }
        });
        answering.join();
        QVERIFY(done.waitFor(kCount));
        std::lock_guard lock(mutex);
        for (int i = 0; i < kCount; ++i)
            QCOMPARE(answers[size_t(i)], "answer to request " + std::to_string(i));
    }

    void timeoutThenLateResponseIsDropped()
    {
        ProcessorExecutor executor("proc");
        Held held;
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kHold, held.processor(), executor);
        server.registerProcessor(kEcho, echo, executor);
        QVERIFY(server.start());
        RemotingClient client;
        const std::string address = localAddress(server.localPort());

        const InvokeResult timedOut = client.invokeSync(address, request(kHold), std::chrono::milliseconds(200));
        QCOMPARE(timedOut.error, InvokeError::Timeout);
        QVERIFY2(timedOut.errorMessage.find("timed out") != std::string::npos, timedOut.errorMessage.c_str());

        // The late answer reaches the client, which drops it; the next request on the same
        // connection gets its own response, not the stale one.
        QVERIFY(held.arrived.waitFor(1));
        {
            std::lock_guard lock(held.mutex);
            auto &[command, respond] = held.requests.front();
            RemotingCommand late = RemotingCommand::createResponse(command, ResponseCode::kSuccess);
            late.body = bytesOf("late");
            respond(std::move(late));
        }
        const InvokeResult next = client.invokeSync(address, request(kEcho, "fresh"), kWait);
        QVERIFY2(next.ok(), next.errorMessage.c_str());
        QCOMPARE(textOf(next.response.body), std::string("fresh"));
        QCOMPARE(server.connectionCount(), size_t{1});
    }

    void serverStopFailsPendingRequests()
    {
        ProcessorExecutor executor("hold");
        Held held;
        auto server = std::make_unique<RemotingServer>(RemotingServerOptions{.host = "127.0.0.1"});
        server->registerProcessor(kHold, held.processor(), executor);
        QVERIFY(server->start());
        RemotingClient client;
        std::vector<std::future<InvokeResult>> pending;
        for (int i = 0; i < 3; ++i) {
            auto promise = std::make_shared<std::promise<InvokeResult>>();
            pending.push_back(promise->get_future());
            // A minute: only the connection's close can end these within the wait below.
            client.invokeAsync(localAddress(server->localPort()), request(kHold), std::chrono::minutes(1),
                               [promise](InvokeResult result) { promise->set_value(std::move(result)); });
        }
        QVERIFY(held.arrived.waitFor(3));
        server->stop();
        for (std::future<InvokeResult> &future : pending) {
            QCOMPARE(future.wait_for(kWait), std::future_status::ready);
            const InvokeResult result = future.get();
            QCOMPARE(result.error, InvokeError::ConnectionClosed);
            QVERIFY2(result.errorMessage.find("closed") != std::string::npos, result.errorMessage.c_str());
        }
        server.reset();
        // Responders held past the server's end do nothing.
        std::lock_guard lock(held.mutex);
        for (auto &[command, respond] : held.requests)
            respond(RemotingCommand::createResponse(command, ResponseCode::kSuccess));
    }

    void connectFailureIsReported()
    {
        uint16_t port = 0;
        {
            RemotingServer server({.host = "127.0.0.1"});
            QVERIFY(server.start());
            port = server.localPort();
        }
        RemotingClient client;
        const InvokeResult result = client.invokeSync(localAddress(port), request(kEcho), kWait);
        QCOMPARE(result.error, InvokeError::ConnectFailed);
        std::string error;
        QVERIFY(!client.invokeOneway(localAddress(port), request(kEcho), &error));
        QVERIFY(!error.empty());
        QCOMPARE(client.invokeSync("no-port", request(kEcho), kWait).error, InvokeError::ConnectFailed);
    }

    void reconnectsAfterServerRestart()
    {
        ProcessorExecutor executor("proc");
        Held held;
        RemotingClient client;
        auto server = std::make_unique<RemotingServer>(RemotingServerOptions{.host = "127.0.0.1"});
        server->registerProcessor(kEcho, echo, executor);
        server->registerProcessor(kHold, held.processor(), executor);
        QVERIFY(server->start());
        const uint16_t port = server->localPort();
        QVERIFY(client.invokeSync(localAddress(port), request(kEcho, "first"), kWait).ok());

        // A held request whose failure shows the client has seen the connection break.
        auto broken = std::make_shared<std::promise<InvokeResult>>();
        std::future<InvokeResult> brokenResult = broken->get_future();
        client.invokeAsync(localAddress(port), request(kHold), std::chrono::minutes(1),
                           [broken](InvokeResult result) { broken->set_value(std::move(result)); });
        QVERIFY(held.arrived.waitFor(1));
        server.reset();
        QCOMPARE(brokenResult.wait_for(kWait), std::future_status::ready);
        QCOMPARE(brokenResult.get().error, InvokeError::ConnectionClosed);

        server = std::make_unique<RemotingServer>(RemotingServerOptions{.host = "127.0.0.1", .port = port});
        server->registerProcessor(kEcho, echo, executor);
        std::string error;
        QVERIFY2(server->start(&error), error.c_str());
        const InvokeResult again = client.invokeSync(localAddress(port), request(kEcho, "again"), kWait);
        QVERIFY2(again.ok(), again.errorMessage.c_str());
        QCOMPARE(textOf(again.response.body), std::string("again"));
    }

    void serverInitiatedRequestAnsweredByClient()
    {
        ProcessorExecutor serverExecutor("server");
        ProcessorExecutor clientExecutor("client");
        EventCounter notified;
        RemotingServer server({.host = "127.0.0.1"});
        // Asks the client on the same connection, then answers with what the client said.
        server.registerProcessor(kAskClient, [](const RequestContext &context, RemotingCommand command, Responder respond) {
            RemotingCommand notify = RemotingCommand::createRequest(RequestCode::kNotifyConsumerIdsChanged,
                                                                    {{"consumerGroup", "G"}});
            context.sendOneway(notify);
            context.invoke(RemotingCommand::createRequest(RequestCode::kCheckTransactionState), kWait,
                           [command, respond](InvokeResult result) {
                               RemotingCommand response = RemotingCommand::createResponse(
                                   command, ResponseCode::kSuccess,
                                   result.ok() ? result.response.remark : std::optional(result.errorMessage));
                               respond(std::move(response));
                           });
        }, serverExecutor);
        QVERIFY(server.start());

        RemotingClient client;
        client.registerProcessor(RequestCode::kNotifyConsumerIdsChanged,
                                 [&](const RequestContext &, RemotingCommand command, Responder) {
                                     if (command.isOneway() && command.extFields.value("consumerGroup") == "G")
                                         notified.add();
                                 }, clientExecutor);
        client.registerProcessor(RequestCode::kCheckTransactionState,
                                 [](const RequestContext &, RemotingCommand command, Responder respond) {
                                     respond(RemotingCommand::createResponse(command, ResponseCode::kSuccess,
                                                                             "checked by client"));
                                 }, clientExecutor);
        const InvokeResult result = client.invokeSync(localAddress(server.localPort()), request(kAskClient), kWait);
        QVERIFY2(result.ok(), result.errorMessage.c_str());
        QCOMPARE(result.response.remark, std::optional<std::string>("checked by client"));
        QVERIFY(notified.waitFor(1));
    }

    void onewayFromClientReachesServer()
    {
        ProcessorExecutor executor("proc");
        EventCounter seen;
        RemotingServer server({.host = "127.0.0.1"});
        server.registerProcessor(kEcho, [&](const RequestContext &, RemotingCommand command, Responder) {
            if (command.isOneway() && textOf(command.body) == "fire")
                seen.add();
        }, executor);
        QVERIFY(server.start());
        RemotingClient client;
        std::string error;
        QVERIFY2(client.invokeOneway(localAddress(server.localPort()), request(kEcho, "fire"), &error), error.c_str());
        QVERIFY(seen.waitFor(1));
    }
};

QObject *createRemotingClientTest() { return new RemotingClientTest; }

#include "tst_remoting_client.moc"
