// TLS on a RemotingServer (remoting/net/tls_context.h, tls_engine.h) with RemotingClients of both
// kinds on 127.0.0.1: the three modes, a self-signed certificate made once and kept, a client that
// verifies it, configured files reloaded when they change, a hostile handshake, and the settings'
// keys as broker.conf and tls.config.file give them.

#include "test_support.h"

#include "remoting_net_test_util.h"
#include "remoting_test_util.h"

#include "hostile/raw_client.h"

#include "broker/remoting/net/processor_executor.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/net/remoting_server.h"
#include "broker/remoting/net/tls_context.h"

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

using namespace mqdesk::remoting;
using namespace mqdesk::test;

namespace {

namespace fs = std::filesystem;

constexpr int32_t kEcho = 9001;

void echo(const RequestContext &, RemotingCommand request, Responder respond)
{
    RemotingCommand response = RemotingCommand::createResponse(request, ResponseCode::kSuccess);
    response.body = std::move(request.body);
    respond(std::move(response));
}

RemotingCommand request(std::string_view body = {})
{
    RemotingCommand command = RemotingCommand::createRequest(kEcho);
    command.body = bytesOf(body);
    return command;
}

std::shared_ptr<TlsServerContext> serverTls(const std::string &dir, TlsMode mode, TlsSettings settings = {})
{
    settings.mode = mode;
    std::string error;
    auto context = TlsServerContext::create(settings, dir, {}, error);
    if (!context)
        qWarning("%s", error.c_str());
    return context;
}

std::shared_ptr<ssl_ctx_st> clientTls(const std::string &trust = {})
{
    std::string error;
    auto context = makeTlsClientContext(!trust.empty(), trust, {}, error);
    if (!context)
        qWarning("%s", error.c_str());
    return context;
}

// A server echoing kEcho with `tls`, started.
struct EchoServer
{
    explicit EchoServer(std::shared_ptr<TlsServerContext> tls)
        : server({.host = "127.0.0.1", .tls = std::move(tls)})
    {
        server.registerProcessor(kEcho, echo, executor);
        started = server.start();
    }
    std::string address() const { return localAddress(server.localPort()); }

    ProcessorExecutor executor{"echo", 2};
    RemotingServer server;
    bool started = false;
};

// Polls `condition` until it holds or kWait passed (a loaded machine is slow, never wrong).
template<typename Condition>
bool waitUntil(Condition condition)
{
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

void copyFile(const fs::path &from, const fs::path &to)
{
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

} // namespace

class RemotingTlsTest : public QObject
{
    Q_OBJECT

private slots:
    void permissiveServesTlsAndPlaintextOnOnePort()
    {
        QTemporaryDir dir;
        EchoServer echoServer(serverTls(dir.path().toStdString(), TlsMode::Permissive));
        QVERIFY(echoServer.started);
        RemotingClient tls({.tls = clientTls()});
        RemotingClient plain;

        // A body of many TLS records, and many requests in flight on one TLS connection.
        const std::string big(3 * 1024 * 1024 + 17, 'x');
        const InvokeResult large = tls.invokeSync(echoServer.address(), request(big), kWait);
        QVERIFY2(large.ok(), large.errorMessage.c_str());
        QCOMPARE(large.response.body.size(), big.size());
        EventCounter done;
        std::atomic<int> right{0};
        for (int i = 0; i < 300; ++i)
            tls.invokeAsync(echoServer.address(), request("n" + std::to_string(i)), kWait, [&, i](InvokeResult r) {
                if (r.ok() && textOf(r.response.body) == "n" + std::to_string(i))
                    ++right;
                done.add();
            });
        QVERIFY(done.waitFor(300));
        QCOMPARE(right.load(), 300);

        const InvokeResult clear = plain.invokeSync(echoServer.address(), request("plain"), kWait);
        QVERIFY2(clear.ok(), clear.errorMessage.c_str());
        QCOMPARE(textOf(clear.response.body), std::string("plain"));
        QCOMPARE(echoServer.server.connectionCount(), size_t{2});
    }

    void enforcingAnswersPlaintextWithTheSettingThenCloses()
    {
        QTemporaryDir dir;
        EchoServer echoServer(serverTls(dir.path().toStdString(), TlsMode::Enforcing));
        QVERIFY(echoServer.started);
        RemotingClient plain;
        const InvokeResult refused = plain.invokeSync(echoServer.address(), request("plain"), kWait);
        QVERIFY2(refused.ok(), refused.errorMessage.c_str()); // an answer, not a dropped connection
        QCOMPARE(refused.response.code, ResponseCode::kSystemError);
        const std::string remark = refused.response.remark.value_or("");
        QVERIFY2(remark.find("tls.server.mode=enforcing") != std::string::npos, remark.c_str());
        QVERIFY(waitUntil([&] { return echoServer.server.connectionCount() == 0; }));

        RemotingClient tls({.tls = clientTls()});
        const InvokeResult served = tls.invokeSync(echoServer.address(), request("secret"), kWait);
        QVERIFY2(served.ok(), served.errorMessage.c_str());
        QCOMPARE(textOf(served.response.body), std::string("secret"));
    }

    // A pooled connection carries several callers' requests: one written after the first answer
    // gets the refusal too, not a dropped connection; the server closes a moment later.
    void enforcingAnswersEveryRequestOfAPlaintextConnection()
    {
        QTemporaryDir dir;
        EchoServer echoServer(serverTls(dir.path().toStdString(), TlsMode::Enforcing));
        QVERIFY(echoServer.started);
        mqdesk::hostile::RawClient raw;
        QVERIFY(raw.connect(echoServer.address()));
        for (int i = 0; i < 2; ++i) {
            const auto refused = raw.call(7, {}); // any code: nothing is served in plaintext
            QVERIFY2(refused, raw.closedByPeer() ? "the connection was closed unanswered" : "no answer");
            QCOMPARE(refused->code, int32_t{ResponseCode::kSystemError});
            QVERIFY2(refused->remark.find("tls.server.mode=enforcing") != std::string::npos, refused->remark.c_str());
        }
        QVERIFY(raw.waitClosed(std::chrono::seconds(30)));
    }

    void disabledClosesAHandshake()
    {
        QTemporaryDir dir;
        EchoServer echoServer(serverTls(dir.path().toStdString(), TlsMode::Disabled));
        QVERIFY(echoServer.started);
        QVERIFY2(!fs::exists(fs::path(dir.path().toStdString()) / "mqdesk-selfsigned.pem"),
                 "no certificate is made when TLS is off");
        RemotingClient tls({.connectTimeout = std::chrono::milliseconds(2000), .tls = clientTls()});
        const InvokeResult result = tls.invokeSync(echoServer.address(), request("x"), kWait);
        QVERIFY(!result.ok());
        QCOMPARE(result.error, InvokeError::ConnectionClosed);
        RemotingClient plain;
        QVERIFY(plain.invokeSync(echoServer.address(), request("x"), kWait).ok());
    }

    void theSelfSignedCertificateIsKeptAndVerifiable()
    {
        QTemporaryDir dir;
        const std::string tlsDir = dir.path().toStdString() + "/config/tls";
        const fs::path pem = fs::path(tlsDir) / "mqdesk-selfsigned.pem";
        const fs::path key = fs::path(tlsDir) / "mqdesk-selfsigned.key";
        {
            EchoServer first(serverTls(tlsDir, TlsMode::Permissive));
            QVERIFY(first.started);
        }
        QVERIFY(fs::exists(pem));
        QCOMPARE(fs::status(key).permissions() & (fs::perms::group_all | fs::perms::others_all), fs::perms::none);
        const auto written = fs::last_write_time(pem);
        const std::shared_ptr<TlsServerContext> context = serverTls(tlsDir, TlsMode::Permissive);
        EchoServer again(context);
        QVERIFY(again.started);
        QVERIFY2(fs::last_write_time(pem) == written, "a restart keeps the certificate clients may have pinned");
        // OpenSSL's context waits for the first TLS client; plaintext clients never build it.
        QVERIFY2(context->describe().find("loaded for the first TLS client") != std::string::npos,
                 context->describe().c_str());
        RemotingClient plain;
        QVERIFY(plain.invokeSync(again.address(), request("plain"), kWait).ok());
        QVERIFY2(context->describe().find("loaded for the first TLS client") != std::string::npos,
                 context->describe().c_str());

        RemotingClient verifying({.tls = clientTls(pem.string())});
        const InvokeResult trusted = verifying.invokeSync(again.address(), request("pinned"), kWait);
        QVERIFY2(trusted.ok(), trusted.errorMessage.c_str());
        QVERIFY2(context->describe().find("CN=localhost") != std::string::npos, context->describe().c_str());

        QTemporaryDir otherDir;
        QVERIFY(serverTls(otherDir.path().toStdString(), TlsMode::Permissive));
        RemotingClient wrongTrust(
            {.tls = clientTls((fs::path(otherDir.path().toStdString()) / "mqdesk-selfsigned.pem").string())});
        QVERIFY2(!wrongTrust.invokeSync(again.address(), request("x"), kWait).ok(),
                 "a client trusting another certificate must not be served");
    }

    // Trust on first use, per server: two servers with certificates of their own are both
    // trusted by one pin; a server that comes back with another certificate is refused.
    void pinsEachServersCertificateOnFirstUse()
    {
        QTemporaryDir a, b, c;
        EchoServer first(serverTls(a.path().toStdString(), TlsMode::Enforcing));
        EchoServer second(serverTls(b.path().toStdString(), TlsMode::Enforcing));
        QVERIFY(first.started && second.started);
        std::vector<std::string> firstUses;
        std::mutex mutex;
        auto pin = std::make_shared<TlsCertificatePin>(std::string(), [&](const std::string &endpoint,
                                                                          const std::string &fingerprint) {
            std::lock_guard lock(mutex);
            firstUses.push_back(endpoint + "=" + fingerprint);
        });
        std::string error;
        auto context = makeTlsClientContext(false, {}, {}, error, pin);
        QVERIFY(context);
        {
            RemotingClient client({.tls = context});
            QVERIFY(client.invokeSync(first.address(), request("1"), kWait).ok());
            QVERIFY(client.invokeSync(second.address(), request("2"), kWait).ok());
        }
        QCOMPARE(firstUses.size(), size_t{2});
        QVERIFY(pin->trusted(first.address()) != pin->trusted(second.address()));
        const std::string saved = pin->toText();
        QVERIFY2(saved.find(first.address() + "=SHA256:") != std::string::npos, saved.c_str());

        // The saved text restores the same trust; the first server's port now shows another certificate.
        const uint16_t port = first.server.localPort();
        first.server.stop();
        RemotingServer impostor({.host = "127.0.0.1", .port = port, .tls = serverTls(c.path().toStdString(), TlsMode::Enforcing)});
        impostor.registerProcessor(kEcho, echo, first.executor);
        QVERIFY(impostor.start());
        auto restored = std::make_shared<TlsCertificatePin>(saved);
        RemotingClient again({.tls = makeTlsClientContext(false, {}, {}, error, restored)});
        const InvokeResult refused = again.invokeSync(localAddress(port), request("x"), kWait);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.errorMessage.find("certificate rejected") != std::string::npos, refused.errorMessage.c_str());
        QVERIFY(restored->lastRefused().find(localAddress(port)) == 0);
        QVERIFY(again.invokeSync(second.address(), request("2"), kWait).ok());
        impostor.stop();
    }

    void aClientTrustingNothingIsServedNothing()
    {
        QTemporaryDir dir;
        EchoServer echoServer(serverTls(dir.path().toStdString(), TlsMode::Permissive));
        RemotingClient client({.tls = makeTlsClientContextTrustingNothing()});
        QVERIFY(!client.invokeSync(echoServer.address(), request("x"), kWait).ok());
    }

    void configuredFilesAreReloadedWhenTheyChange()
    {
        QTemporaryDir a, b, configured;
        QVERIFY(serverTls(a.path().toStdString(), TlsMode::Permissive));
        QVERIFY(serverTls(b.path().toStdString(), TlsMode::Permissive));
        const fs::path aPem = fs::path(a.path().toStdString()) / "mqdesk-selfsigned.pem";
        const fs::path bPem = fs::path(b.path().toStdString()) / "mqdesk-selfsigned.pem";
        const fs::path cert = fs::path(configured.path().toStdString()) / "server.pem";
        const fs::path key = fs::path(configured.path().toStdString()) / "server.key";
        copyFile(aPem, cert);
        copyFile(fs::path(a.path().toStdString()) / "mqdesk-selfsigned.key", key);

        TlsSettings settings;
        settings.certPath = cert.string();
        settings.keyPath = key.string();
        settings.certWatchInterval = std::chrono::milliseconds(100);
        EchoServer echoServer(serverTls({}, TlsMode::Permissive, settings));
        QVERIFY(echoServer.started);
        RemotingClient trustA({.tls = clientTls(aPem.string())});
        QVERIFY(trustA.invokeSync(echoServer.address(), request("a"), kWait).ok());

        // A half-written pair (the key is still A's) does not load: the old one stays in use.
        copyFile(bPem, cert);
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        RemotingClient stillA({.tls = clientTls(aPem.string())});
        QVERIFY2(stillA.invokeSync(echoServer.address(), request("a"), kWait).ok(),
                 "a pair that does not match keeps the previous certificate");

        copyFile(fs::path(b.path().toStdString()) / "mqdesk-selfsigned.key", key);
        QVERIFY(waitUntil([&] {
            RemotingClient trustB({.tls = clientTls(bPem.string())});
            return trustB.invokeSync(echoServer.address(), request("b"), std::chrono::milliseconds(1000)).ok();
        }));
        // Connections made before keep working.
        QVERIFY(trustA.invokeSync(echoServer.address(), request("a"), kWait).ok());
    }

    void aBrokenHandshakeClosesOnlyItsConnection()
    {
        QTemporaryDir dir;
        EchoServer echoServer(serverTls(dir.path().toStdString(), TlsMode::Permissive));
        QVERIFY(echoServer.started);
        RawSocket hostile(echoServer.server.localPort());
        QVERIFY(hostile.connected());
        // A record header that claims a handshake, then no ClientHello.
        std::vector<uint8_t> junk{0x16, 0x03, 0x01, 0x00, 0x20};
        junk.resize(5 + 0x20, 0xee);
        QVERIFY(hostile.send(junk));
        QVERIFY2(hostile.waitForClose(), "the server closes a connection whose handshake is garbage");
        RemotingClient tls({.tls = clientTls()});
        QVERIFY(tls.invokeSync(echoServer.address(), request("still up"), kWait).ok());
    }

    void settingsReadJavasKeysAndTheirFile()
    {
        QTemporaryDir dir;
        const std::string file = dir.path().toStdString() + "/tls.properties";
        std::ofstream(file) << "tls.server.mode=enforcing\ntls.server.keyPassword=s3cret\ntls.test.mode.enable=false\n";
        TlsSettings settings;
        QCOMPARE(settings.apply({{"tls.config.file", file}, {"tls.test.mode.enable", "true"}, {"listenPort", "1"}}),
                 std::string());
        QCOMPARE(settings.mode, TlsMode::Enforcing);
        QVERIFY2(settings.testMode, "broker.conf's own key wins over the file's");
        QCOMPARE(settings.keyPassword, std::string("s3cret"));
        for (const auto &[key, value] : settings.toProperties())
            QVERIFY2(value.find("s3cret") == std::string::npos, key.c_str());

        TlsSettings bad;
        const std::string error = bad.apply({{"tls.server.mode", "sometimes"}});
        QVERIFY2(error.find("tls.server.mode") != std::string::npos && error.find("sometimes") != std::string::npos,
                 error.c_str());
        TlsSettings noFile;
        QVERIFY(noFile.apply({{"tls.config.file", file + ".missing"}}).find(".missing") != std::string::npos);

        TlsSettings noCertificate;
        noCertificate.testMode = false;
        std::string why;
        QVERIFY(!TlsServerContext::create(noCertificate, dir.path().toStdString(), {}, why));
        QVERIFY2(why.find("tls.server.certPath") != std::string::npos, why.c_str());
        TlsSettings missing;
        missing.certPath = file + ".pem";
        missing.keyPath = file + ".key";
        QVERIFY(!TlsServerContext::create(missing, {}, {}, why));
        QVERIFY2(why.find(missing.certPath) != std::string::npos, why.c_str());
    }
};

QObject *createRemotingTlsTest()
{
    return new RemotingTlsTest;
}

#include "tst_remoting_tls.moc"
