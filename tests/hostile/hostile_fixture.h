#pragma once

// What every hostile case shares: a real mqdesk-broker over a store inside a scratch folder, the
// messages it acknowledged, and the checks the issue asks after each case — another client is
// answered, every acknowledged message is pullable, nothing exists outside the
// store's folder, the log stays bounded — and again after a clean restart and after SIGKILL.

#include "broker_process.h"
#include "raw_client.h"

#include "broker/common/record_codec.h"
#include "broker/remoting/remoting_codes.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>

#include <filesystem>
#include <set>

namespace mqdesk::hostile {

using remoting::RequestCode;
using remoting::ResponseCode;
using namespace std::chrono_literals;

struct Acked
{
    std::string topic;
    int32_t queueId = 0;
    int64_t queueOffset = 0;
    std::string body;
    std::string properties; // what must be among the stored properties
};

inline std::span<const uint8_t> bytesOf(std::string_view text)
{
    return {reinterpret_cast<const uint8_t *>(text.data()), text.size()};
}

inline Fields sendFields(const std::string &topic, int32_t queueId, const std::string &properties)
{
    return {{"a", "hostile_producer"}, {"b", topic},       {"c", "TBW102"},     {"d", "4"},
            {"e", std::to_string(queueId)}, {"f", "0"},    {"g", "1764500000000"}, {"h", "0"},
            {"i", properties},       {"j", "0"},           {"k", "false"},      {"m", "false"}};
}

class HostileFixture
{
public:
    // How long otherClientAnswered waits for an answer: a deadline for a broker that no longer
    // answers at all, not a latency figure (speed belongs in benchmarks).
    static constexpr auto kAnswerWithin = 15s;

    // A limit the connection case can reach without exhausting the test's own descriptors.
    static constexpr int kMaxConnections = 100;

    // `conf`: broker.conf lines (default: serverMaxConnections=kMaxConnections).
    bool start(const QByteArrayList &conf = {"serverMaxConnections=" + QByteArray::number(kMaxConnections)})
    {
        storeDir_ = root_.path().toStdString() + "/store";
        outsideBefore_ = outsideStore();
        QFile config(configDir_.filePath(QStringLiteral("broker.conf")));
        if (!config.open(QIODevice::WriteOnly))
            return false;
        for (const QByteArray &line : conf)
            config.write(line + "\n");
        config.close();
        brokerArguments_ = {QStringLiteral("-c"), config.fileName()};
        return broker_.start(QString::fromStdString(storeDir_), brokerArguments_);
    }

    BrokerProcess &broker() { return broker_; }
    const std::string &storeDir() const { return storeDir_; }
    const std::vector<Acked> &acked() const { return acked_; }

    RawClient &client()
    {
        if (!client_.connect(broker_.brokerAddress()))
            qWarning("cannot connect to %s", broker_.brokerAddress().c_str());
        return client_;
    }

    // A fresh connection's request answered (kAnswerWithin: the deadline of a broker that hangs).
    bool otherClientAnswered()
    {
        RawClient other;
        if (!other.connect(broker_.brokerAddress()))
            return false;
        const auto response = other.call(RequestCode::kGetBrokerRuntimeInfo, {}, {}, kAnswerWithin);
        return response && response->code == ResponseCode::kSuccess;
    }

    bool createTopic(const std::string &topic, int queues = 4)
    {
        RawClient admin;
        if (!admin.connect(broker_.brokerAddress()))
            return false;
        const auto response = admin.call(RequestCode::kUpdateAndCreateTopic,
                                          {{"topic", topic}, {"defaultTopic", "TBW102"},
                                           {"readQueueNums", std::to_string(queues)},
                                           {"writeQueueNums", std::to_string(queues)}, {"perm", "6"},
                                           {"topicFilterType", "SINGLE_TAG"}, {"topicSysFlag", "0"},
                                           {"order", "false"}});
        return response && response->code == ResponseCode::kSuccess;
    }

    // Sends one message with `properties` (JSON or binary header) and records it when acknowledged.
    std::optional<Response> send(const std::string &topic, int32_t queueId, const std::string &body,
                                 const std::string &properties, bool binaryHeader = false)
    {
        RawClient producer;
        if (!producer.connect(broker_.brokerAddress()))
            return std::nullopt;
        const Fields fields = sendFields(topic, queueId, properties);
        const int32_t opaque = binaryHeader ? producer.sendBinary(RequestCode::kSendMessageV2, fields, bytesOf(body))
                                            : producer.sendJson(RequestCode::kSendMessageV2, fields, bytesOf(body));
        auto response = producer.await(opaque, 10s);
        if (response && response->code == ResponseCode::kSuccess)
            acked_.push_back({topic, queueId, std::stoll(response->ext["queueOffset"]), body, properties});
        return response;
    }

    // Every acknowledged message, pulled by its queue offset: body equal, and the stored
    // properties hold what the producer sent. Returns what differs, empty when all are there.
    std::string missingAcknowledged()
    {
        RawClient consumer;
        if (!consumer.connect(broker_.brokerAddress()))
            return "cannot connect to " + broker_.brokerAddress();
        for (const Acked &message : acked_) {
            const std::string which = message.topic + ":" + std::to_string(message.queueId) + "@"
                                      + std::to_string(message.queueOffset);
            std::optional<Response> response;
            // The dispatcher may still be behind right after a send or a restart.
            for (int attempt = 0; attempt < 50; ++attempt) {
                response = consumer.call(RequestCode::kPullMessage,
                                         {{"consumerGroup", "hostile_verifier"}, {"topic", message.topic},
                                          {"queueId", std::to_string(message.queueId)},
                                          {"queueOffset", std::to_string(message.queueOffset)},
                                          {"maxMsgNums", "1"}, {"sysFlag", "4" /* the subscription travels with the pull */}, {"commitOffset", "0"},
                                          {"suspendTimeoutMillis", "0"}, {"subscription", "*"},
                                          {"subVersion", "0"}});
                if (response && response->code == ResponseCode::kSuccess)
                    break;
                QTest::qWait(100);
            }
            if (!response || response->code != ResponseCode::kSuccess)
                return which + " not pullable: code " + std::to_string(response ? response->code : -1) + " "
                       + (response ? response->remark : std::string("no answer"));
            const auto decoded = common::decodeRecord(response->body);
            if (decoded.status != common::DecodeStatus::Ok)
                return which + " pulled but undecodable: " + decoded.error;
            const auto &record = decoded.record;
            if (std::string(reinterpret_cast<const char *>(record.body.data()), record.body.size()) != message.body
                || record.queueOffset != message.queueOffset)
                return which + " pulled another message";
            if (record.properties.find(message.properties) == std::string_view::npos)
                return which + " lost its property bytes";
        }
        return {};
    }

    // Restarts the broker on its store after SIGTERM (clean: no abort file may remain) or
    // SIGKILL. Returns what went wrong, empty on success.
    std::string restart(int signal)
    {
        const int exit = broker_.stop(signal);
        if (signal == SIGTERM) {
            if (exit != 0)
                return "SIGTERM did not stop the broker cleanly (exit " + std::to_string(exit) + ")";
            if (std::filesystem::exists(storeDir_ + "/abort"))
                return "the abort file is still there after a clean stop";
        }
        if (!broker_.start(QString::fromStdString(storeDir_), brokerArguments_))
            return "the broker did not restart: " + broker_.log().right(2000).toStdString();
        return {};
    }

    // Files and folders under the scratch root that are not the store's, plus the well-known
    // escape targets; empty when nothing reached outside.
    std::string escapedFiles()
    {
        std::string found;
        for (const std::string &path : outsideStore()) {
            if (!outsideBefore_.contains(path))
                found += path + " ";
        }
        for (const char *target : {"/tmp/ESC", "/ESC", "/hostile_escape"}) {
            if (std::filesystem::exists(target))
                found += std::string(target) + " ";
        }
        return found;
    }

private:
    std::set<std::string> outsideStore() const
    {
        std::set<std::string> paths;
        const std::filesystem::path root = root_.path().toStdString();
        // The scratch folder holds the store and nothing else; the hostile names aim at it (and at
        // the fixed targets above), since other processes write to /tmp meanwhile.
        for (const auto &entry : std::filesystem::recursive_directory_iterator(root)) {
            const std::string path = entry.path().string();
            if (path != storeDir_ && !path.starts_with(storeDir_ + "/"))
                paths.insert(path);
        }
        return paths;
    }

    QTemporaryDir root_;
    QTemporaryDir configDir_; // apart from root_, which must hold the store and nothing else
    QStringList brokerArguments_;
    std::string storeDir_;
    std::set<std::string> outsideBefore_;
    BrokerProcess broker_;
    RawClient client_;
    std::vector<Acked> acked_;
};

} // namespace mqdesk::hostile
