#include "broker/store/store_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace mqdesk::store {

namespace abort_file {
std::string path(const std::string &rootDir) { return rootDir + "/abort"; }
} // namespace abort_file

std::unique_ptr<StoreLock> StoreLock::acquire(const std::string &rootDir, std::string &error)
{
    const std::string path = rootDir + "/lock";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = "cannot open " + path + ": " + std::strerror(errno);
        return nullptr;
    }
    struct flock lock{};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = 0;
    lock.l_len = 1;
    // An open-file-description lock: it excludes other processes (a Java broker's classic
    // POSIX lock included) and, unlike a classic lock, a second opening in this same process.
    if (::fcntl(fd, F_OFD_SETLK, &lock) != 0) {
        const int lockErrno = errno;
        std::string holder;
        struct flock probe = lock;
        if (::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK && probe.l_pid > 0) {
            holder = " (held by pid " + std::to_string(probe.l_pid) + ")"; // a classic lock, e.g. Java's
        } else {
            // Open-file-description locks do not tell their owner; a running store's abort file
            // holds its pid.
            std::ifstream abortFile(abort_file::path(rootDir));
            std::string pid;
            if (abortFile >> pid && !pid.empty())
                holder = " (its abort file names pid " + pid + ")";
        }
        error = "the store " + rootDir + " is in use by another broker" + holder
                + ": cannot lock " + path + ": " + std::strerror(lockErrno);
        ::close(fd);
        return nullptr;
    }
    if (::pwrite(fd, "lock", 4, 0) != 4 || ::fdatasync(fd) != 0) {
        error = "cannot write " + path + ": " + std::strerror(errno);
        ::close(fd);
        return nullptr;
    }
    return std::unique_ptr<StoreLock>(new StoreLock(fd));
}

StoreLock::~StoreLock()
{
    ::close(fd_); // closing drops the fcntl lock
}

namespace abort_file {

bool exists(const std::string &rootDir) { return ::access(path(rootDir).c_str(), F_OK) == 0; }

namespace {

bool writeAndSync(const std::string &file, const std::string &content, std::string &error)
{
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ::write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size())
        || ::fsync(fd) != 0) {
        error = "cannot write " + file + ": " + std::strerror(errno);
        if (fd >= 0)
            ::close(fd);
        return false;
    }
    ::close(fd);
    return true;
}

} // namespace

bool create(const std::string &rootDir, std::string &error)
{
    std::string previous;
    {
        std::ifstream in(path(rootDir), std::ios::binary);
        std::ostringstream content;
        content << in.rdbuf();
        previous = content.str();
    }
    if (!writeAndSync(path(rootDir) + ".bak", previous, error))
        return false;
    if (!writeAndSync(path(rootDir), std::to_string(::getpid()), error))
        return false;
    // Make the new directory entries durable too: an abort file lost in a crash would make
    // the next start take the quick, trusting recovery path.
    const int dir = ::open(rootDir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

bool remove(const std::string &rootDir, std::string &error)
{
    if (::unlink(path(rootDir).c_str()) != 0 && errno != ENOENT) {
        error = "cannot delete " + path(rootDir) + ": " + std::strerror(errno);
        return false;
    }
    return true;
}

} // namespace abort_file

} // namespace mqdesk::store
