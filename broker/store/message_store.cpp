#include "broker/store/message_store.h"

#include "broker/common/service_thread.h"
#include "broker/store/store_checkpoint.h"
#include "broker/store/store_files.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <filesystem>

namespace mqdesk::store {

class StoreTicker : public common::ServiceThread
{
public:
    explicit StoreTicker(MessageStore &store) : ServiceThread("StoreTicker"), store_(store) {}
    ~StoreTicker() override { stop(); }

protected:
    void run() override
    {
        using namespace std::chrono;
        while (!isStopped()) {
            // Tick on whole wall-clock seconds so samples line up with the clock the user sees.
            const auto now = system_clock::now();
            const auto next = ceil<seconds>(now + milliseconds(1));
            sleepFor(duration_cast<milliseconds>(next - now));
            if (!isStopped())
                store_.tick();
        }
    }

private:
    MessageStore &store_;
};

MessageStore::MessageStore(MessageStoreConfig config) : config_(std::move(config)) {}

MessageStore::~MessageStore()
{
    shutdown();
}

bool MessageStore::open(std::string &error)
{
    const std::string root = config_.rootDir();
    std::error_code ec;
    std::filesystem::create_directories(root, ec);
    if (ec) {
        error = "cannot create the store directory " + root + ": " + ec.message();
        return false;
    }
    lock_ = StoreLock::acquire(root, error);
    if (!lock_)
        return false;

    const bool lastExitOk = !abort_file::exists(root);
    checkpoint_ = StoreCheckpoint::open(root + "/checkpoint", error);
    if (!checkpoint_)
        return false;
    commitLog_ = std::make_unique<CommitLog>(config_, *checkpoint_, metrics_);
    if (!commitLog_->load(error) || !commitLog_->recover(lastExitOk, recovery_, error)) {
        commitLog_.reset();
        lock_.reset();
        return false;
    }
    spdlog::info("store {}: {} recovery scanned {} records from offset {}, log ends at {} ({})", root,
                 lastExitOk ? "normal" : "abnormal", recovery_.recordsScanned, recovery_.startOffset,
                 recovery_.processOffset, recovery_.stopReason);

    commitLog_->start();
    if (!abort_file::create(root, error)) {
        commitLog_->shutdown();
        return false;
    }
    ticker_ = std::make_unique<StoreTicker>(*this);
    ticker_->start();
    running_ = true;
    return true;
}

void MessageStore::tick()
{
    if (!commitLog_)
        return;
    std::string error;
    if (!checkpoint_->flush(error))
        spdlog::error("store: {}", error);
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    metrics_.takeSecondSample(std::chrono::duration_cast<std::chrono::seconds>(now).count(),
                              static_cast<uint64_t>(commitLog_->unflushedBytes()),
                              commitLog_->flushDiskType() == FlushDiskType::SyncFlush,
                              commitLog_->transientStorePoolEnabled());
}

void MessageStore::shutdown()
{
    if (!running_)
        return;
    running_ = false;
    ticker_.reset();
    commitLog_->shutdown();
    std::string error;
    if (!checkpoint_->flush(error)) {
        // Keep `abort`: the next start must not trust this shutdown.
        spdlog::error("store: {}; keeping the abort file", error);
    } else if (commitLog_->unflushedBytes() != 0) {
        spdlog::error("store: {} bytes could not be flushed; keeping the abort file",
                      commitLog_->unflushedBytes());
    } else if (!abort_file::remove(config_.rootDir(), error)) {
        spdlog::error("store: {}", error);
    }
    lock_.reset();
}

} // namespace mqdesk::store
