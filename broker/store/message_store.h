#pragma once

// The message store (RocketMQ's DefaultMessageStore), for now the commit log with its
// checkpoint, lock and abort files, and a once-a-second ticker that persists the checkpoint and
// samples the flush metrics.
//
// Life cycle: open() takes the lock (before anything is touched, unlike RocketMQ, so a second
// process can never truncate a running store's files), loads, recovers, starts the services
// and writes `abort`; shutdown() flushes everything, writes the checkpoint and removes `abort`.

#include "broker/store/commit_log.h"
#include "broker/store/flush_metrics.h"
#include "broker/store/store_config.h"

#include <memory>
#include <string>

namespace mqdesk::store {

class StoreCheckpoint;
class StoreLock;
class StoreTicker;

class MessageStore
{
public:
    explicit MessageStore(MessageStoreConfig config);
    ~MessageStore();
    MessageStore(const MessageStore &) = delete;
    MessageStore &operator=(const MessageStore &) = delete;

    // Returns false with `error` naming the file and the fault when the store cannot open.
    bool open(std::string &error);
    void shutdown();
    bool isRunning() const { return running_; }

    const MessageStoreConfig &config() const { return config_; }
    CommitLog &commitLog() { return *commitLog_; }
    FlushMetrics &metrics() { return metrics_; }
    StoreCheckpoint &checkpoint() { return *checkpoint_; }
    const RecoveryReport &recoveryReport() const { return recovery_; }

    PutMessageResult putMessage(const common::BrokerMessage &message) { return commitLog_->putMessage(message); }
    void asyncPutMessage(const common::BrokerMessage &message, PutCallback done)
    {
        commitLog_->asyncPutMessage(message, std::move(done));
    }

    void setFlushDiskType(FlushDiskType type) { commitLog_->setFlushDiskType(type); }
    bool setTransientStorePoolEnable(bool enable) { return commitLog_->setTransientStorePoolEnable(enable); }

    // One tick of the 1 s schedule: persist the checkpoint, take a metrics sample. Public so
    // tests can drive it.
    void tick();

private:
    MessageStoreConfig config_;
    FlushMetrics metrics_;
    std::unique_ptr<StoreLock> lock_;
    std::unique_ptr<StoreCheckpoint> checkpoint_;
    std::unique_ptr<CommitLog> commitLog_;
    std::unique_ptr<StoreTicker> ticker_;
    RecoveryReport recovery_;
    bool running_ = false;
};

} // namespace mqdesk::store
