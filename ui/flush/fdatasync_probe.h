#pragma once

// The disk's own durable-write time, for the flush graph's reference line when the broker does
// not report it: appends 4 KiB and fdatasyncs, `count` times, in a temporary file under `dir`
// (the store's directory, so the same disk), then removes the file. Blocking — run it off the
// GUI thread.

#include <QString>

namespace mqdesk::ui {

struct FdatasyncProbeResult
{
    bool ok = false;
    QString error; // what failed and where
    int count = 0;
    double p50Micros = 0;
    double p99Micros = 0;
};

FdatasyncProbeResult measureFdatasync(const QString &dir, int count = 200);

} // namespace mqdesk::ui
