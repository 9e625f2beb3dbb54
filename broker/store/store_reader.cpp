// StoreReader: the root, file listing, read-only mappings and the small files (checkpoint, abort,
// lock). Commit-log reading is in store_reader_log.cpp, consume queues and the index in
// store_reader_queues.cpp, config files in store_reader_config.cpp.

#include "broker/store/store_reader.h"

#include "broker/common/bytes.h"
#include "broker/store/store_reader_util.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace fs = std::filesystem;

namespace mqdesk::store {

namespace {

constexpr size_t kMaxCachedViews = 4096;

StoreFileKind kindOf(const std::string &relative, const std::string &commitLogRelative)
{
    const auto slash = relative.find('/');
    const std::string first = relative.substr(0, slash);
    if (slash != std::string::npos) {
        if (!commitLogRelative.empty() && relative.starts_with(commitLogRelative + "/"))
            return StoreFileKind::CommitLog;
        if (first == "consumequeue")
            return StoreFileKind::ConsumeQueue;
        if (first == "index")
            return StoreFileKind::Index;
        if (first == "config")
            return StoreFileKind::Config;
        return StoreFileKind::Other;
    }
    if (first == "checkpoint")
        return StoreFileKind::Checkpoint;
    if (first == "abort" || first == "abort.bak")
        return StoreFileKind::Abort;
    if (first == "lock")
        return StoreFileKind::Lock;
    return StoreFileKind::Other;
}

} // namespace

std::string_view storeFileKindName(StoreFileKind kind)
{
    switch (kind) {
    case StoreFileKind::CommitLog: return "commitlog";
    case StoreFileKind::ConsumeQueue: return "consumequeue";
    case StoreFileKind::Index: return "index";
    case StoreFileKind::Checkpoint: return "checkpoint";
    case StoreFileKind::Abort: return "abort";
    case StoreFileKind::Lock: return "lock";
    case StoreFileKind::Config: return "config";
    case StoreFileKind::Other: return "other";
    }
    return "other";
}

int64_t CheckpointValues::minTimestamp() const
{
    const int64_t oldest = std::min(physicMsgTimestamp, logicsMsgTimestamp);
    return oldest < 3000 ? 0 : oldest - 3000;
}

FileView::~FileView()
{
    if (data_)
        ::munmap(const_cast<uint8_t *>(data_), static_cast<size_t>(size_));
}

StoreReader::StoreReader(std::string root, StoreReaderOptions options)
    : root_(std::move(root)), options_(std::move(options))
{
    if (options_.commitLogDir.empty())
        options_.commitLogDir = root_ + "/commitlog";
}

StoreReader::~StoreReader() = default;

std::unique_ptr<StoreReader> StoreReader::open(const std::string &rootDir, StoreReaderOptions options,
                                               std::string &error)
{
    std::string root = rootDir;
    while (root.size() > 1 && root.back() == '/')
        root.pop_back();
    struct stat st{};
    if (::stat(root.c_str(), &st) != 0) {
        error = "cannot open the store " + root + ": " + std::strerror(errno);
        return nullptr;
    }
    if (!S_ISDIR(st.st_mode)) {
        error = "cannot open the store " + root + ": not a directory";
        return nullptr;
    }
    if (::access(root.c_str(), R_OK | X_OK) != 0) {
        error = "cannot read the store directory " + root + ": " + std::strerror(errno);
        return nullptr;
    }
    return std::unique_ptr<StoreReader>(new StoreReader(std::move(root), std::move(options)));
}

std::string StoreReader::relativePath(const std::string &absolutePath) const
{
    if (absolutePath.size() > root_.size() && absolutePath.starts_with(root_) && absolutePath[root_.size()] == '/')
        return absolutePath.substr(root_.size() + 1);
    return absolutePath;
}

FileViewPtr StoreReader::mapFile(const std::string &path, const std::string &name, int64_t startOffset) const
{
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        std::lock_guard lock(cacheMutex_);
        cache_.erase(path);
        return nullptr;
    }
    std::lock_guard lock(cacheMutex_);
    if (auto it = cache_.find(path); it != cache_.end()) {
        const FileView &cached = *it->second;
        if (cached.device_ == st.st_dev && cached.inode_ == st.st_ino && cached.size_ == st.st_size)
            return it->second;
        cache_.erase(it);
    }
    const int fd = openReadOnly(path);
    if (fd < 0)
        return nullptr;
    // Identity and size from the descriptor we map, not from the stat above (the file may have
    // been replaced in between).
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        return nullptr;
    }
    std::shared_ptr<FileView> view(new FileView);
    view->path_ = path;
    view->name_ = name;
    view->startOffset_ = startOffset;
    view->device_ = st.st_dev;
    view->inode_ = st.st_ino;
    if (st.st_size > 0) {
        void *mapped = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
        if (mapped == MAP_FAILED) {
            ::close(fd);
            return nullptr;
        }
        view->data_ = static_cast<const uint8_t *>(mapped);
        view->size_ = st.st_size;
    }
    ::close(fd); // the mapping stays valid without the descriptor
    if (cache_.size() >= kMaxCachedViews) {
        for (auto it = cache_.begin(); it != cache_.end();)
            it = it->second.use_count() == 1 ? cache_.erase(it) : std::next(it);
    }
    cache_[path] = view;
    return view;
}

FileViewPtr StoreReader::view(const std::string &relative) const
{
    const std::string path = relative.starts_with('/') ? relative : root_ + "/" + relative;
    const std::string name = fs::path(path).filename().string();
    return mapFile(path, name, parseOffsetName(name).value_or(-1));
}

std::vector<StoreFileInfo> StoreReader::listFiles() const
{
    std::vector<StoreFileInfo> out;
    const std::string commitLogRelative = relativePath(options_.commitLogDir);
    const auto visit = [&](const fs::path &directory, bool insideRoot) {
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(directory, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            struct stat st{};
            if (::stat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode))
                continue;
            StoreFileInfo info;
            info.relativePath = relativePath(it->path().string());
            info.kind = insideRoot ? kindOf(info.relativePath, commitLogRelative) : StoreFileKind::CommitLog;
            info.size = st.st_size;
            info.modifiedMillis = int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
            if (info.kind == StoreFileKind::CommitLog || info.kind == StoreFileKind::ConsumeQueue)
                info.startOffset = parseOffsetName(it->path().filename().string()).value_or(-1);
            out.push_back(std::move(info));
        }
    };
    visit(root_, true);
    if (commitLogRelative == options_.commitLogDir) // storePathCommitLog outside the root
        visit(options_.commitLogDir, false);
    std::sort(out.begin(), out.end(),
              [](const StoreFileInfo &a, const StoreFileInfo &b) { return a.relativePath < b.relativePath; });
    return out;
}

MappedFamily StoreReader::listFamily(const std::string &directory, int64_t configuredSize) const
{
    MappedFamily family;
    family.directory = directory;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(directory, ec)) {
        struct stat st{};
        if (::stat(entry.path().c_str(), &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        MappedFileInfo info;
        info.path = entry.path().string();
        info.name = entry.path().filename().string();
        info.size = st.st_size;
        if (auto offset = parseOffsetName(info.name)) {
            info.startOffset = *offset;
            family.files.push_back(std::move(info));
        } else {
            family.strays.push_back(std::move(info));
        }
    }
    const auto byOffset = [](const MappedFileInfo &a, const MappedFileInfo &b) {
        return a.startOffset < b.startOffset;
    };
    std::sort(family.files.begin(), family.files.end(), byOffset);
    std::sort(family.strays.begin(), family.strays.end(),
              [](const MappedFileInfo &a, const MappedFileInfo &b) { return a.name < b.name; });
    family.fileSize = configuredSize > 0 ? configuredSize : inferFileSize(family.files);
    return family;
}

std::vector<FileViewPtr> StoreReader::mapFamily(const MappedFamily &family) const
{
    std::vector<FileViewPtr> views;
    views.reserve(family.files.size());
    for (const auto &file : family.files) {
        if (auto mapped = mapFile(file.path, file.name, file.startOffset))
            views.push_back(std::move(mapped));
    }
    return views;
}

std::optional<CheckpointValues> StoreReader::readCheckpoint(std::string *error) const
{
    const auto mapped = view("checkpoint");
    if (!mapped) {
        if (error)
            *error = "no readable checkpoint file in " + root_;
        return std::nullopt;
    }
    // Bytes past a short file read as zero, as through RocketMQ's 4096-byte mapping.
    uint8_t bytes[40] = {};
    if (!mapped->bytes().empty()) // an empty file maps to no pointer, which memcpy may not take
        std::memcpy(bytes, mapped->bytes().data(), std::min<size_t>(sizeof bytes, mapped->bytes().size()));
    CheckpointValues values;
    values.fileSize = mapped->size();
    values.physicMsgTimestamp = common::readInt64(bytes + 0);
    values.logicsMsgTimestamp = common::readInt64(bytes + 8);
    values.indexMsgTimestamp = common::readInt64(bytes + 16);
    values.masterFlushedOffset = common::readInt64(bytes + 24);
    values.confirmPhyOffset = common::readInt64(bytes + 32);
    return values;
}

AbortInfo StoreReader::readAbort() const
{
    AbortInfo info;
    info.present = readSmallFile(root_ + "/abort", info.content);
    info.backupPresent = readSmallFile(root_ + "/abort.bak", info.backupContent);
    return info;
}

LockState StoreReader::probeLock() const
{
    // Contract: the descriptor is opened and closed here. Closing a descriptor drops every classic
    // POSIX lock this process holds on the file; MQDesk's StoreLock is an open-file-description
    // lock, which survives that, so probing our own running store is safe.
    LockState state;
    const std::string path = root_ + "/lock";
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
    // A query needs no write access: F_OFD_GETLK reports any lock (classic or OFD, of any process,
    // and OFD locks of other descriptions in this one) that a write lock on byte 0 would meet.
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

} // namespace mqdesk::store
