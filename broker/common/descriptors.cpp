#include "broker/common/descriptors.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace mqdesk::common {

DescriptorLimit raiseOpenFileLimit()
{
    DescriptorLimit limit;
    rlimit current{};
    if (::getrlimit(RLIMIT_NOFILE, &current) != 0) {
        limit.error = std::string("getrlimit(RLIMIT_NOFILE): ") + std::strerror(errno);
        return limit;
    }
    limit.softBefore = limit.soft = current.rlim_cur;
    limit.hard = current.rlim_max;
    if (current.rlim_cur < current.rlim_max) {
        rlimit raised = current;
        raised.rlim_cur = current.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0)
            limit.soft = raised.rlim_cur;
        else
            limit.error = std::string("setrlimit(RLIMIT_NOFILE, ") + std::to_string(raised.rlim_cur)
                          + "): " + std::strerror(errno);
    }
    return limit;
}

uint64_t openFileLimit()
{
    rlimit current{};
    return ::getrlimit(RLIMIT_NOFILE, &current) == 0 ? current.rlim_cur : 0;
}

int64_t openDescriptors()
{
    std::error_code ec;
    int64_t count = 0;
    for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end; it.increment(ec))
        ++count;
    return ec ? -1 : std::max<int64_t>(0, count - 1); // less the directory's own descriptor
}

uint64_t connectionBudget(uint64_t softLimit)
{
    const uint64_t reserve = std::max<uint64_t>(256, softLimit / 8);
    return softLimit > reserve ? softLimit - reserve : 0;
}

namespace {
std::atomic<uint64_t> connectionLimit{0};
std::atomic<uint64_t> openConnections{0};
} // namespace

void ProcessConnections::setLimit(uint64_t limit)
{
    connectionLimit.store(limit);
}

uint64_t ProcessConnections::limit()
{
    return connectionLimit.load();
}

uint64_t ProcessConnections::open()
{
    return openConnections.load();
}

bool ProcessConnections::fits(uint64_t count)
{
    const uint64_t limit = connectionLimit.load();
    return limit == 0 || openConnections.load() + count <= limit;
}

void ProcessConnections::add(uint64_t count)
{
    openConnections.fetch_add(count);
}

void ProcessConnections::remove(uint64_t count)
{
    openConnections.fetch_sub(count);
}

} // namespace mqdesk::common
