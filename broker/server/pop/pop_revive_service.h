#pragma once

// The revive service (Java's PopReviveService): reads the revive topic's queues as the system
// group CID_RMQ_SYS_REVIVE_GROUP, matches each ACK to its CK (topic, group, queue, start offset,
// pop time, broker), and once a CK is due — the newest revive-queue message seen is more than two
// seconds past its revive time, so its acks (delivered at the revive time) have been read — puts
// every message of it still un-acked into the group's retry topic %RETRY%<group>_<topic> with
// reconsumeTimes + 1 and 1ST_POP_TIME, where the next pop finds it again.
//
// Progress is Java's: the group's committed offset on a revive queue is the last revive message
// fully dealt with; a pass starts after it, and commits up to the first CK not yet due. A
// message that cannot be re-put is retried through a new one-message CK with growing delays.
//
// One thread for all revive queues, every second. Requires the timer store (CKs are timer
// messages).

#include "broker/common/service_thread.h"

#include <cstdint>
#include <string>

namespace mqdesk::server::pop {

class PopService;
struct PopCheckPoint;

class PopReviveService : public common::ServiceThread
{
public:
    explicit PopReviveService(PopService &service);
    ~PopReviveService() override;

    // One pass over revive queue `queueId`; public for tests. Returns the CKs revived.
    int reviveQueue(int32_t queueId);

protected:
    void run() override;

private:
    // The newest time the revive queue is known complete up to when the scan reached its end.
    int64_t idleEndTime() const;
    // False when the message could not be re-put (the CK is then re-put for a later try).
    bool reviveMessage(const PopCheckPoint &ck, int index);
    void rePutCheckpoint(const PopCheckPoint &ck, int index, int32_t reviveQid);

    PopService &service_;
};

} // namespace mqdesk::server::pop
