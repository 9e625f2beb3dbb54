#include "broker/client/client_types.h"

#include "broker/remoting/remoting_codes.h"
#include "broker/remoting/remoting_command.h"

namespace mqdesk::client {

bool Status::isNoPermission() const
{
    return !ok && code == remoting::ResponseCode::kNoPermission;
}

bool Status::isNotSupported() const
{
    return !ok && code == remoting::ResponseCode::kRequestCodeNotSupported;
}

bool Status::isConsumerNotOnline() const
{
    return !ok && code == remoting::ResponseCode::kConsumerNotOnline;
}

bool Status::isNotFound() const
{
    return !ok && code == remoting::ResponseCode::kQueryNotFound;
}

std::string versionName(int32_t ordinal)
{
    return remoting::mqVersionName(ordinal);
}

std::string_view sendStatusName(SendStatus status)
{
    switch (status) {
    case SendStatus::SendOk: return "SEND_OK";
    case SendStatus::FlushDiskTimeout: return "FLUSH_DISK_TIMEOUT";
    case SendStatus::FlushSlaveTimeout: return "FLUSH_SLAVE_TIMEOUT";
    case SendStatus::SlaveNotAvailable: return "SLAVE_NOT_AVAILABLE";
    }
    return "SEND_OK";
}

std::string_view pullStatusName(PullStatus status)
{
    switch (status) {
    case PullStatus::Found: return "FOUND";
    case PullStatus::NoNewMsg: return "NO_NEW_MSG";
    case PullStatus::NoMatchedMsg: return "NO_MATCHED_MSG";
    case PullStatus::OffsetIllegal: return "OFFSET_ILLEGAL";
    }
    return "NO_NEW_MSG";
}

std::vector<std::string> splitList(std::string_view text, char separator)
{
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(separator, start);
        if (end == std::string_view::npos)
            end = text.size();
        if (end > start)
            out.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

std::vector<std::string> SendResult::msgIds() const { return splitList(msgId, ','); }
std::vector<std::string> SendResult::uniqKeys() const { return splitList(uniqKey, ','); }

} // namespace mqdesk::client
