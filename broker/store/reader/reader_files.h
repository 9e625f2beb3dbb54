#pragma once

// ReaderFiles: every file-system operation StoreReader makes — status, directory listing, mapping
// a whole file, reading a small one, probing the lock — behind one interface, as LevelDB's Env.
// realReaderFiles() is the real file system (read-only: O_RDONLY | O_NOATIME, PROT_READ mappings);
// MemoryReaderFiles holds a store in memory, so that tests and the fuzz targets can give the
// reader any bytes without a system call per input.
//
// Paths are absolute and '/'-separated as StoreReader builds them ("<root>/consumequeue/T/0/…").
// Errors are errno values (0 = success), so that messages can name them with strerror.
//
// Threading: both implementations may be called from any thread, concurrently. MemoryReaderFiles'
// put/remove may run concurrently with reads; a mapping keeps the bytes it was given alive.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace mqdesk::store {

struct FileStatus
{
    bool regular = false;
    bool directory = false;
    int64_t size = 0;
    int64_t modifiedMillis = 0;
    // Identity: a file replaced under the same name gets a new one (StoreReader re-maps it).
    uint64_t device = 0;
    uint64_t inode = 0;
};

struct DirectoryEntry
{
    std::string name;
    bool symlink = false; // a directory reached through a link is not descended into by listings
};

// A whole file's bytes as mapped at one moment; empty for an empty file.
struct MappedRegion
{
    std::shared_ptr<const uint8_t> data; // owns the mapping (munmap or the memory's bytes)
    FileStatus status;                   // of the file that was mapped, not of its name now
    std::span<const uint8_t> bytes() const
    {
        return {data.get(), static_cast<size_t>(data ? status.size : 0)};
    }
};

struct LockState
{
    bool present = false;
    std::string content; // "lock"
    bool live = false;   // a process holds the lock: a broker runs on this store
    int32_t holderPid = -1; // classic POSIX locks tell their owner; OFD locks do not
    std::string error;
};

class ReaderFiles
{
public:
    virtual ~ReaderFiles() = default;

    // Follows symbolic links. Returns 0 or an errno (ENOENT for a missing path).
    virtual int status(const std::string &path, FileStatus &out) const = 0;
    // Whether a directory may be listed and its files opened: 0 or an errno.
    virtual int checkReadableDirectory(const std::string &path) const = 0;
    // The names in a directory, unsorted; empty when it cannot be read.
    virtual std::vector<DirectoryEntry> list(const std::string &directory) const = 0;
    // Maps the whole regular file; 0 or an errno.
    virtual int map(const std::string &path, MappedRegion &out) const = 0;
    // Reads a whole (small) file; false when it cannot be opened.
    virtual bool readAll(const std::string &path, std::string &content) const = 0;
    // Whether a process holds a write lock on byte 0 of `path` (StoreReader::probeLock).
    virtual LockState probeLock(const std::string &path) const = 0;
};

// The real file system, shared by every reader that is given no other.
std::shared_ptr<const ReaderFiles> realReaderFiles();

// A file tree in memory. Directories exist as the parents of files (and as added empty ones).
class MemoryReaderFiles final : public ReaderFiles
{
public:
    // Creates or replaces a file (it gets a new identity); parents come into being with it.
    void put(const std::string &path, std::vector<uint8_t> bytes);
    void put(const std::string &path, std::span<const uint8_t> bytes)
    {
        put(path, std::vector<uint8_t>(bytes.begin(), bytes.end()));
    }
    void addDirectory(const std::string &path);
    // Removes a file, or a directory with everything under it.
    void remove(const std::string &path);

    int status(const std::string &path, FileStatus &out) const override;
    int checkReadableDirectory(const std::string &path) const override;
    std::vector<DirectoryEntry> list(const std::string &directory) const override;
    int map(const std::string &path, MappedRegion &out) const override;
    bool readAll(const std::string &path, std::string &content) const override;
    LockState probeLock(const std::string &path) const override;

private:
    struct File
    {
        std::shared_ptr<const std::vector<uint8_t>> bytes;
        uint64_t inode = 0;
    };
    // Requires: mutex_ held.
    bool isDirectoryLocked(const std::string &path) const;

    mutable std::mutex mutex_;
    std::map<std::string, File> files_;         // guarded by mutex_
    std::set<std::string> directories_;         // added empty ones; guarded by mutex_
    uint64_t nextInode_ = 1;                    // guarded by mutex_
};

} // namespace mqdesk::store
