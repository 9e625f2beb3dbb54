#pragma once

// Messages written to a file whole — what the Dashboard's export of dead letters gives, for any
// topic: each message's place (topic, queue, offset), its ids (UNIQ_KEY and offset id), times,
// hosts, tags, keys, reconsume times, every property and the body. A body that is UTF-8 text is
// written as text; any other (binary, or compressed by its producer: sysFlag bit 0) as base64,
// and the record says which. Two formats, chosen by the file's suffix:
//   .csv   RFC 4180, UTF-8, a header line, one row per message, properties as key=value lines;
//   else   JSON Lines: one JSON object per line (.jsonl), e.g.
//          {"topic":"%DLQ%G","queueId":0,"queueOffset":3,"msgId":"…","offsetMsgId":"…",
//           "storeTimestamp":…,"bornTimestamp":…,"bornHost":"…","storeHost":"…","reconsumeTimes":3,
//           "tags":"TagA","keys":"k1 k2","properties":{…},"bodyEncoding":"utf-8","body":"…"}
// The file is written atomically (QSaveFile): a failed export leaves no half file.

#include "broker/common/message.h"

#include <QString>

#include <vector>

namespace mqdesk::ui {

enum class MessageExportFormat { JsonLines, Csv };

MessageExportFormat messageExportFormatFor(const QString &path);

// False with `error` naming the file and why when it cannot be written.
bool writeMessages(const std::vector<common::StoredMessage> &messages, const QString &path, QString *error = nullptr);

} // namespace mqdesk::ui
