#pragma once

// StoreLocation: a place in a store the explorer can show — a file (relative to the store root,
// as StoreReader and StoreFault name it) and a byte offset in it. Views ask the explorer window
// to go somewhere by emitting one (a health fault clicked, a consume-queue entry's record, an
// index entry's record); the window routes it to the view that shows that kind of file.

#include <QMetaType>
#include <QString>

namespace mqdesk::ui {

struct StoreLocation
{
    QString file;     // e.g. "commitlog/00000000000000000000", "config/topics.json"
    qint64 offset = 0; // byte offset within `file`

    bool operator==(const StoreLocation &other) const = default;
};

} // namespace mqdesk::ui

Q_DECLARE_METATYPE(mqdesk::ui::StoreLocation)
