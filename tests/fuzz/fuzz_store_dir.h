#pragma once

// A store directory for the store-reader fuzz targets: made once per process in $TMPDIR (or
// /tmp), holding a real 8 KiB commit log written by the Java broker (the fork-2021 fixture,
// 47 records) so that consume-queue and index entries the fuzzer makes can point at records.
// Each input replaces one file; the directory is removed at exit.
//
// Not thread-safe; libFuzzer calls the target from one thread.

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace mqdesk::fuzz {

class FuzzStoreDir
{
public:
    static FuzzStoreDir &instance()
    {
        static FuzzStoreDir dir;
        return dir;
    }

    const std::string &root() const { return root_; }

    // Writes `bytes` as <root>/<relativePath> (parents made), replacing the file's content.
    void writeFile(const std::string &relativePath, const uint8_t *bytes, size_t size) const
    {
        const std::string path = root_ + "/" + relativePath;
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || (size > 0 && ::write(fd, bytes, size) != static_cast<ssize_t>(size))) {
            std::perror(path.c_str());
            std::abort(); // the fuzzer's own setup failed: nothing it finds would mean anything
        }
        ::close(fd);
    }

private:
    FuzzStoreDir()
    {
        const char *tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/mqdesk-fuzz-store-XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) {
            std::perror("mkdtemp");
            std::abort();
        }
        root_ = pattern;
        std::ifstream in(MQDESK_FUZZ_COMMITLOG, std::ios::binary);
        const std::vector<uint8_t> log{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        if (log.empty()) {
            std::fprintf(stderr, "fuzz: cannot read the fixture commit log %s\n", MQDESK_FUZZ_COMMITLOG);
            std::abort();
        }
        writeFile("commitlog/00000000000000000000", log.data(), log.size());
    }
    // libFuzzer ends with exit(), which runs this.
    ~FuzzStoreDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(root_, ignored);
    }

    std::string root_;
};

} // namespace mqdesk::fuzz
