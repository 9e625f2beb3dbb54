#include "broker/store/reader/reader_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace mqdesk::store {

namespace {

FileStatus statusOf(const struct stat &st)
{
    FileStatus status;
    status.regular = S_ISREG(st.st_mode);
    status.directory = S_ISDIR(st.st_mode);
    status.size = st.st_size;
    status.modifiedMillis = int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
    status.device = st.st_dev;
    status.inode = st.st_ino;
    return status;
}

// O_NOATIME keeps even the access times of the store as they were; only the owner (or root) may
// ask for it, so fall back to a plain read-only open.
int openReadOnly(const std::string &path)
{
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOATIME);
    if (fd < 0 && errno == EPERM)
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    return fd;
}

class RealReaderFiles final : public ReaderFiles
{
public:
    int status(const std::string &path, FileStatus &out) const override
    {
        struct stat st{};
        if (::stat(path.c_str(), &st) != 0)
            return errno;
        out = statusOf(st);
        return 0;
    }

    int checkReadableDirectory(const std::string &path) const override
    {
        return ::access(path.c_str(), R_OK | X_OK) == 0 ? 0 : errno;
    }

    std::vector<DirectoryEntry> list(const std::string &directory) const override
    {
        std::vector<DirectoryEntry> out;
        DIR *dir = ::opendir(directory.c_str());
        if (!dir)
            return out;
        while (const dirent *entry = ::readdir(dir)) {
            const std::string_view name = entry->d_name;
            if (name == "." || name == "..")
                continue;
            bool symlink = entry->d_type == DT_LNK;
            if (entry->d_type == DT_UNKNOWN) { // some file systems do not fill d_type
                struct stat st{};
                symlink = ::lstat((directory + "/" + entry->d_name).c_str(), &st) == 0 && S_ISLNK(st.st_mode);
            }
            out.push_back({std::string(name), symlink});
        }
        ::closedir(dir);
        return out;
    }

    int map(const std::string &path, MappedRegion &out) const override
    {
        const int fd = openReadOnly(path);
        if (fd < 0)
            return errno;
        // Identity and size from the descriptor we map, not from an earlier stat (the file may
        // have been replaced in between).
        struct stat st{};
        if (::fstat(fd, &st) != 0) {
            const int error = errno;
            ::close(fd);
            return error;
        }
        if (!S_ISREG(st.st_mode)) {
            ::close(fd);
            return EINVAL;
        }
        MappedRegion region;
        region.status = statusOf(st);
        if (st.st_size > 0) {
            void *mapped = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
            if (mapped == MAP_FAILED) {
                const int error = errno;
                ::close(fd);
                return error;
            }
            const auto length = static_cast<size_t>(st.st_size);
            region.data = std::shared_ptr<const uint8_t>(static_cast<const uint8_t *>(mapped),
                                                         [length](const uint8_t *p) {
                                                             ::munmap(const_cast<uint8_t *>(p), length);
                                                         });
        }
        ::close(fd); // the mapping stays valid without the descriptor
        out = std::move(region);
        return 0;
    }

    bool readAll(const std::string &path, std::string &content) const override
    {
        const int fd = openReadOnly(path);
        if (fd < 0)
            return false;
        content.clear();
        char buffer[65536];
        for (;;) {
            const ssize_t n = ::read(fd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            content.append(buffer, static_cast<size_t>(n));
        }
        ::close(fd);
        return true;
    }

    LockState probeLock(const std::string &path) const override
    {
        // Contract: the descriptor is opened and closed here. Closing a descriptor drops every
        // classic POSIX lock this process holds on the file; MQDesk's StoreLock is an
        // open-file-description lock, which survives that, so probing our own store is safe.
        LockState state;
        const int fd = openReadOnly(path);
        if (fd < 0) {
            if (errno != ENOENT)
                state.error = "cannot open " + path + ": " + std::strerror(errno);
            return state;
        }
        state.present = true;
        char content[64];
        const ssize_t n = ::pread(fd, content, sizeof content, 0);
        if (n > 0)
            state.content.assign(content, static_cast<size_t>(n));
        // A query needs no write access: F_OFD_GETLK reports any lock (classic or OFD, of any
        // process, and OFD locks of other descriptions in this one) that a write lock on byte 0
        // would meet.
        struct flock probe{};
        probe.l_type = F_WRLCK;
        probe.l_whence = SEEK_SET;
        probe.l_start = 0;
        probe.l_len = 1;
        if (::fcntl(fd, F_OFD_GETLK, &probe) != 0) {
            state.error = "cannot probe the lock on " + path + ": " + std::strerror(errno);
        } else if (probe.l_type != F_UNLCK) {
            state.live = true;
            state.holderPid = probe.l_pid > 0 ? probe.l_pid : -1;
        }
        ::close(fd);
        return state;
    }
};

// "/a/b/" → "/a/b"; the root stays "/".
std::string withoutTrailingSlash(std::string path)
{
    while (path.size() > 1 && path.back() == '/')
        path.pop_back();
    return path;
}

} // namespace

std::shared_ptr<const ReaderFiles> realReaderFiles()
{
    static const std::shared_ptr<const ReaderFiles> files = std::make_shared<RealReaderFiles>();
    return files;
}

void MemoryReaderFiles::put(const std::string &path, std::vector<uint8_t> bytes)
{
    std::lock_guard lock(mutex_);
    files_[withoutTrailingSlash(path)] = {std::make_shared<const std::vector<uint8_t>>(std::move(bytes)), nextInode_++};
}

void MemoryReaderFiles::addDirectory(const std::string &path)
{
    std::lock_guard lock(mutex_);
    directories_.insert(withoutTrailingSlash(path));
}

void MemoryReaderFiles::remove(const std::string &path)
{
    const std::string exact = withoutTrailingSlash(path);
    const std::string prefix = exact + "/";
    std::lock_guard lock(mutex_);
    files_.erase(exact);
    directories_.erase(exact);
    for (auto it = files_.lower_bound(prefix); it != files_.end() && it->first.starts_with(prefix);)
        it = files_.erase(it);
    for (auto it = directories_.lower_bound(prefix); it != directories_.end() && it->starts_with(prefix);)
        it = directories_.erase(it);
}

bool MemoryReaderFiles::isDirectoryLocked(const std::string &path) const
{
    if (directories_.contains(path))
        return true;
    const std::string prefix = path == "/" ? path : path + "/";
    const auto file = files_.lower_bound(prefix);
    if (file != files_.end() && file->first.starts_with(prefix))
        return true;
    const auto directory = directories_.lower_bound(prefix);
    return directory != directories_.end() && directory->starts_with(prefix);
}

int MemoryReaderFiles::status(const std::string &path, FileStatus &out) const
{
    const std::string exact = withoutTrailingSlash(path);
    std::lock_guard lock(mutex_);
    if (const auto it = files_.find(exact); it != files_.end()) {
        out = {};
        out.regular = true;
        out.size = static_cast<int64_t>(it->second.bytes->size());
        out.inode = it->second.inode;
        return 0;
    }
    if (isDirectoryLocked(exact)) {
        out = {};
        out.directory = true;
        return 0;
    }
    return ENOENT;
}

int MemoryReaderFiles::checkReadableDirectory(const std::string &path) const
{
    FileStatus status;
    if (const int error = this->status(path, status); error != 0)
        return error;
    return status.directory ? 0 : ENOTDIR;
}

std::vector<DirectoryEntry> MemoryReaderFiles::list(const std::string &directory) const
{
    const std::string exact = withoutTrailingSlash(directory);
    const std::string prefix = exact == "/" ? exact : exact + "/";
    std::vector<DirectoryEntry> out;
    std::lock_guard lock(mutex_);
    std::string last;
    const auto collect = [&](const std::string &path) {
        const std::string rest = path.substr(prefix.size());
        const std::string name = rest.substr(0, rest.find('/'));
        if (!name.empty() && name != last) {
            out.push_back({name, false});
            last = name;
        }
    };
    for (auto it = files_.lower_bound(prefix); it != files_.end() && it->first.starts_with(prefix); ++it)
        collect(it->first);
    last.clear();
    for (auto it = directories_.lower_bound(prefix); it != directories_.end() && it->starts_with(prefix); ++it)
        collect(*it);
    // A name can be both a file's parent and an added directory: keep it once.
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.name < b.name; });
    out.erase(std::unique(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.name == b.name; }),
              out.end());
    return out;
}

int MemoryReaderFiles::map(const std::string &path, MappedRegion &out) const
{
    std::lock_guard lock(mutex_);
    const auto it = files_.find(withoutTrailingSlash(path));
    if (it == files_.end())
        return isDirectoryLocked(withoutTrailingSlash(path)) ? EISDIR : ENOENT;
    out = {};
    out.status.regular = true;
    out.status.size = static_cast<int64_t>(it->second.bytes->size());
    out.status.inode = it->second.inode;
    if (!it->second.bytes->empty())
        out.data = std::shared_ptr<const uint8_t>(it->second.bytes, it->second.bytes->data());
    return 0;
}

bool MemoryReaderFiles::readAll(const std::string &path, std::string &content) const
{
    MappedRegion region;
    if (map(path, region) != 0)
        return false;
    const auto bytes = region.bytes();
    content.assign(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    return true;
}

LockState MemoryReaderFiles::probeLock(const std::string &path) const
{
    LockState state; // no process can hold a lock on a file in memory
    state.present = readAll(path, state.content);
    if (state.content.size() > 64)
        state.content.resize(64);
    return state;
}

} // namespace mqdesk::store
