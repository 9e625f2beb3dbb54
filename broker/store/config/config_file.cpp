#include "broker/store/config/config_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mqdesk::store {

namespace {

std::string systemError(const std::string &what, const std::string &path)
{
    return what + " " + path + ": " + std::strerror(errno);
}

bool isBlankText(const std::string &text)
{
    for (char c : text) {
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f')
            return false;
    }
    return true;
}

std::string directoryOf(const std::string &path)
{
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

bool writeAndSync(const std::string &path, const std::string &content, mode_t mode, std::string &error)
{
    // A stale .tmp of another mode is replaced, not reused: O_CREAT keeps an existing file's mode.
    ::unlink(path.c_str());
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) {
        error = systemError("cannot create", path);
        return false;
    }
    size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            error = systemError("cannot write", path);
            ::close(fd);
            return false;
        }
        written += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) {
        error = systemError("cannot fsync", path);
        ::close(fd);
        return false;
    }
    if (::close(fd) != 0) {
        error = systemError("cannot close", path);
        return false;
    }
    return true;
}

bool syncDirectory(const std::string &dir, std::string &error)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        error = systemError("cannot open directory", dir);
        return false;
    }
    const bool synced = ::fsync(fd) == 0;
    if (!synced)
        error = systemError("cannot fsync directory", dir);
    ::close(fd);
    return synced;
}

} // namespace

bool readWholeFile(const std::string &path, std::string &content, bool &missing, std::string &error)
{
    missing = false;
    content.clear();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        missing = errno == ENOENT;
        error = systemError("cannot open", path);
        return false;
    }
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            error = systemError("cannot read", path);
            ::close(fd);
            return false;
        }
        if (n == 0)
            break;
        content.append(buffer, static_cast<size_t>(n));
    }
    ::close(fd);
    return true;
}

ConfigFile::ConfigFile(std::string path) : path_(std::move(path)) {}

ConfigFile::Outcome ConfigFile::tryLoad(const std::string &file, const Decoder &decode, std::string &reason)
{
    std::string content;
    bool missing = false;
    if (!readWholeFile(file, content, missing, reason))
        return missing ? Outcome::Missing : Outcome::Bad;
    if (isBlankText(content)) {
        reason = file + " is empty";
        return Outcome::Empty;
    }
    const common::JsonParseResult parsed = common::parseJson(content);
    if (!parsed.ok()) {
        reason = file + ":" + std::to_string(parsed.line) + ":" + std::to_string(parsed.column) + ": "
                 + parsed.message;
        return Outcome::Bad;
    }
    std::string decodeError;
    if (!decode(parsed.value, decodeError)) {
        reason = file + ": " + decodeError;
        return Outcome::Bad;
    }
    return Outcome::Decoded;
}

bool ConfigFile::load(const Decoder &decode, ConfigLoadInfo &info, std::string &error)
{
    info = ConfigLoadInfo();
    std::string primaryReason;
    const Outcome primary = tryLoad(path_, decode, primaryReason);
    if (primary == Outcome::Decoded) {
        primary_ = PrimaryState::Good;
        info.source = ConfigSource::Primary;
        return true;
    }
    primary_ = primary == Outcome::Missing ? PrimaryState::Unknown
               : primary == Outcome::Empty ? PrimaryState::Empty
                                           : PrimaryState::Corrupt;
    if (primary == Outcome::Missing)
        primaryReason = path_ + " is missing";

    std::string backupReason;
    const Outcome backup = tryLoad(backupPath(), decode, backupReason);
    if (backup == Outcome::Decoded) {
        info.source = ConfigSource::Backup;
        info.warning = primaryReason + "; loaded " + backupPath() + " instead";
        return true;
    }
    const bool backupUnusable = backup == Outcome::Missing || backup == Outcome::Empty;
    if (primary != Outcome::Bad && backupUnusable) {
        // Nothing was ever stored (or Java crashed while rewriting X in place): start empty.
        info.source = ConfigSource::None;
        if (primary == Outcome::Empty)
            info.warning = primaryReason + " and " + backupPath() + " has no content; starting empty";
        return true;
    }
    if (backup == Outcome::Missing)
        error = primaryReason + "; there is no backup " + backupPath() + " to fall back to";
    else
        error = primaryReason + "; the backup is unusable too: " + backupReason;
    return false;
}

bool ConfigFile::store(const std::string &content, std::string &error)
{
    const std::string temp = tempPath();
    if (!writeAndSync(temp, content, fileMode_, error)) {
        ::unlink(temp.c_str());
        return false;
    }
    const auto fail = [&](const std::string &what, const std::string &path) {
        error = systemError(what, path);
        ::unlink(temp.c_str());
        return false;
    };

    struct stat st{};
    if (::lstat(path_.c_str(), &st) == 0) {
        bool rotate = primary_ == PrimaryState::Good;
        if (primary_ == PrimaryState::Unknown) {
            // Never loaded by us: rotate X only if it is JSON, so garbage never replaces X.bak.
            std::string current;
            bool missing = false;
            std::string ignored;
            rotate = readWholeFile(path_, current, missing, ignored) && !isBlankText(current)
                     && common::parseJson(current).ok();
        }
        if (rotate) {
            const std::string backup = backupPath();
            if (::unlink(backup.c_str()) != 0 && errno != ENOENT)
                return fail("cannot remove the old backup", backup);
            // A hard link keeps X in place until the rename below replaces it atomically.
            if (::link(path_.c_str(), backup.c_str()) != 0 && ::rename(path_.c_str(), backup.c_str()) != 0)
                return fail("cannot keep the previous content as", backup);
        } else if (primary_ == PrimaryState::Corrupt) {
            if (::rename(path_.c_str(), corruptPath().c_str()) != 0)
                return fail("cannot set the corrupt file aside as", corruptPath());
        }
    } else if (errno != ENOENT) {
        return fail("cannot stat", path_);
    }
    if (::rename(temp.c_str(), path_.c_str()) != 0)
        return fail("cannot rename " + temp + " to", path_);
    primary_ = PrimaryState::Good;
    return syncDirectory(directoryOf(path_), error);
}

} // namespace mqdesk::store
