#include "broker/common/message_batch.h"

#include "broker/common/bytes.h"

namespace mqdesk::common {

namespace {
constexpr size_t kFixedBeforeBody = 20; // TOTALSIZE, MAGICCODE, BODYCRC, FLAG, BODYLEN
constexpr size_t kPropertiesLengthSize = 2;
} // namespace

bool decodeMessageBatch(std::span<const uint8_t> body, std::vector<BrokerMessage> &out, std::string &error)
{
    size_t at = 0;
    while (at < body.size()) {
        const auto where = [&] {
            return "batch message " + std::to_string(out.size()) + " at byte " + std::to_string(at);
        };
        if (out.size() == kMaxBatchMessages) {
            error = where() + ": more than " + std::to_string(kMaxBatchMessages) + " messages in one batch";
            return false;
        }
        if (body.size() - at < kFixedBeforeBody + kPropertiesLengthSize) {
            error = where() + ": truncated header (" + std::to_string(body.size() - at) + " bytes left)";
            return false;
        }
        const uint8_t *p = body.data() + at;
        const int32_t totalSize = readInt32(p);
        if (totalSize < static_cast<int32_t>(kFixedBeforeBody + kPropertiesLengthSize)
            || static_cast<size_t>(totalSize) > body.size() - at) {
            error = where() + ": bad totalSize " + std::to_string(totalSize);
            return false;
        }
        const int32_t bodyLength = readInt32(p + 16);
        if (bodyLength < 0
            || kFixedBeforeBody + static_cast<size_t>(bodyLength) + kPropertiesLengthSize > static_cast<size_t>(totalSize)) {
            error = where() + ": bad bodyLen " + std::to_string(bodyLength);
            return false;
        }
        const uint8_t *properties = p + kFixedBeforeBody + bodyLength + kPropertiesLengthSize;
        const int16_t propertiesLength = readInt16(properties - kPropertiesLengthSize);
        if (propertiesLength < 0
            || kFixedBeforeBody + static_cast<size_t>(bodyLength) + kPropertiesLengthSize
                       + static_cast<size_t>(propertiesLength)
                   != static_cast<size_t>(totalSize)) {
            error = where() + ": bad propsLen " + std::to_string(propertiesLength);
            return false;
        }
        BrokerMessage &message = out.emplace_back();
        message.flag = readInt32(p + 12);
        message.body.assign(p + kFixedBeforeBody, p + kFixedBeforeBody + bodyLength);
        message.properties = MessageProperties::decode(
            std::string_view(reinterpret_cast<const char *>(properties), static_cast<size_t>(propertiesLength)));
        at += static_cast<size_t>(totalSize);
    }
    if (out.empty()) {
        error = "empty batch";
        return false;
    }
    return true;
}

} // namespace mqdesk::common
