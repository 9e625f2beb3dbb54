#pragma once

#include "test_support.h"

#include "broker/store/message_store.h"

#include <memory>

namespace mqdesk::test {

inline store::MessageStoreConfig smallStoreConfig(const QString &root, int64_t fileSize = 64 * 1024,
                                                  store::FlushDiskType flush = store::FlushDiskType::AsyncFlush)
{
    store::MessageStoreConfig config;
    config.storePathRootDir = root.toStdString();
    config.mappedFileSizeCommitLog = fileSize;
    config.flushDiskType = flush;
    config.listenPort = 10911;
    // Small index files (the default one is 420 MB): tests make many stores.
    config.maxHashSlotNum = 1000;
    config.maxIndexNum = 4000;
    return config;
}

inline common::BrokerMessage makeMessage(const std::string &topic, int32_t queueId, const std::string &body,
                                         const std::string &keys = {})
{
    common::BrokerMessage m;
    m.topic = topic;
    m.queueId = queueId;
    m.setBody(body);
    m.properties.set(common::property::kTags, "TagA");
    if (!keys.empty())
        m.properties.set(common::property::kKeys, keys);
    m.bornTimestamp = 1700000000000;
    m.bornHost = common::HostAddress::ipv4(127, 0, 0, 1, 40000);
    return m;
}

// `batchTopics`: the topics whose queues are BatchCQ (MessageStore::setBatchTopicTest).
inline std::unique_ptr<store::MessageStore> openStore(const store::MessageStoreConfig &config,
                                                      std::function<bool(const std::string &)> batchTopics = {})
{
    auto s = std::make_unique<store::MessageStore>(config);
    s->setBatchTopicTest(std::move(batchTopics));
    std::string error;
    if (!s->open(error)) {
        qWarning("cannot open store: %s", error.c_str());
        return nullptr;
    }
    return s;
}

// Every readable record of the store's commit log, in order.
inline std::vector<common::StoredMessage> allRecords(store::CommitLog &log)
{
    std::vector<common::StoredMessage> out;
    log.forEachRecord(log.minOffset(), [&out](int64_t, const common::RecordView &r) {
        out.push_back(r.materialize());
        return true;
    });
    return out;
}

} // namespace mqdesk::test
