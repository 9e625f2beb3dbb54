#include "broker/store/store_config.h"

#include "broker/common/config_fields.h"
#include "broker/common/host_address.h"

#include <charconv>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <limits>

namespace mqdesk::store {

namespace {

using Field = common::ConfigField<MessageStoreConfig>;
using common::boolField;
using common::intField;
using common::stringField;

// MessageStoreConfig.setTimerPrecisionMs: the largest of 100, 200, 500, 1000 not above the value
// (anything below 200 gives 100).
int snapTimerPrecision(int value)
{
    constexpr int kCandidates[] = {100, 200, 500, 1000};
    for (size_t i = 1; i < std::size(kCandidates); ++i) {
        if (value < kCandidates[i])
            return kCandidates[i - 1];
    }
    return kCandidates[std::size(kCandidates) - 1];
}

const std::map<std::string, Field, std::less<>> &fields()
{
    using C = MessageStoreConfig;
    static const std::map<std::string, Field, std::less<>> table = {
        {"storePathRootDir", stringField(&C::storePathRootDir)},
        {"storePathCommitLog", stringField(&C::storePathCommitLog)},
        {"mappedFileSizeCommitLog", intField(&C::mappedFileSizeCommitLog, int64_t{4096})},
        {"flushDiskType",
         {[](C &c, std::string_view v) -> std::string {
              const auto type = parseFlushDiskType(v);
              if (!type)
                  return "expected SYNC_FLUSH or ASYNC_FLUSH";
              c.flushDiskType = *type;
              return {};
          },
          [](const C &c) { return std::string(flushDiskTypeName(c.flushDiskType)); }}},
        {"syncFlushTimeout", intField(&C::syncFlushTimeout, 1)},
        {"flushIntervalCommitLog", intField(&C::flushIntervalCommitLog, 1)},
        {"flushCommitLogLeastPages", intField(&C::flushCommitLogLeastPages, 0)},
        {"flushCommitLogThoroughInterval", intField(&C::flushCommitLogThoroughInterval, 0)},
        {"flushCommitLogTimed", boolField(&C::flushCommitLogTimed)},
        {"wakeFlushWhenPutMessage", boolField(&C::wakeFlushWhenPutMessage)},
        {"writeWithoutMmap", boolField(&C::writeWithoutMmap)},
        {"warmMapedFileEnable", boolField(&C::warmMapedFileEnable)},
        {"flushLeastPagesWhenWarmMapedFile", intField(&C::flushLeastPagesWhenWarmMapedFile, 1)},
        {"useReentrantLockWhenPutMessage", boolField(&C::useReentrantLockWhenPutMessage)},
        {"transientStorePoolEnable", boolField(&C::transientStorePoolEnable)},
        {"transientStorePoolSize", intField(&C::transientStorePoolSize, 1)},
        {"fastFailIfNoBufferInStorePool", boolField(&C::fastFailIfNoBufferInStorePool)},
        {"commitIntervalCommitLog", intField(&C::commitIntervalCommitLog, 1)},
        {"commitCommitLogLeastPages", intField(&C::commitCommitLogLeastPages, 0)},
        {"commitCommitLogThoroughInterval", intField(&C::commitCommitLogThoroughInterval, 0)},
        {"wakeCommitWhenPutMessage", boolField(&C::wakeCommitWhenPutMessage)},
        {"maxMessageSize", intField(&C::maxMessageSize, 1)},
        {"mappedFileSizeConsumeQueue", intField(&C::mappedFileSizeConsumeQueue, int64_t{20})},
        {"mapperFileSizeBatchConsumeQueue", intField(&C::mapperFileSizeBatchConsumeQueue, int64_t{46})},
        {"flushIntervalConsumeQueue", intField(&C::flushIntervalConsumeQueue, 1)},
        {"flushConsumeQueueLeastPages", intField(&C::flushConsumeQueueLeastPages, 0)},
        {"flushConsumeQueueThoroughInterval", intField(&C::flushConsumeQueueThoroughInterval, 0)},
        {"messageDelayLevel", stringField(&C::messageDelayLevel)},
        {"fileReservedTime", intField(&C::fileReservedTime, 0)},
        {"deleteWhen", stringField(&C::deleteWhen)},
        {"diskMaxUsedSpaceRatio", intField(&C::diskMaxUsedSpaceRatio, 0)},
        {"diskSpaceWarningLevelRatio", intField(&C::diskSpaceWarningLevelRatio, 0)},
        {"diskSpaceCleanForciblyRatio", intField(&C::diskSpaceCleanForciblyRatio, 0)},
        {"cleanResourceInterval", intField(&C::cleanResourceInterval, 1)},
        {"deleteFileBatchMax", intField(&C::deleteFileBatchMax, 1)},
        {"cleanFileForciblyEnable", boolField(&C::cleanFileForciblyEnable)},
        {"checkCRCOnRecover", boolField(&C::checkCRCOnRecover)},
        {"messageIndexEnable", boolField(&C::messageIndexEnable)},
        {"enableLmq", boolField(&C::enableLmq)},
        {"enableMultiDispatch", boolField(&C::enableMultiDispatch)},
        {"enableLmqQuota", boolField(&C::enableLmqQuota)},
        {"maxLmqConsumeQueueNum", intField(&C::maxLmqConsumeQueueNum, 0)},
        {"maxTransferBytesOnMessageInMemory", intField(&C::maxTransferBytesOnMessageInMemory, 1)},
        {"maxTransferCountOnMessageInMemory", intField(&C::maxTransferCountOnMessageInMemory, 1)},
        {"maxMsgsNumBatch", intField(&C::maxMsgsNumBatch, 1)},
        {"defaultQueryMaxNum", intField(&C::defaultQueryMaxNum, 1)},
        {"maxTransferBytesOnMessageInDisk", intField(&C::maxTransferBytesOnMessageInDisk, 1)},
        {"maxTransferCountOnMessageInDisk", intField(&C::maxTransferCountOnMessageInDisk, 1)},
        {"accessMessageInMemoryMaxRatio", intField(&C::accessMessageInMemoryMaxRatio, 0)},
        {"maxHashSlotNum", intField(&C::maxHashSlotNum, 1)},
        {"maxIndexNum", intField(&C::maxIndexNum, 2)},
        {"timerWheelEnable", boolField(&C::timerWheelEnable)},
        {"timerPrecisionMs",
         {[](C &c, std::string_view v) -> std::string {
              int value = 0;
              if (std::string error = common::parseConfigInt(v, value, 1); !error.empty())
                  return error;
              c.timerPrecisionMs = snapTimerPrecision(value);
              return {};
          },
          [](const C &c) { return std::to_string(c.timerPrecisionMs); }}},
        {"timerMaxDelaySec", intField(&C::timerMaxDelaySec, 1)},
        {"timerRollWindowSlot", intField(&C::timerRollWindowSlot, std::numeric_limits<int>::min())},
        {"timerFlushIntervalMs", intField(&C::timerFlushIntervalMs, 1)},
        {"mappedFileSizeTimerLog", intField(&C::mappedFileSizeTimerLog, int64_t{4096})},
        {"timerStopEnqueue", boolField(&C::timerStopEnqueue)},
        {"timerStopDequeue", boolField(&C::timerStopDequeue)},
        {"timerSkipUnknownError", boolField(&C::timerSkipUnknownError)},
        {"timerEnableRetryUntilSuccess", boolField(&C::timerEnableRetryUntilSuccess)},
        {"timerCongestNumEachSlot", intField(&C::timerCongestNumEachSlot, 0)},
        {"timerProgressLogIntervalMs", intField(&C::timerProgressLogIntervalMs, 1)},
        {"disappearTimeAfterStart", intField(&C::disappearTimeAfterStart, std::numeric_limits<int>::min())},
        {"brokerIP1", stringField(&C::brokerIP1)},
        {"listenPort", intField(&C::listenPort, 0)},
    };
    return table;
}

} // namespace

std::string_view flushDiskTypeName(FlushDiskType type)
{
    return type == FlushDiskType::SyncFlush ? "SYNC_FLUSH" : "ASYNC_FLUSH";
}

std::optional<FlushDiskType> parseFlushDiskType(std::string_view text)
{
    if (text == "SYNC_FLUSH")
        return FlushDiskType::SyncFlush;
    if (text == "ASYNC_FLUSH")
        return FlushDiskType::AsyncFlush;
    return std::nullopt;
}

std::string MessageStoreConfig::rootDir() const
{
    if (!storePathRootDir.empty())
        return storePathRootDir;
    const char *home = std::getenv("HOME");
    return std::string(home ? home : ".") + "/store";
}

std::string MessageStoreConfig::commitLogDir() const
{
    return storePathCommitLog.empty() ? rootDir() + "/commitlog" : storePathCommitLog;
}

std::string MessageStoreConfig::set(std::string_view key, std::string_view value)
{
    const auto it = fields().find(key);
    if (it == fields().end())
        return "unknown store setting '" + std::string(key) + "'";
    MessageStoreConfig candidate = *this;
    if (std::string error = it->second.set(candidate, value); !error.empty())
        return "bad value '" + std::string(value) + "' for " + std::string(key) + ": " + error;
    if (candidate.maxMessageSize > (1 << 30))
        return "bad value '" + std::string(value) + "' for " + std::string(key)
               + ": maxMessageSize must stay at or below 1 GiB";
    if (!candidate.brokerIP1.empty() && !common::HostAddress::parse(candidate.brokerIP1))
        return "bad value '" + std::string(value) + "' for " + std::string(key)
               + ": brokerIP1 must be an IPv4 or IPv6 address";
    if (candidate.mappedFileSizeCommitLog > (int64_t{1} << 31) - 1)
        return "bad value '" + std::string(value) + "' for " + std::string(key)
               + ": mappedFileSizeCommitLog must stay below 2 GiB (record positions are ints)";
    if (candidate.mappedFileSizeTimerLog > (int64_t{1} << 31) - 1)
        return "bad value '" + std::string(value) + "' for " + std::string(key)
               + ": mappedFileSizeTimerLog must stay below 2 GiB (Java keeps it in an int)";
    if (40 + int64_t{4} * candidate.maxHashSlotNum + int64_t{20} * candidate.maxIndexNum
        > (int64_t{1} << 31) - 1) // Java computes the index file size as an int
        return "bad value '" + std::string(value) + "' for " + std::string(key)
               + ": 40 + maxHashSlotNum×4 + maxIndexNum×20 (the index file size) must stay below 2 GiB";
    *this = std::move(candidate);
    return {};
}

MessageStoreConfig::ApplyResult MessageStoreConfig::apply(const std::map<std::string, std::string> &properties)
{
    return common::applyConfigProperties(*this, fields(), properties);
}

std::vector<std::pair<std::string, std::string>> MessageStoreConfig::toProperties() const
{
    auto out = common::configProperties(*this, fields());
    // Show the effective defaults rather than empty strings.
    for (auto &[key, value] : out) {
        if (key == "storePathRootDir")
            value = rootDir();
        else if (key == "storePathCommitLog")
            value = commitLogDir();
    }
    return out;
}

} // namespace mqdesk::store
