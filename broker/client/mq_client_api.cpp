#include "broker/client/mq_client_api.h"

#include "broker/remoting/net/tls_context.h"

#include "broker/common/bytes.h"
#include "broker/common/record_codec.h"
#include "broker/remoting/protocol/header_fields.h"

#include <spdlog/spdlog.h>

#include <chrono>

namespace mqdesk::client {

using remoting::ExtFields;
using remoting::HeaderReader;
using remoting::RemotingCommand;
using remoting::RequestCode;
using remoting::ResponseCode;
using remoting::setField;

namespace {

int32_t clientCodeOf(remoting::InvokeError error)
{
    switch (error) {
    case remoting::InvokeError::None: return ResponseCode::kSuccess;
    case remoting::InvokeError::Timeout: return clientCode::kTimeout;
    case remoting::InvokeError::ConnectFailed: return clientCode::kConnectFailed;
    case remoting::InvokeError::ConnectionClosed: return clientCode::kConnectionClosed;
    case remoting::InvokeError::SendFailed: return clientCode::kSendFailed;
    }
    return clientCode::kSendFailed;
}

Status transportFailure(const std::string &what, const remoting::InvokeResult &result)
{
    return Status::failure(clientCodeOf(result.error),
                           result.errorMessage.empty()
                               ? what + ": " + std::string(remoting::invokeErrorName(result.error))
                               : result.errorMessage);
}

ExtFields sendFields(const SendMessageHeader &header)
{
    ExtFields fields;
    setField(fields, "a", header.producerGroup);
    setField(fields, "b", header.topic);
    setField(fields, "c", header.defaultTopic);
    setField(fields, "d", header.defaultTopicQueueNums);
    setField(fields, "e", header.queueId);
    setField(fields, "f", header.sysFlag);
    setField(fields, "g", header.bornTimestamp);
    setField(fields, "h", header.flag);
    setField(fields, "i", header.properties);
    setField(fields, "j", header.reconsumeTimes);
    setField(fields, "k", header.unitMode);
    if (header.batch)
        setField(fields, "m", true);
    return fields;
}

RemotingCommand pullRequest(const PullMessageHeader &header)
{
    ExtFields fields;
    setField(fields, "consumerGroup", header.consumerGroup);
    setField(fields, "topic", header.topic);
    setField(fields, "queueId", header.queueId);
    setField(fields, "queueOffset", header.queueOffset);
    setField(fields, "maxMsgNums", header.maxMsgNums);
    setField(fields, "sysFlag", header.sysFlag);
    setField(fields, "commitOffset", header.commitOffset);
    setField(fields, "suspendTimeoutMillis", header.suspendTimeoutMillis);
    setField(fields, "subscription", header.subscription);
    setField(fields, "subVersion", header.subVersion);
    setField(fields, "expressionType", header.expressionType);
    return RemotingCommand::createRequest(RequestCode::kPullMessage, std::move(fields));
}

} // namespace

std::vector<uint8_t> encodeBatchBody(const std::vector<BatchEntry> &entries)
{
    std::vector<uint8_t> out;
    for (const BatchEntry &entry : entries) {
        const size_t at = out.size();
        const int32_t totalSize = static_cast<int32_t>(22 + entry.body.size() + entry.properties.size());
        out.resize(at + static_cast<size_t>(totalSize));
        uint8_t *p = out.data() + at;
        common::writeInt32(p, totalSize);
        common::writeInt32(p + 4, 0); // magic: the broker ignores what the client writes
        common::writeInt32(p + 8, 0); // body CRC: computed by the broker
        common::writeInt32(p + 12, entry.flag);
        common::writeInt32(p + 16, static_cast<int32_t>(entry.body.size()));
        std::copy(entry.body.begin(), entry.body.end(), p + 20);
        common::writeInt16(p + 20 + entry.body.size(), static_cast<int16_t>(entry.properties.size()));
        std::copy(entry.properties.begin(), entry.properties.end(), p + 22 + entry.body.size());
    }
    return out;
}

MQClientAPI::MQClientAPI(ClientConfig config)
    : config_(std::move(config)), namesrvs_(config_.namesrvAddresses())
{
    remoting::RemotingClientOptions options;
    options.ioThreads = config_.ioThreads;
    options.connectTimeout = std::chrono::milliseconds(config_.timeoutMillis);
    options.name = "mqclient";
    if (config_.useTls) {
        std::string error;
        options.tls = remoting::makeTlsClientContext(!config_.tlsTrustCertPath.empty(), config_.tlsTrustCertPath, {},
                                                     error, config_.tlsPin);
        if (!options.tls) { // fail closed: no server is trusted, never a weaker trust instead
            spdlog::error("mqclient: {}; no server will be trusted", error);
            options.tls = remoting::makeTlsClientContextTrustingNothing();
        }
    }
    remoting_ = std::make_unique<remoting::RemotingClient>(options);
    callbacks_ = std::make_unique<remoting::ProcessorExecutor>("mqclient-cb", 1, 100000);
}

MQClientAPI::~MQClientAPI() { shutdown(); }

void MQClientAPI::shutdown()
{
    // Queued continuations (async retries) run first; those then fail against the closed client.
    callbacks_->shutdown();
    remoting_->shutdown();
}

bool MQClientAPI::post(std::function<void()> task) { return callbacks_->tryExecute(std::move(task)); }

std::string MQClientAPI::describeRequest(const std::string &addr, const RemotingCommand &request)
{
    std::string text = addr + " " + remoting::describeRequestCode(request.code);
    size_t shown = 0;
    for (const auto &[key, value] : request.extFields) {
        if (key == "i" || ++shown > 4) // properties are unreadable; four fields identify a request
            continue;
        text += " " + key + "=" + (value.size() > 48 ? value.substr(0, 48) + "…" : value);
    }
    return text;
}

Status MQClientAPI::responseFailure(const std::string &what, const RemotingCommand &response)
{
    std::string error = what + ": " + remoting::describeResponseCode(response.code);
    if (response.remark && !response.remark->empty())
        error += " " + *response.remark;
    return Status::failure(response.code, std::move(error));
}

void MQClientAPI::prepareRequest(RemotingCommand &request) const
{
    request.serializeType = config_.serializeType;
    if (config_.credentials.enabled())
        acl::signRequest(request, config_.credentials);
}

Result<RemotingCommand> MQClientAPI::invoke(const std::string &addr, RemotingCommand request, int64_t timeoutMillis)
{
    const std::string what = describeRequest(addr, request);
    prepareRequest(request);
    remoting::InvokeResult result =
        remoting_->invokeSync(addr, std::move(request), std::chrono::milliseconds(timeoutMillis));
    if (!result.ok())
        return transportFailure(what, result);
    return Result<RemotingCommand>(std::move(result.response));
}

Result<RemotingCommand> MQClientAPI::call(const std::string &addr, RemotingCommand request)
{
    const std::string what = describeRequest(addr, request);
    Result<RemotingCommand> result = invoke(addr, std::move(request), config_.timeoutMillis);
    if (result.ok && result.value.code != ResponseCode::kSuccess)
        return responseFailure(what, result.value);
    return result;
}

Result<RemotingCommand> MQClientAPI::invokeNamesrv(RemotingCommand request)
{
    if (namesrvs_.empty())
        return Status::failure(clientCode::kNoRoute, "no namesrv address configured (namesrvAddr is empty) for "
                                                         + remoting::describeRequestCode(request.code));
    // Round-robin the start so that one dead namesrv does not take every first attempt.
    const size_t start = namesrvIndex_.fetch_add(1);
    Status last;
    for (size_t i = 0; i < namesrvs_.size(); ++i) {
        const std::string &addr = namesrvs_[(start + i) % namesrvs_.size()];
        Result<RemotingCommand> result = invoke(addr, request, config_.timeoutMillis);
        if (result.ok)
            return result;
        last = result.status();
    }
    return last;
}

Result<remoting::TopicRouteData> MQClientAPI::getTopicRoute(const std::string &topic)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kGetRouteinfoByTopic, std::move(fields));
    const std::string what = "namesrv " + remoting::describeRequestCode(request.code) + " topic=" + topic;
    Result<RemotingCommand> result = invokeNamesrv(std::move(request));
    if (!result.ok)
        return result.status();
    if (result.value.code != ResponseCode::kSuccess)
        return responseFailure(what, result.value);
    if (result.value.body.empty())
        return Status::failure(clientCode::kNoRoute, what + ": SUCCESS without a route body");
    remoting::TopicRouteData route;
    std::string error;
    const std::string_view body(reinterpret_cast<const char *>(result.value.body.data()), result.value.body.size());
    if (!remoting::TopicRouteData::fromJson(body, route, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad route body: " + error);
    return route;
}

Result<remoting::ClusterInfo> MQClientAPI::getBrokerClusterInfo()
{
    Result<RemotingCommand> result = invokeNamesrv(RemotingCommand::createRequest(RequestCode::kGetBrokerClusterInfo));
    if (!result.ok)
        return result.status();
    if (result.value.code != ResponseCode::kSuccess)
        return responseFailure("namesrv GET_BROKER_CLUSTER_INFO(106)", result.value);
    remoting::ClusterInfo info;
    std::string error;
    const std::string_view body(reinterpret_cast<const char *>(result.value.body.data()), result.value.body.size());
    if (!remoting::ClusterInfo::fromJson(body, info, error))
        return Status::failure(clientCode::kBadResponse, "namesrv GET_BROKER_CLUSTER_INFO(106): bad body: " + error);
    return info;
}

Result<remoting::TopicList> MQClientAPI::getAllTopicList()
{
    Result<RemotingCommand> result =
        invokeNamesrv(RemotingCommand::createRequest(RequestCode::kGetAllTopicListFromNameserver));
    if (!result.ok)
        return result.status();
    const std::string what = "namesrv GET_ALL_TOPIC_LIST_FROM_NAMESERVER(206)";
    if (result.value.code != ResponseCode::kSuccess)
        return responseFailure(what, result.value);
    remoting::TopicList list;
    std::string error;
    const std::string_view body(reinterpret_cast<const char *>(result.value.body.data()), result.value.body.size());
    if (!remoting::TopicList::fromJson(body, list, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return list;
}

Status MQClientAPI::deleteTopicInNamesrv(const std::string &namesrvAddr, const std::string &topic,
                                         const std::string &clusterName)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    if (!clusterName.empty())
        setField(fields, "clusterName", clusterName);
    return call(namesrvAddr, RemotingCommand::createRequest(RequestCode::kDeleteTopicInNamesrv, std::move(fields)))
        .status();
}

Result<SendResult> decodeSendResponse(const std::string &what, const std::string &brokerName,
                                      const RemotingCommand &response)
{
    SendResult result;
    switch (response.code) {
    case ResponseCode::kSuccess: result.status = SendStatus::SendOk; break;
    case ResponseCode::kFlushDiskTimeout: result.status = SendStatus::FlushDiskTimeout; break;
    case ResponseCode::kFlushSlaveTimeout: result.status = SendStatus::FlushSlaveTimeout; break;
    case ResponseCode::kSlaveNotAvailable: result.status = SendStatus::SlaveNotAvailable; break;
    default: return MQClientAPI::responseFailure(what, response);
    }
    HeaderReader reader(response.extFields);
    result.msgId = reader.requireString("msgId");
    result.queue.queueId = reader.requireInt32("queueId");
    result.queueOffset = reader.requireInt64("queueOffset");
    result.regionId = reader.optString("MSG_REGION");
    result.queue.brokerName = brokerName;
    if (!reader.ok())
        return Status::failure(clientCode::kBadResponse, what + ": bad send response: " + reader.error());
    return result;
}

Result<SendResult> MQClientAPI::sendMessage(const std::string &addr, const std::string &brokerName,
                                            const SendMessageHeader &header, std::vector<uint8_t> body)
{
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kSendMessageV2, sendFields(header));
    request.body = std::move(body);
    const std::string what = describeRequest(addr, request);
    Result<RemotingCommand> response = invoke(addr, std::move(request), config_.timeoutMillis);
    if (!response.ok)
        return response.status();
    Result<SendResult> result = decodeSendResponse(what, brokerName, response.value);
    result.value.queue.topic = header.topic;
    return result;
}

void MQClientAPI::sendMessageAsync(const std::string &addr, const std::string &brokerName,
                                   const SendMessageHeader &header, std::vector<uint8_t> body, SendCallback callback)
{
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kSendMessageV2, sendFields(header));
    request.body = std::move(body);
    std::string what = describeRequest(addr, request);
    prepareRequest(request);
    remoting_->invokeAsync(
        addr, std::move(request), std::chrono::milliseconds(config_.timeoutMillis),
        [what = std::move(what), brokerName, topic = header.topic, callback = std::move(callback)](
            remoting::InvokeResult invoked) {
            if (!invoked.ok())
                return callback(transportFailure(what, invoked));
            Result<SendResult> result = decodeSendResponse(what, brokerName, invoked.response);
            result.value.queue.topic = topic;
            callback(std::move(result));
        });
}

Status MQClientAPI::sendMessageOneway(const std::string &addr, const SendMessageHeader &header,
                                      std::vector<uint8_t> body)
{
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kSendMessageV2, sendFields(header));
    request.body = std::move(body);
    const std::string what = describeRequest(addr, request);
    prepareRequest(request);
    std::string error;
    if (!remoting_->invokeOneway(addr, std::move(request), &error))
        return Status::failure(clientCode::kConnectFailed, what + ": " + error);
    return {};
}

Result<SendResult> MQClientAPI::sendBatch(const std::string &addr, const std::string &brokerName,
                                          const SendMessageHeader &header, std::vector<uint8_t> body)
{
    SendMessageHeader batchHeader = header;
    batchHeader.batch = true;
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kSendBatchMessage, sendFields(batchHeader));
    request.body = std::move(body);
    const std::string what = describeRequest(addr, request);
    Result<RemotingCommand> response = invoke(addr, std::move(request), config_.timeoutMillis);
    if (!response.ok)
        return response.status();
    Result<SendResult> result = decodeSendResponse(what, brokerName, response.value);
    result.value.queue.topic = header.topic;
    return result;
}

bool MQClientAPI::decodeMessages(std::span<const uint8_t> body, std::vector<common::StoredMessage> &out,
                                 std::string &error)
{
    size_t at = 0;
    while (at < body.size()) {
        const common::DecodeResult decoded = common::decodeRecord(body.subspan(at));
        if (decoded.status != common::DecodeStatus::Ok) {
            error = "record " + std::to_string(out.size()) + " at byte " + std::to_string(at) + ": "
                    + (decoded.status == common::DecodeStatus::Blank ? std::string("unexpected end-of-file record")
                                                                      : decoded.error);
            return false;
        }
        out.push_back(decoded.record.materialize());
        at += static_cast<size_t>(decoded.size);
    }
    return true;
}

Result<PullResult> decodePullResponse(const std::string &what, const RemotingCommand &response)
{
    PullResult result;
    switch (response.code) {
    case ResponseCode::kSuccess: result.status = PullStatus::Found; break;
    case ResponseCode::kPullNotFound: result.status = PullStatus::NoNewMsg; break;
    case ResponseCode::kPullRetryImmediately: result.status = PullStatus::NoMatchedMsg; break;
    case ResponseCode::kPullOffsetMoved: result.status = PullStatus::OffsetIllegal; break;
    default: return MQClientAPI::responseFailure(what, response);
    }
    HeaderReader reader(response.extFields);
    result.nextBeginOffset = reader.requireInt64("nextBeginOffset");
    result.minOffset = reader.requireInt64("minOffset");
    result.maxOffset = reader.requireInt64("maxOffset");
    result.suggestWhichBrokerId = reader.optInt64("suggestWhichBrokerId", 0);
    if (!reader.ok())
        return Status::failure(clientCode::kBadResponse, what + ": bad pull response: " + reader.error());
    std::string error;
    if (result.status == PullStatus::Found && !MQClientAPI::decodeMessages(response.body, result.messages, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad pull body: " + error);
    return result;
}

Result<PullResult> MQClientAPI::pullMessage(const std::string &addr, const PullMessageHeader &header)
{
    RemotingCommand request = pullRequest(header);
    const std::string what = describeRequest(addr, request);
    const bool suspend = (header.sysFlag & pullSysFlag::kSuspend) != 0;
    Result<RemotingCommand> response =
        invoke(addr, std::move(request), suspend ? config_.pullTimeoutMillis : config_.timeoutMillis);
    if (!response.ok)
        return response.status();
    return decodePullResponse(what, response.value);
}

void MQClientAPI::pullMessageAsync(const std::string &addr, const PullMessageHeader &header, PullCallback callback)
{
    RemotingCommand request = pullRequest(header);
    std::string what = describeRequest(addr, request);
    const bool suspend = (header.sysFlag & pullSysFlag::kSuspend) != 0;
    prepareRequest(request);
    remoting_->invokeAsync(
        addr, std::move(request), std::chrono::milliseconds(suspend ? config_.pullTimeoutMillis : config_.timeoutMillis),
        [what = std::move(what), callback = std::move(callback)](remoting::InvokeResult invoked) {
            if (!invoked.ok())
                return callback(transportFailure(what, invoked));
            callback(decodePullResponse(what, invoked.response));
        });
}

Status MQClientAPI::sendHeartbeat(const std::string &addr, const remoting::HeartbeatData &heartbeat)
{
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kHeartBeat);
    const std::string json = heartbeat.toJson();
    request.body.assign(json.begin(), json.end());
    return call(addr, std::move(request)).status();
}

Status MQClientAPI::unregisterClient(const std::string &addr, const std::string &clientId,
                                     const std::string &producerGroup, const std::string &consumerGroup)
{
    ExtFields fields;
    setField(fields, "clientID", clientId);
    if (!producerGroup.empty())
        setField(fields, "producerGroup", producerGroup);
    if (!consumerGroup.empty())
        setField(fields, "consumerGroup", consumerGroup);
    return call(addr, RemotingCommand::createRequest(RequestCode::kUnregisterClient, std::move(fields))).status();
}

Result<std::vector<std::string>> MQClientAPI::getConsumerIdList(const std::string &addr, const std::string &group)
{
    ExtFields fields;
    setField(fields, "consumerGroup", group);
    RemotingCommand request = RemotingCommand::createRequest(RequestCode::kGetConsumerListByGroup, std::move(fields));
    const std::string what = describeRequest(addr, request);
    Result<RemotingCommand> response = call(addr, std::move(request));
    if (!response.ok)
        return response.status();
    std::vector<std::string> ids;
    std::string error;
    const std::string_view body(reinterpret_cast<const char *>(response.value.body.data()), response.value.body.size());
    if (!remoting::decodeConsumerIdList(body, ids, error))
        return Status::failure(clientCode::kBadResponse, what + ": bad body: " + error);
    return ids;
}

Result<int64_t> MQClientAPI::offsetCall(const std::string &addr, int32_t code, ExtFields fields, const char *resultKey)
{
    RemotingCommand request = RemotingCommand::createRequest(code, std::move(fields));
    const std::string what = describeRequest(addr, request);
    Result<RemotingCommand> response = call(addr, std::move(request));
    if (!response.ok)
        return response.status();
    HeaderReader reader(response.value.extFields);
    const int64_t value = reader.requireInt64(resultKey);
    if (!reader.ok())
        return Status::failure(clientCode::kBadResponse, what + ": bad response: " + reader.error());
    return value;
}

Result<int64_t> MQClientAPI::queryConsumerOffset(const std::string &addr, const std::string &group,
                                                 const std::string &topic, int32_t queueId)
{
    ExtFields fields;
    setField(fields, "consumerGroup", group);
    setField(fields, "topic", topic);
    setField(fields, "queueId", queueId);
    return offsetCall(addr, RequestCode::kQueryConsumerOffset, std::move(fields), "offset");
}

Status MQClientAPI::updateConsumerOffset(const std::string &addr, const std::string &group, const std::string &topic,
                                         int32_t queueId, int64_t offset)
{
    ExtFields fields;
    setField(fields, "consumerGroup", group);
    setField(fields, "topic", topic);
    setField(fields, "queueId", queueId);
    setField(fields, "commitOffset", offset);
    return call(addr, RemotingCommand::createRequest(RequestCode::kUpdateConsumerOffset, std::move(fields))).status();
}

Result<int64_t> MQClientAPI::getMaxOffset(const std::string &addr, const std::string &topic, int32_t queueId)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    setField(fields, "queueId", queueId);
    return offsetCall(addr, RequestCode::kGetMaxOffset, std::move(fields), "offset");
}

Result<int64_t> MQClientAPI::getMinOffset(const std::string &addr, const std::string &topic, int32_t queueId)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    setField(fields, "queueId", queueId);
    return offsetCall(addr, RequestCode::kGetMinOffset, std::move(fields), "offset");
}

Result<int64_t> MQClientAPI::searchOffsetByTimestamp(const std::string &addr, const std::string &topic,
                                                     int32_t queueId, int64_t timestamp)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    setField(fields, "queueId", queueId);
    setField(fields, "timestamp", timestamp);
    return offsetCall(addr, RequestCode::kSearchOffsetByTimestamp, std::move(fields), "offset");
}

Result<int64_t> MQClientAPI::getEarliestMsgStoreTime(const std::string &addr, const std::string &topic,
                                                     int32_t queueId)
{
    ExtFields fields;
    setField(fields, "topic", topic);
    setField(fields, "queueId", queueId);
    return offsetCall(addr, RequestCode::kGetEarliestMsgStoretime, std::move(fields), "timestamp");
}

PullMessageHeader PullMessageHeader::toolsPull(const MessageQueue &queue, int64_t offset, int32_t maxNums)
{
    PullMessageHeader header;
    header.consumerGroup = "TOOLS_CONSUMER";
    header.topic = queue.topic;
    header.queueId = queue.queueId;
    header.queueOffset = offset;
    header.maxMsgNums = maxNums;
    header.sysFlag = pullSysFlag::kSubscription;
    header.subscription = "*";
    return header;
}

} // namespace mqdesk::client
