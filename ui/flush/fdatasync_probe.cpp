#include "ui/flush/fdatasync_probe.h"

#include <QByteArray>
#include <QDir>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace mqdesk::ui {

namespace {

QString systemError(const char *what, const QString &path)
{
    return QStringLiteral("%1 %2: %3").arg(QLatin1String(what), path, QString::fromLocal8Bit(std::strerror(errno)));
}

} // namespace

FdatasyncProbeResult measureFdatasync(const QString &dir, int count)
{
    FdatasyncProbeResult result;
    if (!QDir().mkpath(dir)) {
        result.error = QStringLiteral("cannot create %1").arg(dir);
        return result;
    }
    QByteArray pattern = QDir(dir).filePath(QStringLiteral(".mqdesk-fdatasync-XXXXXX")).toLocal8Bit();
    const int fd = ::mkstemp(pattern.data());
    const QString path = QString::fromLocal8Bit(pattern);
    if (fd < 0) {
        result.error = systemError("mkstemp", path);
        return result;
    }
    std::vector<char> block(4096, 'm');
    std::vector<double> micros;
    micros.reserve(static_cast<size_t>(std::max(0, count)));
    for (int i = 0; i < count; ++i) {
        if (::write(fd, block.data(), block.size()) != static_cast<ssize_t>(block.size())) {
            result.error = systemError("write", path);
            break;
        }
        const auto start = std::chrono::steady_clock::now();
        if (::fdatasync(fd) != 0) {
            result.error = systemError("fdatasync", path);
            break;
        }
        micros.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    ::close(fd);
    ::unlink(pattern.constData());
    if (!result.error.isEmpty() || micros.empty())
        return result;
    std::sort(micros.begin(), micros.end());
    result.ok = true;
    result.count = static_cast<int>(micros.size());
    result.p50Micros = micros[micros.size() / 2];
    result.p99Micros = micros[std::min(micros.size() - 1, micros.size() * 99 / 100)];
    return result;
}

} // namespace mqdesk::ui
