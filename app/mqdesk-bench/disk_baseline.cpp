#include "app/mqdesk-bench/disk_baseline.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

namespace mqdesk::bench {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kAppendIterations = 2000;
constexpr size_t kAppendBytes = 4096;
constexpr size_t kSeqBlockBytes = 1024 * 1024;
constexpr int64_t kSeqMinBytes = 64LL * 1024 * 1024;
constexpr int64_t kSeqMaxBytes = 4LL * 1024 * 1024 * 1024;

int64_t microsSince(Clock::time_point start)
{
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

// A new file that is closed and deleted when this goes out of scope, so no baseline file is
// left behind on any path out of a test.
class ScratchFile
{
public:
    explicit ScratchFile(std::string path) : path_(std::move(path))
    {
        ::unlink(path_.c_str()); // a leftover of an interrupted run
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    }
    ~ScratchFile()
    {
        if (fd_ >= 0) {
            ::close(fd_);
            ::unlink(path_.c_str());
        }
    }
    ScratchFile(const ScratchFile &) = delete;
    ScratchFile &operator=(const ScratchFile &) = delete;

    int fd() const { return fd_; }
    const std::string &path() const { return path_; }
    std::string fail(const char *what) const
    {
        return std::string(what) + " " + path_ + ": " + std::strerror(errno);
    }

private:
    std::string path_;
    int fd_ = -1;
};

bool writeFully(int fd, const uint8_t *data, size_t length, int64_t offset)
{
    while (length > 0) {
        const ssize_t n = ::pwrite(fd, data, length, offset);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        length -= static_cast<size_t>(n);
        offset += n;
    }
    return true;
}

uint64_t exactPercentile(std::vector<int64_t> &values, double q)
{
    const auto rank = static_cast<size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
    std::nth_element(values.begin(), values.begin() + static_cast<ptrdiff_t>(rank), values.end());
    return static_cast<uint64_t>(values[rank]);
}

bool measureAppendLatency(const std::string &dir, DiskBaseline &out, std::string &error)
{
    ScratchFile file(dir + "/baseline-fdatasync");
    if (file.fd() < 0) {
        error = file.fail("cannot create");
        return false;
    }
    const std::vector<uint8_t> block(kAppendBytes, 0x5a);
    std::vector<int64_t> micros;
    micros.reserve(kAppendIterations);
    for (int i = 0; i < kAppendIterations; ++i) {
        const auto start = Clock::now();
        if (!writeFully(file.fd(), block.data(), block.size(), int64_t{i} * kAppendBytes)) {
            error = file.fail("cannot write to");
            return false;
        }
        if (::fdatasync(file.fd()) != 0) {
            error = file.fail("cannot fdatasync");
            return false;
        }
        micros.push_back(microsSince(start));
    }
    out.fdatasyncP50Micros = exactPercentile(micros, 0.50);
    out.fdatasyncP99Micros = exactPercentile(micros, 0.99);
    return true;
}

bool measureSequentialWrite(const std::string &dir, int64_t bytes, DiskBaseline &out, std::string &error)
{
    ScratchFile file(dir + "/baseline-seqwrite");
    if (file.fd() < 0) {
        error = file.fail("cannot create");
        return false;
    }
    std::vector<uint8_t> block(kSeqBlockBytes);
    for (size_t i = 0; i < block.size(); ++i)
        block[i] = static_cast<uint8_t>(i * 131 + 7); // not zeros: no filesystem may elide them
    const auto start = Clock::now();
    for (int64_t offset = 0; offset < bytes; offset += static_cast<int64_t>(kSeqBlockBytes)) {
        if (!writeFully(file.fd(), block.data(), block.size(), offset)) {
            error = file.fail("cannot write to");
            return false;
        }
    }
    if (::fdatasync(file.fd()) != 0) {
        error = file.fail("cannot fdatasync");
        return false;
    }
    const double seconds = static_cast<double>(std::max<int64_t>(1, microsSince(start))) / 1e6;
    out.seqWriteBytes = bytes;
    out.seqWriteMbPerSecond = static_cast<double>(bytes) / seconds / 1e6;
    return true;
}

} // namespace

int64_t sequentialTestBytes(int64_t count, int64_t size)
{
    // As much as the store run will write (a record is its body plus about 110 bytes), so both
    // figures see the same mix of page cache and device: this VM's disk absorbs a few hundred
    // MiB far faster than it sustains. count × record may not fit in 64 bits; anything over
    // the maximum is the maximum.
    const int64_t record = size + 110;
    const int64_t storeBytes = count > kSeqMaxBytes / record ? kSeqMaxBytes : count * record;
    const int64_t clamped = std::clamp(storeBytes, kSeqMinBytes, kSeqMaxBytes);
    const auto block = static_cast<int64_t>(kSeqBlockBytes);
    return (clamped + block - 1) / block * block;
}

std::optional<DiskBaseline> measureDiskBaseline(const std::string &dir, int64_t seqWriteBytes,
                                                std::string &error)
{
    DiskBaseline baseline;
    if (!measureAppendLatency(dir, baseline, error))
        return std::nullopt;
    if (!measureSequentialWrite(dir, seqWriteBytes, baseline, error))
        return std::nullopt;
    return baseline;
}

std::optional<double> measureCachedRead(const std::vector<std::string> &paths, const std::vector<int64_t> &bytes,
                                        std::string &error)
{
    std::vector<uint8_t> buffer(kSeqBlockBytes);
    int64_t total = 0;
    const auto start = Clock::now();
    for (size_t i = 0; i < paths.size(); ++i) {
        const int fd = ::open(paths[i].c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            error = "cannot open " + paths[i] + ": " + std::strerror(errno);
            return std::nullopt;
        }
        for (int64_t done = 0; done < bytes[i];) {
            const auto want = static_cast<size_t>(std::min<int64_t>(bytes[i] - done, kSeqBlockBytes));
            const ssize_t n = ::read(fd, buffer.data(), want);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            done += n;
            total += n;
        }
        ::close(fd);
    }
    const auto micros = std::max<int64_t>(microsSince(start), 1);
    return static_cast<double>(total) / static_cast<double>(micros);
}

} // namespace mqdesk::bench
