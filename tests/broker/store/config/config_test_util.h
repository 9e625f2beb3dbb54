#pragma once

// Helpers of the config-file suites.

#include "test_support.h"

#include <filesystem>
#include <string>

namespace mqdesk::test {

inline std::string readText(const std::string &path)
{
    const std::vector<uint8_t> bytes = readFile(path);
    return std::string(bytes.begin(), bytes.end());
}

inline void writeText(const std::string &path, const std::string &text)
{
    writeFile(path, std::vector<uint8_t>(text.begin(), text.end()));
}

inline bool exists(const std::string &path) { return std::filesystem::exists(path); }

// A writable copy of a fixture store's config directory.
inline std::string copyFixtureConfig(const QTemporaryDir &dir, const std::string &store)
{
    const std::string target = dir.path().toStdString() + "/" + store;
    copyFixture(store, target);
    return target + "/config";
}

inline std::string fixtureConfigDir(const std::string &store) { return fixturesDir() + "/" + store + "/config"; }

} // namespace mqdesk::test
