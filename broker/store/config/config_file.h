#pragma once

// One crash-safe config file `X` with its backup `X.bak` (store-format §8.1).
//
// store(): write `X.tmp`, fsync it; hard-link the current `X` as `X.bak` (replacing the old
// backup; a rename where links are unsupported); rename `X.tmp` over `X`; fsync the directory.
// At every instant `X` holds either the previous or the new content in full, and `X.bak` the
// content before the last store. Java's three persist protocols all leave files this reads.
//
// load(): read `X`; when it is missing, empty, unparsable or rejected by the decoder, read
// `X.bak` instead, as Java's ConfigManager.load does. `X.tmp` is never read: a crash may have
// cut it short. Unlike Java, a corrupt `X` without a usable `X.bak` is an error rather than an
// empty start, and the corrupt `X` is kept as `X.corrupt` by the next store() instead of being
// rotated into `X.bak` over the good backup.
//
// Not thread-safe: its owner serialises calls.

#include "broker/common/json.h"

#include <functional>
#include <string>

namespace mqdesk::store {

enum class ConfigSource {
    None,    // neither X nor X.bak had content: the owner keeps its defaults
    Primary, // X
    Backup,  // X.bak, because X was missing, empty or unreadable
};

struct ConfigLoadInfo
{
    ConfigSource source = ConfigSource::None;
    std::string warning; // why X was not used, naming the file (and line:column for bad JSON)
};

class ConfigFile
{
public:
    // Checks the document and commits it to the caller's state; returns false with an error
    // (a JSON path, without the file name) and leaves the state alone when it rejects it.
    using Decoder = std::function<bool(const common::JsonValue &root, std::string &error)>;

    explicit ConfigFile(std::string path);

    const std::string &path() const { return path_; }
    std::string backupPath() const { return path_ + ".bak"; }
    std::string tempPath() const { return path_ + ".tmp"; }
    std::string corruptPath() const { return path_ + ".corrupt"; }

    // True when X or X.bak was decoded, or neither had content (info.source says which).
    // Errors name the file: "<path>:<line>:<column>: <what>" for JSON syntax.
    bool load(const Decoder &decode, ConfigLoadInfo &info, std::string &error);

    bool store(const std::string &content, std::string &error);
    // The permission bits store() creates X.tmp with (and so X); 0644 unless set. A file holding
    // secrets (ACL 2.0's auth.json) is written 0600.
    void setFileMode(unsigned mode) { fileMode_ = mode; }

private:
    enum class Outcome { Decoded, Missing, Empty, Bad };
    Outcome tryLoad(const std::string &file, const Decoder &decode, std::string &reason);

    // What X held at the last load or store; store() rotates X into X.bak only when it is
    // known good (or, never loaded, non-empty), so a torn X never replaces a good backup.
    enum class PrimaryState { Unknown, Good, Empty, Corrupt };

    std::string path_;
    unsigned fileMode_ = 0644;
    PrimaryState primary_ = PrimaryState::Unknown;
};

// Reads a whole file. False with `error` naming the file; `missing` tells ENOENT apart.
bool readWholeFile(const std::string &path, std::string &content, bool &missing, std::string &error);

} // namespace mqdesk::store
