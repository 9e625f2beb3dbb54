#include "broker/store/mapped_file.h"

#include <spdlog/spdlog.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <filesystem>

namespace mqdesk::store {

namespace {

std::string systemError(const std::string &what, const std::string &path)
{
    return what + " " + path + ": " + std::strerror(errno);
}

std::atomic<int> failingDataSyncs{0};
std::atomic<int> failingDataSyncErrno{EIO};

// fdatasync, or the injected failure (failNextDataSyncsForTesting). Sets errno on failure.
int syncData(int fd)
{
    if (failingDataSyncs.load(std::memory_order_relaxed) > 0
        && failingDataSyncs.fetch_sub(1, std::memory_order_relaxed) > 0) {
        errno = failingDataSyncErrno.load(std::memory_order_relaxed);
        return -1;
    }
    return ::fdatasync(fd);
}

std::atomic<int> failingWrites{0};
std::atomic<int> failingWriteErrno{EIO};

// pwrite, or the injected failure (failNextWritesForTesting). Sets errno on failure.
ssize_t writeData(int fd, const uint8_t *bytes, size_t size, int64_t position)
{
    if (failingWrites.load(std::memory_order_relaxed) > 0
        && failingWrites.fetch_sub(1, std::memory_order_relaxed) > 0) {
        errno = failingWriteErrno.load(std::memory_order_relaxed);
        return -1;
    }
    return ::pwrite(fd, bytes, size, position);
}

} // namespace

void failNextWritesForTesting(int count, int error)
{
    failingWriteErrno.store(error, std::memory_order_relaxed);
    failingWrites.store(count, std::memory_order_relaxed);
}

void failNextDataSyncsForTesting(int count, int error)
{
    failingDataSyncErrno.store(error, std::memory_order_relaxed);
    failingDataSyncs.store(count, std::memory_order_relaxed);
}

std::string offsetToFileName(int64_t offset)
{
    char name[32];
    std::snprintf(name, sizeof name, "%020lld", static_cast<long long>(offset));
    return name;
}

MappedFile::MappedFile(std::string path, int64_t fileFromOffset, int64_t fileSize, int fd,
                       uint8_t *mapped, Reservation reservation)
    : path_(std::move(path)), fileFromOffset_(fileFromOffset), fileSize_(fileSize), fd_(fd),
      mapped_(mapped), reservation_(reservation),
      reserved_(reservation == Reservation::Whole ? fileSize : 0)
{}

bool listStoreFileNames(const std::string &directory, bool (*isFileName)(std::string_view),
                        std::string_view nameRule, std::vector<std::string> &names, std::string &error)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(directory, ec);
    if (ec) {
        error = "cannot create directory " + directory + ": " + ec.message();
        return false;
    }
    names.clear();
    for (const auto &entry : fs::directory_iterator(directory, ec)) {
        if (std::error_code typeError; entry.is_directory(typeError))
            continue;
        const std::string name = entry.path().filename().string();
        if (removeCreationLeftover(entry.path().string(), isFileName))
            continue;
        if (!isFileName(name)) {
            error = entry.path().string() + ": not a store file (names are " + std::string(nameRule)
                    + "); move it out of the store";
            return false;
        }
        names.push_back(name);
    }
    if (ec) {
        error = "cannot list " + directory + ": " + ec.message();
        return false;
    }
    std::sort(names.begin(), names.end());
    return true;
}

bool removeCreationLeftover(const std::string &path, bool (*isFileName)(std::string_view))
{
    const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
    const std::string_view suffix = kCreatingSuffix;
    if (!name.ends_with(suffix) || !isFileName(name.substr(0, name.size() - suffix.size())))
        return false;
    spdlog::info("removing {}, a file whose creation was interrupted", path);
    ::unlink(path.c_str());
    return true;
}

bool syncDirectoryOf(const std::string &path, std::string &error)
{
    return syncDirectory(path.substr(0, path.rfind('/')), error);
}

bool syncDirectory(const std::string &directory, std::string &error)
{
    const int fd = ::open(directory.empty() ? "/" : directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        error = systemError("cannot sync directory", directory);
        if (fd >= 0)
            ::close(fd);
        return false;
    }
    ::close(fd);
    return true;
}

namespace {

// Sizes a new file: every block reserved for Whole files (ENOSPC here is a clean failure, a hole
// filled through the mapping on a full disk would be SIGBUS), none for the sparse ones.
bool reserveBlocks(int fd, const std::string &path, int64_t fileSize, MappedFile::Reservation reservation,
                   std::string &error)
{
    if (reservation != MappedFile::Reservation::Whole) {
        if (::ftruncate(fd, fileSize) == 0)
            return true;
        error = systemError("cannot size", path);
        return false;
    }
    if (const int rc = ::posix_fallocate(fd, 0, fileSize); rc != 0) {
        errno = rc;
        error = systemError("cannot reserve " + std::to_string(fileSize) + " bytes for", path);
        return false;
    }
    return true;
}

// Creates `path` at full size under a temporary name and renames it into place, so a crash
// never leaves a short file with a store file's name; then makes the name durable. Whole files
// get every block now; the others are sparse until reserveThrough().
int createFullSize(const std::string &path, int64_t fileSize, MappedFile::Reservation reservation,
                   std::string &error)
{
    const std::string temporary = path + kCreatingSuffix;
    const int fd = ::open(temporary.c_str(), O_RDWR | O_CLOEXEC | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        error = systemError("cannot create", temporary);
        return -1;
    }
    if (reserveBlocks(fd, path, fileSize, reservation, error)) {
        if (::link(temporary.c_str(), path.c_str()) != 0) { // unlike rename, never replaces
            error = systemError("cannot create", path);
        } else {
            ::unlink(temporary.c_str());
            if (syncDirectoryOf(path, error))
                return fd;
            ::unlink(path.c_str());
        }
    }
    ::close(fd);
    ::unlink(temporary.c_str());
    return -1;
}

} // namespace

std::unique_ptr<MappedFile> MappedFile::open(const std::string &path, int64_t fileFromOffset,
                                             int64_t fileSize, bool create, std::string &error,
                                             Reservation reservation)
{
    const int fd = create ? createFullSize(path, fileSize, reservation, error)
                          : ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        if (!create)
            error = systemError("cannot open", path);
        return nullptr;
    }
    if (!create) {
        struct stat st{};
        if (::fstat(fd, &st) != 0) {
            error = systemError("cannot stat", path);
            ::close(fd);
            return nullptr;
        }
        if (st.st_size != fileSize) {
            error = path + ": file is " + std::to_string(st.st_size) + " bytes but the store is configured for "
                    + std::to_string(fileSize) + "-byte files";
            ::close(fd);
            return nullptr;
        }
    }
    void *mapped = ::mmap(nullptr, static_cast<size_t>(fileSize), PROT_READ | PROT_WRITE,
                          MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
        error = systemError("cannot map", path);
        ::close(fd);
        if (create) // a file nobody can use would block every later attempt to create it
            ::unlink(path.c_str());
        return nullptr;
    }
    // A consume-queue page is touched 204 entries at a time, and the first touch of a page not
    // yet in the cache is a fault whose read-around zeroes up to a large folio of holes. With
    // 1,024 queues written and read side by side (RocketMQ's benchmark with its Consumer) the
    // dispatcher spent 90% of its time there and fell seconds behind the puts: no read-around.
    if (reservation == Reservation::AsWritten)
        ::madvise(mapped, static_cast<size_t>(fileSize), MADV_RANDOM);
    return std::unique_ptr<MappedFile>(
        new MappedFile(path, fileFromOffset, fileSize, fd, static_cast<uint8_t *>(mapped), reservation));
}

MappedFile::~MappedFile()
{
    if (mapped_)
        ::munmap(mapped_, static_cast<size_t>(fileSize_));
    if (fd_ >= 0)
        ::close(fd_);
}

void MappedFile::advanceWrote(int64_t bytes, int64_t storeTimestamp)
{
    const int64_t wrote = wrote_.load(std::memory_order_relaxed) + bytes;
    storeTimestamp_.store(storeTimestamp, std::memory_order_relaxed);
    if (!transientBuffer_.load(std::memory_order_relaxed))
        committed_.store(wrote, std::memory_order_release);
    wrote_.store(wrote, std::memory_order_release);
}

bool MappedFile::writeAt(int64_t position, const uint8_t *bytes, int64_t size, std::string &error)
{
    int64_t done = 0;
    while (done < size) {
        const ssize_t n = writeData(fd_, bytes + done, static_cast<size_t>(size - done), position + done);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            if (n == 0)
                errno = EIO; // no progress on a regular file: never spin on it
            error = systemError("cannot write " + std::to_string(size) + " bytes at file position "
                                    + std::to_string(position) + " of",
                                path_);
            return false;
        }
        done += n;
    }
    return true;
}

int64_t MappedFile::warm(int syncEveryPages, const std::function<bool()> &keepGoing, std::string &error)
{
    // pwrite of zero pages rather than RocketMQ's byte per page through the mapping: the same
    // blocks written, without a page fault per page.
    static const std::vector<uint8_t> zeros(1 << 20);
    const int64_t syncEvery = std::max<int64_t>(1, syncEveryPages) * kOsPageSize;
    int64_t warmed = 0;
    int64_t sinceSync = 0;
    while (warmed < fileSize_ && keepGoing()) {
        const int64_t chunk = std::min<int64_t>({static_cast<int64_t>(zeros.size()), fileSize_ - warmed,
                                                 syncEvery - sinceSync});
        if (!writeAt(warmed, zeros.data(), chunk, error))
            return -1;
        warmed += chunk;
        sinceSync += chunk;
        if (sinceSync == syncEvery || warmed == fileSize_) {
            if (syncData(fd_) != 0) {
                error = systemError("cannot flush the warmed pages of", path_);
                return -1;
            }
            sinceSync = 0;
        }
    }
    if (sinceSync > 0 && syncData(fd_) != 0) {
        error = systemError("cannot flush the warmed pages of", path_);
        return -1;
    }
    return warmed;
}

bool MappedFile::reserveThrough(int64_t end, std::string &error)
{
    end = std::min(end, fileSize_);
    int64_t reserved = reserved_.load(std::memory_order_acquire);
    if (end <= reserved)
        return true;
    const int64_t chunk = reservation_ == Reservation::AsAppended ? kAppendReserveChunk : kReserveChunk;
    const int64_t target = std::min(fileSize_, (end + chunk - 1) / chunk * chunk);
    // From reserved_ on: blocks below it exist. Two callers racing reserve the same range twice,
    // which fallocate allows; reserved_ only grows.
    if (const int rc = ::posix_fallocate(fd_, reserved, target - reserved); rc != 0) {
        errno = rc;
        error = systemError("cannot reserve bytes " + std::to_string(reserved) + " to " + std::to_string(target)
                                + " of",
                            path_);
        return false;
    }
    while (reserved < target && !reserved_.compare_exchange_weak(reserved, target, std::memory_order_acq_rel)) {
    }
    return true;
}

void MappedFile::setPositions(int64_t position)
{
    wrote_.store(position, std::memory_order_release);
    committed_.store(position, std::memory_order_release);
    flushed_.store(position, std::memory_order_release);
}

bool MappedFile::isAbleTo(int64_t target, int64_t done, int64_t fileSize, int leastPages)
{
    if (target <= done)
        return false;
    if (target == fileSize)
        return true;
    if (leastPages > 0)
        return target / kOsPageSize - done / kOsPageSize >= leastPages;
    return true;
}

int64_t MappedFile::commit(int leastPages, std::string &error)
{
    const int64_t committed = committed_.load(std::memory_order_acquire);
    uint8_t *buffer = transientBuffer_.load(std::memory_order_acquire);
    if (!buffer)
        return committed;
    const int64_t wrote = wrote_.load(std::memory_order_acquire);
    if (!isAbleTo(wrote, committed, fileSize_, leastPages))
        return committed;
    int64_t position = committed;
    while (position < wrote) {
        const ssize_t n = ::pwrite(fd_, buffer + position,
                                   static_cast<size_t>(wrote - position), position);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            error = systemError("cannot write to", path_);
            return -1;
        }
        position += n;
    }
    committed_.store(wrote, std::memory_order_release);
    return wrote;
}

int64_t MappedFile::flush(int leastPages, std::string &error)
{
    const int64_t flushed = flushed_.load(std::memory_order_acquire);
    const int64_t target = readPosition();
    if (!isAbleTo(target, flushed, fileSize_, leastPages))
        return flushed;
    // fdatasync whether the bytes came through the mapping or through pwrite: on Linux it
    // writes back the file's dirty page-cache pages either way (what RocketMQ's
    // MappedByteBuffer.force() and FileChannel.force(false) each do for their path).
    if (syncData(fd_) != 0) {
        const int code = errno;
        error = "fdatasync of " + path_ + " failed for bytes " + std::to_string(flushed) + " to "
                + std::to_string(target) + " of the file: " + std::strerror(code) + " (errno "
                + std::to_string(code) + ")";
        return -1;
    }
    flushed_.store(target, std::memory_order_release);
    return target;
}

void MappedFile::attachTransientBuffer(uint8_t *buffer)
{
    // Bytes already appended live in the mapping; the buffer takes over from `wrote` on, and
    // commit() copies only what lies beyond `committed`.
    transientBuffer_.store(buffer, std::memory_order_release);
}

uint8_t *MappedFile::detachTransientBuffer()
{
    return transientBuffer_.exchange(nullptr, std::memory_order_acq_rel);
}

bool MappedFile::zeroTail(int64_t pageEnd, std::string &error)
{
    if (reservation_ != Reservation::Whole
        && ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, pageEnd, fileSize_ - pageEnd) == 0) {
        // A hole reads as zeros and keeps the file sparse; the writer reserves it again.
        reserved_.store(std::min(reserved_.load(std::memory_order_acquire), pageEnd), std::memory_order_release);
        return true;
    }
    // An unwritten extent: cheap, keeps the blocks reserved.
    if (reservation_ == Reservation::Whole
        && ::fallocate(fd_, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, pageEnd, fileSize_ - pageEnd) == 0)
        return true;
    if (errno != EOPNOTSUPP) {
        error = systemError("cannot zero the tail of", path_);
        return false;
    }
    // Writing zeros where neither is supported, into reserved blocks only.
    if (!reserveThrough(fileSize_, error))
        return false;
    std::memset(mapped_ + pageEnd, 0, static_cast<size_t>(fileSize_ - pageEnd));
    return true;
}

bool MappedFile::zeroFrom(int64_t position, std::string &error)
{
    if (position >= fileSize_)
        return true;
    // Zero the partial page through the mapping, then the rest without writing it (zeroTail).
    const int64_t pageEnd = std::min(fileSize_, (position + kOsPageSize - 1) / kOsPageSize * kOsPageSize);
    if (!reserveThrough(pageEnd, error))
        return false;
    std::memset(mapped_ + position, 0, static_cast<size_t>(pageEnd - position));
    if (pageEnd < fileSize_ && !zeroTail(pageEnd, error))
        return false;
    if (syncData(fd_) != 0) {
        error = systemError("cannot flush", path_);
        return false;
    }
    return true;
}

bool MappedFile::destroy(std::string &error)
{
    // Only the name goes now; the mapping stays valid until the last holder of this object lets
    // go (readers hold a shared_ptr), so deleting a file never pulls memory from under a read.
    if (::unlink(path_.c_str()) != 0 && errno != ENOENT) {
        error = systemError("cannot delete", path_);
        return false;
    }
    return true;
}

} // namespace mqdesk::store
