#pragma once

// A real broker for tests: an EmbeddedBroker (NameServer + Broker) on free loopback ports
// over a temporary store, and a RemotingClient to talk to it, plus request builders for the
// requests the tests send by hand (the way a third-party client would).

#include "broker/common/record_codec.h"
#include "broker/remoting/protocol/header_fields.h"
#include "broker/remoting/net/remoting_client.h"
#include "broker/remoting/remoting_codes.h"
#include "broker/server/broker_controller.h"
#include "broker/server/embedded_broker.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace mqdesk::test {

// How long a test waits for something the broker does on its own (a dispatch, a sample, a
// redelivery) or for an answer: generous, because a sanitizer build beside an fsync-heavy suite
// runs several times slower; a wait ends as soon as its condition holds, so it costs nothing
// when all is well.
inline constexpr int kPatienceMs = 30000;

class TestBroker
{
public:
    // `configure` may adjust the settings before start (flush mode, queue counts, ...).
    explicit TestBroker(const std::function<void(server::BrokerSettings &)> &configure = {},
                        const QString &storeDir = {})
    {
        options_.settings.store.storePathRootDir = storeDir.isEmpty() ? dir_.path().toStdString() : storeDir.toStdString();
        options_.settings.store.listenPort = 0;
        options_.settings.store.mappedFileSizeCommitLog = 16 * 1024 * 1024;
        options_.settings.store.maxIndexNum = 4000; // small index files: tests create many stores
        options_.settings.store.maxHashSlotNum = 1000;
        options_.namesrvPort = 0;
        if (configure)
            configure(options_.settings);
    }

    bool start(std::string &error)
    {
        broker_ = std::make_unique<server::EmbeddedBroker>(options_);
        return broker_->start(error);
    }
    void stop() { broker_.reset(); }
    // Stops and starts again on the same store (new ports).
    bool restart(std::string &error)
    {
        stop();
        return start(error);
    }

    server::EmbeddedBroker &embedded() { return *broker_; }
    server::BrokerController &controller() { return broker_->broker(); }
    std::string brokerAddress() const { return broker_->brokerAddress(); }
    std::string namesrvAddress() const { return broker_->namesrvAddress(); }
    std::string storeDir() const { return options_.settings.store.storePathRootDir; }
    remoting::RemotingClient &client() { return client_; }

    // A request to the broker and its answer; a transport error (or no answer within
    // `timeoutMillis`) gives code -1 and the error as remark.
    remoting::RemotingCommand call(remoting::RemotingCommand request, int timeoutMillis = kPatienceMs)
    {
        return callAt(brokerAddress(), std::move(request), timeoutMillis);
    }
    remoting::RemotingCommand callAt(const std::string &address, remoting::RemotingCommand request,
                                     int timeoutMillis = kPatienceMs)
    {
        remoting::InvokeResult result =
            client_.invokeSync(address, std::move(request), std::chrono::milliseconds(timeoutMillis));
        if (!result.ok())
            qWarning("invoke failed: %s", result.errorMessage.c_str());
        if (result.ok())
            return std::move(result.response);
        remoting::RemotingCommand failed;
        failed.code = -1;
        failed.remark = result.errorMessage;
        return failed;
    }

private:
    QTemporaryDir dir_;
    server::EmbeddedBrokerOptions options_;
    std::unique_ptr<server::EmbeddedBroker> broker_;
    remoting::RemotingClient client_;
};

inline std::string bodyOf(const remoting::RemotingCommand &command)
{
    return std::string(command.body.begin(), command.body.end());
}

// The records of a PULL_MESSAGE answer body (commit-log records back to back), up to the first
// that does not decode.
inline std::vector<common::StoredMessage> decodeRecords(const std::vector<uint8_t> &body)
{
    std::vector<common::StoredMessage> out;
    size_t offset = 0;
    while (offset < body.size()) {
        const auto decoded = common::decodeRecord(std::span<const uint8_t>(body).subspan(offset));
        if (decoded.status != common::DecodeStatus::Ok)
            break;
        out.push_back(decoded.record.materialize());
        offset += static_cast<size_t>(decoded.size);
    }
    return out;
}

} // namespace mqdesk::test
