#pragma once

// Browsing a topic's queues page by page, the way the console's Messages view reads them: a
// cursor over one queue or all readable queues of a topic, each read a bounded pull (at most
// 32 messages per PULL_MESSAGE) as the tools group (TOOLS_CONSUMER), never committing an
// offset and never waiting on a long poll. The cursor is a plain value: a caller keeps it
// between pages and hands it back for the next one. Every call blocks; run them off the GUI
// thread.

#include "broker/client/admin_client.h"

#include <optional>
#include <string>
#include <vector>

namespace mqdesk::client {

struct BrowseCursor
{
    struct Queue
    {
        MessageQueue queue;
        std::string brokerAddr;
        int64_t nextOffset = 0;
        int64_t minOffset = 0;
        int64_t maxOffset = 0; // when the cursor was opened
        bool done = false;
    };
    std::vector<Queue> queues; // sorted by broker name, queue id
    size_t current = 0;        // the queue the next page reads first

    bool atEnd() const { return current >= queues.size(); }
};

struct BrowseStart
{
    int32_t queueId = -1;                  // -1: every readable queue
    int64_t offset = 0;                    // used unless `timestamp` is set
    std::optional<int64_t> timestamp;      // store time (ms): SEARCH_OFFSET_BY_TIMESTAMP per queue
};

// Resolves the topic's route and each queue's start: the offset (raised to the queue's minimum)
// or the offset the broker finds for the time.
Result<BrowseCursor> openBrowse(AdminClient &admin, const std::string &topic, const BrowseStart &start);

// Up to `maxMessages` messages from the cursor, queue after queue, advancing it.
Result<std::vector<common::StoredMessage>> browseNext(AdminClient &admin, BrowseCursor &cursor,
                                                      int32_t maxMessages);

} // namespace mqdesk::client
