#pragma once

// A message's properties: the key/value pairs RocketMQ stores in a record's PROPERTIES field as
// key 0x01 value 0x02 ... (store-format §3.5). Insertion order is kept, because the order the
// properties were given in is the order they are written (readers never depend on it).

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mqdesk::common {

namespace property {
inline constexpr std::string_view kKeys = "KEYS";
inline constexpr std::string_view kTags = "TAGS";
inline constexpr std::string_view kWaitStoreMsgOk = "WAIT";
inline constexpr std::string_view kDelayTimeLevel = "DELAY";
inline constexpr std::string_view kRetryTopic = "RETRY_TOPIC";
inline constexpr std::string_view kRealTopic = "REAL_TOPIC";
inline constexpr std::string_view kRealQueueId = "REAL_QID";
inline constexpr std::string_view kTransactionPrepared = "TRAN_MSG";
inline constexpr std::string_view kProducerGroup = "PGROUP";
inline constexpr std::string_view kUniqClientMessageId = "UNIQ_KEY";
inline constexpr std::string_view kCluster = "CLUSTER";
// Added by the broker to every message it stores (Java's buildMsgContext): its regionId and traceOn.
// A 5.x consumer with enableMsgTrace records its consumption only for messages carrying them.
inline constexpr std::string_view kMsgRegion = "MSG_REGION";
inline constexpr std::string_view kTraceSwitch = "TRACE_ON";
inline constexpr std::string_view kOriginMessageId = "ORIGIN_MESSAGE_ID";
inline constexpr std::string_view kMaxReconsumeTimes = "MAX_RECONSUME_TIMES";
// RocketMQ 5.x: a FIFO message's group, a timer message's time (and its delay forms).
inline constexpr std::string_view kShardingKey = "__SHARDINGKEY";
inline constexpr std::string_view kTimerDeliverMs = "TIMER_DELIVER_MS";
inline constexpr std::string_view kTimerDelaySec = "TIMER_DELAY_SEC";
inline constexpr std::string_view kTimerDelayMs = "TIMER_DELAY_MS";
// RocketMQ 5.4: a priority message's priority (a number >= 0; the broker's queue for it).
inline constexpr std::string_view kPriority = "_SYS_MSG_PRIORITY_";
// A popped message's receipt (CK info), set by the broker on what a pop hands out; never stored
// from a client.
inline constexpr std::string_view kPopCk = "POP_CK";
// RocketMQ 5.5: the lite topic a message of a LITE topic belongs to.
inline constexpr std::string_view kLiteTopic = "__LITE_TOPIC";
// LMQ multi-dispatch: the queues a message is also entered in (comma separated), and their
// offsets, written by the store at append.
inline constexpr std::string_view kInnerMultiDispatch = "INNER_MULTI_DISPATCH";
inline constexpr std::string_view kInnerMultiQueueOffset = "INNER_MULTI_QUEUE_OFFSET";
// A BatchCQ inner batch (sysFlag NEED_UNWRAP | INNER_BATCH): how many messages its body holds,
// set by the broker at send, and the queue offset of the first, set by the store at append.
inline constexpr std::string_view kInnerNum = "INNER_NUM";
inline constexpr std::string_view kInnerBase = "INNER_BASE";
} // namespace property

// LMQ names (light message queues, one queue, id 0) start with this; a lite topic's is
// "%LMQ%$<parent>$<lite>".
inline constexpr std::string_view kLmqPrefix = "%LMQ%";

class MessageProperties;

// What a message is by what it carries, as Java's TopicMessageType.parseFromMessageProperty:
// "TRANSACTION", "DELAY", "FIFO", "PRIORITY", "LITE" or "NORMAL", the first that applies.
std::string_view messageTypeOf(const MessageProperties &properties);

inline constexpr char kNameValueSeparator = '\x01';
inline constexpr char kPropertySeparator = '\x02';
inline constexpr char kKeySeparator = ' '; // between several KEYS

class MessageProperties
{
public:
    using Entry = std::pair<std::string, std::string>;

    MessageProperties() = default;
    MessageProperties(std::initializer_list<Entry> entries);

    // Parses the stored form with RocketMQ's rules: segments shorter than 3 bytes or without a
    // non-empty key and value are ignored; a repeated key keeps its last value. Linear in the
    // input: any bytes a client sends are read in one pass.
    static MessageProperties decode(std::string_view encoded);
    // The value of `key` in an encoded property string, without decoding the rest (the last
    // occurrence wins, as in decode()).
    static std::optional<std::string_view> find(std::string_view encoded, std::string_view key);
    std::string encode() const;

    std::optional<std::string_view> get(std::string_view key) const;
    // Replaces the value of an existing key in place, otherwise appends.
    void set(std::string_view key, std::string_view value);
    // set() for every entry of `other`, in its order, in time linear in both sizes.
    void merge(const MessageProperties &other);
    bool remove(std::string_view key);

    bool empty() const { return entries_.empty(); }
    size_t size() const { return entries_.size(); }
    auto begin() const { return entries_.begin(); }
    auto end() const { return entries_.end(); }

    // KEYS split on spaces, empty parts dropped.
    std::vector<std::string_view> keys() const;

    bool operator==(const MessageProperties &other) const = default;

private:
    void removeRepeatedKeys();

    std::vector<Entry> entries_;
};

} // namespace mqdesk::common
