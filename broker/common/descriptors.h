#pragma once

// The process's file descriptors: its open-file limit (RLIMIT_NOFILE) and how many are open.
// The broker raises its soft limit to the hard one at start, as the JVM does (-XX:+MaxFDLimit,
// on by default), and keeps part of it for the store's own files: client sockets may use what
// is left (connectionBudget), so that a crowd of clients never leaves the commit log unable to
// roll or a config file unable to be written. Thread-safe.

#include <cstdint>
#include <string>

namespace mqdesk::common {

struct DescriptorLimit
{
    uint64_t softBefore = 0; // the soft limit the process started with
    uint64_t soft = 0;       // now
    uint64_t hard = 0;
    std::string error;       // why it could not be read or raised; empty when it was
};

// Raises the soft RLIMIT_NOFILE to the hard limit (a no-op when they are equal).
DescriptorLimit raiseOpenFileLimit();
// The soft limit now; 0 when it cannot be read.
uint64_t openFileLimit();
// Descriptors open now (entries of /proc/self/fd); -1 when they cannot be counted.
int64_t openDescriptors();
// How many client connections a process with `softLimit` descriptors may hold: the limit less a
// reserve for the store, its config files and the process's own (an eighth of the limit, at
// least 256). 0 when the limit leaves none.
uint64_t connectionBudget(uint64_t softLimit);

// The client connections every server of the process holds together (remoting's, the gRPC
// guard's), against one limit set from connectionBudget at start. A server counts the
// descriptors a connection takes: one for a remoting connection, three for a gRPC one (its
// socket and the pair that hands it to grpc++).
struct ProcessConnections
{
    static void setLimit(uint64_t limit); // 0: no limit
    static uint64_t limit();
    static uint64_t open();
    // Whether `count` more fit under the limit.
    static bool fits(uint64_t count);
    static void add(uint64_t count);
    static void remove(uint64_t count);
};

} // namespace mqdesk::common
