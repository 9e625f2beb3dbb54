#pragma once

// ClusterConnection: the views' way to a RocketMQ cluster — the embedded broker or any cluster
// by NameServer address — through broker/client, never on the GUI thread. run() executes a
// blocking client call on the connection's worker threads and hands its result to a callback
// on the GUI thread, as long as the context object (usually the view) still exists. Views are
// thin models over what these calls return.

#include "broker/client/admin_client.h"
#include "broker/client/producer.h"
#include "broker/remoting/net/tls_context.h"
#include "ui/connection/queued_result.h"

#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <memory>
#include <mutex>

namespace mqdesk::ui {

// How a ClusterConnection's target is reached: see setTarget.
struct ConnectionTls
{
    bool enabled = false;
    QString pin; // per server: "host:port=SHA256:…;…" (remoting::TlsCertificatePin's text)
    bool operator==(const ConnectionTls &) const = default;
};

class ClusterConnection : public QObject
{
    Q_OBJECT

public:
    explicit ClusterConnection(QObject *parent = nullptr);
    ~ClusterConnection() override; // waits for running calls

    // Points the connection at `namesrvAddr` ("host:port;host:port"); empty disconnects.
    // With an access key and secret key every request is signed (RocketMQ's AclClientRPCHook,
    // which ACL 1.0 and ACL 2.0 brokers both check). Calls already running finish against the
    // old clients.
    // With `tls.enabled` every connection is TLS (a cluster with tls.server.mode=enforcing); the
    // server's certificate is trusted on first use: `tls.pin` is the one trusted before (empty:
    // the first seen is, and tlsCertificateTrusted says which), and another one is refused.
    using Tls = ConnectionTls;
    void setTarget(const QString &namesrvAddr, const QString &accessKey = {}, const QString &secretKey = {},
                   const ConnectionTls &tls = ConnectionTls());
    void setNamesrvAddress(const QString &namesrvAddr) { setTarget(namesrvAddr); }
    QString namesrvAddress() const;
    // The access key requests are signed with; empty when they are not.
    QString accessKey() const;
    bool isConnected() const { return !namesrvAddress().isEmpty(); }

    // Runs `work(AdminClient &)` off the GUI thread; `done(result)` runs on the GUI thread
    // unless `context` was destroyed meanwhile. Without a connection `work` is not run and
    // nothing is called.
    template <typename Work, typename Done>
    void run(QObject *context, Work work, Done done)
    {
        auto admin = adminClient();
        if (!admin)
            return;
        QPointer<QObject> guard(context);
        pool_.start([admin, guard, work = std::move(work), done = std::move(done)]() mutable {
            deliverQueued(guard, std::move(done), work(*admin));
        });
    }

    // A started producer for test messages from the console (created on first use).
    std::shared_ptr<client::Producer> producer();
    // Waits until every call started so far has finished (tests).
    void waitForDone() { pool_.waitForDone(); }

signals:
    void namesrvAddressChanged(const QString &namesrvAddr);
    // A server ("host:port") of a TLS target had its certificate trusted on first use (on the GUI
    // thread).
    void tlsCertificateTrusted(const QString &namesrvAddr, const QString &endpoint, const QString &fingerprint);

private:
    std::shared_ptr<client::AdminClient> adminClient() const;
    client::ClientConfig clientConfig() const; // requires: mutex_ held

    mutable std::mutex mutex_;
    QString namesrvAddr_;
    acl::Credentials credentials_;
    Tls tls_;
    // The target's trusted certificates, one object for every client of the target (the admin
    // client and the producer), so that one trusted first is the one all of them expect.
    std::shared_ptr<remoting::TlsCertificatePin> tlsPin_;
    std::shared_ptr<client::AdminClient> admin_;
    std::shared_ptr<client::Producer> producer_;
    QThreadPool pool_;
};

} // namespace mqdesk::ui
