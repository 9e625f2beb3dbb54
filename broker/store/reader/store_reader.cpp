// StoreReader: the root, file listing, read-only mappings and the small files (checkpoint, abort,
// lock). Commit-log reading is in store_reader_log.cpp, consume queues and the index in
// store_reader_queues.cpp, config files in store_reader_config.cpp.

#include "broker/store/reader/store_reader.h"

#include "broker/common/bytes.h"
#include "broker/store/reader/store_reader_util.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace mqdesk::store {

namespace {

constexpr size_t kMaxCachedViews = 4096;
// Deeper than any store's layout (consumequeue/<topic>/<queue>/<file>); bounds a hostile tree.
constexpr int kMaxListingDepth = 32;

StoreFileKind kindOf(const std::string &relative, const std::string &commitLogRelative)
{
    const auto slash = relative.find('/');
    const std::string first = relative.substr(0, slash);
    if (slash != std::string::npos) {
        if (!commitLogRelative.empty() && relative.starts_with(commitLogRelative + "/"))
            return StoreFileKind::CommitLog;
        if (first == "consumequeue" || first == "batchconsumequeue")
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

StoreReader::StoreReader(std::string root, StoreReaderOptions options)
    : root_(std::move(root)), options_(std::move(options))
{
    if (!options_.files)
        options_.files = realReaderFiles();
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
    const auto files = options.files ? options.files : realReaderFiles();
    FileStatus status;
    if (const int failure = files->status(root, status); failure != 0) {
        error = "cannot open the store " + root + ": " + std::strerror(failure);
        return nullptr;
    }
    if (!status.directory) {
        error = "cannot open the store " + root + ": not a directory";
        return nullptr;
    }
    if (const int failure = files->checkReadableDirectory(root); failure != 0) {
        error = "cannot read the store directory " + root + ": " + std::strerror(failure);
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
    FileStatus status;
    if (files().status(path, status) != 0 || !status.regular) {
        std::lock_guard lock(cacheMutex_);
        cache_.erase(path);
        return nullptr;
    }
    std::lock_guard lock(cacheMutex_);
    if (auto it = cache_.find(path); it != cache_.end()) {
        const FileView &cached = *it->second;
        if (cached.device_ == status.device && cached.inode_ == status.inode && cached.size_ == status.size)
            return it->second;
        cache_.erase(it);
    }
    MappedRegion region;
    if (files().map(path, region) != 0)
        return nullptr;
    std::shared_ptr<FileView> view(new FileView);
    view->path_ = path;
    view->name_ = name;
    view->startOffset_ = startOffset;
    view->device_ = region.status.device;
    view->inode_ = region.status.inode;
    view->data_ = region.bytes().data();
    view->size_ = static_cast<int64_t>(region.bytes().size());
    view->mapping_ = std::move(region.data);
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
    const std::string name = path.substr(path.rfind('/') + 1);
    return mapFile(path, name, parseOffsetName(name).value_or(-1));
}

std::vector<StoreFileInfo> StoreReader::listFiles() const
{
    std::vector<StoreFileInfo> out;
    const std::string commitLogRelative = relativePath(options_.commitLogDir);
    // Depth-first; directories reached through a symbolic link are not descended into (a link
    // could lead out of the store or round in a loop).
    const std::function<void(const std::string &, bool, int)> visit = [&](const std::string &directory,
                                                                          bool insideRoot, int depth) {
        for (const DirectoryEntry &entry : files().list(directory)) {
            const std::string path = directory + "/" + entry.name;
            FileStatus status;
            if (files().status(path, status) != 0)
                continue;
            if (status.directory) {
                if (!entry.symlink && depth < kMaxListingDepth)
                    visit(path, insideRoot, depth + 1);
                continue;
            }
            if (!status.regular)
                continue;
            StoreFileInfo info;
            info.relativePath = relativePath(path);
            info.kind = insideRoot ? kindOf(info.relativePath, commitLogRelative) : StoreFileKind::CommitLog;
            info.size = status.size;
            info.modifiedMillis = status.modifiedMillis;
            if (info.kind == StoreFileKind::CommitLog || info.kind == StoreFileKind::ConsumeQueue)
                info.startOffset = parseOffsetName(entry.name).value_or(-1);
            out.push_back(std::move(info));
        }
    };
    visit(root_, true, 0);
    if (commitLogRelative == options_.commitLogDir) // storePathCommitLog outside the root
        visit(options_.commitLogDir, false, 0);
    std::sort(out.begin(), out.end(),
              [](const StoreFileInfo &a, const StoreFileInfo &b) { return a.relativePath < b.relativePath; });
    return out;
}

std::vector<MappedFileInfo> StoreReader::regularFilesIn(const std::string &directory) const
{
    std::vector<MappedFileInfo> out;
    for (const DirectoryEntry &entry : files().list(directory)) {
        MappedFileInfo info;
        info.path = directory + "/" + entry.name;
        FileStatus status;
        if (files().status(info.path, status) != 0 || !status.regular)
            continue;
        info.name = entry.name;
        info.size = status.size;
        out.push_back(std::move(info));
    }
    return out;
}

MappedFamily StoreReader::listFamily(const std::string &directory, int64_t configuredSize) const
{
    MappedFamily family;
    family.directory = directory;
    for (MappedFileInfo &info : regularFilesIn(directory)) {
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
    info.present = files().readAll(root_ + "/abort", info.content);
    info.backupPresent = files().readAll(root_ + "/abort.bak", info.backupContent);
    return info;
}

LockState StoreReader::probeLock() const
{
    return files().probeLock(root_ + "/lock");
}

} // namespace mqdesk::store
