#pragma once

// ScheduleMessageService (store-format §12.1): delivers delayed messages. The store parks a
// message with DELAY = n in SCHEDULE_TOPIC_XXXX queue n−1, its queue entry's tags code being the
// delivery time; this thread walks each level's queue in order from the offset kept in
// delayOffset.json and, once an entry is due, stores the message again in REAL_TOPIC / REAL_QID.
//
// Contract: delivery is at least once. A level's offset moves past an entry only after the copy
// is stored, and is persisted every 10 s and at stop(), so a crash (or a failed persist) can
// deliver a message again, never lose one. Entries of one level are delivered in queue order; a
// level stops at its first entry not yet due (later entries of a level are never due earlier,
// since they were stored later with the same delay).
//
// The delivered record is what RocketMQ 4.9 writes: the delayed record's body, flag, sysflag,
// born time and host and reconsume times, and its property string as it was — still carrying
// DELAY, REAL_TOPIC and REAL_QID (Java clears DELAY only from the in-memory map after
// serialising the properties) — with the tags code computed from TAGS again by the dispatcher.
//
// Threads: its own ServiceThread (polls every 100 ms like Java's per-level timers); stop()
// before the store shuts down.

#include "broker/common/service_thread.h"

#include <cstdint>
#include <vector>

namespace mqdesk::server {

class BrokerController;

class ScheduleMessageService : public common::ServiceThread
{
public:
    explicit ScheduleMessageService(BrokerController &broker);
    ~ScheduleMessageService() override;

    // Reads the levels' offsets from delayOffset.json, moved into each queue's current range
    // (Java's correctDelayOffset). Requires: the store is open; call before start().
    void load();
    // Writes delayOffset.json now (errors are logged).
    void persist();
    // One pass over every level at `nowMillis` (wall clock, as store timestamps): delivers what
    // is due. Returns how many messages were delivered. Public for tests.
    int deliverDue(int64_t nowMillis);

protected:
    void run() override;

private:
    // Delivers the due entries of one level; false when a put failed (the level pauses).
    bool deliverLevel(int32_t level, int64_t nowMillis, int &delivered);

    BrokerController &broker_;
    std::vector<int64_t> offsets_;       // next queue offset per level (index level − 1)
    std::vector<int64_t> pausedUntil_;   // after a failed put, the level waits (wall ms)
};

} // namespace mqdesk::server
