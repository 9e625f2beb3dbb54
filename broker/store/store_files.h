#pragma once

// The store root's `lock` and `abort` files (store-format §1.1, §1.2).

#include <memory>
#include <string>

namespace mqdesk::store {

// An exclusive fcntl write lock on byte 0 of <root>/lock — the lock a Java broker takes with
// FileChannel.tryLock — held until destruction. The file holds the ASCII bytes "lock".
class StoreLock
{
public:
    // Returns nullptr when another process holds the lock; `error` then names the store and,
    // where the kernel tells, the holder's pid.
    static std::unique_ptr<StoreLock> acquire(const std::string &rootDir, std::string &error);
    ~StoreLock();

private:
    explicit StoreLock(int fd) : fd_(fd) {}
    int fd_;
};

namespace abort_file {
std::string path(const std::string &rootDir);
bool exists(const std::string &rootDir);
// Writes our pid to <root>/abort, copying its previous content to abort.bak first, as
// RocketMQ's MixAll.string2File does; forced to disk so a crash leaves it behind.
bool create(const std::string &rootDir, std::string &error);
bool remove(const std::string &rootDir, std::string &error);
} // namespace abort_file

} // namespace mqdesk::store
