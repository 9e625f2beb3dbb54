#pragma once

// The last step of work done off the GUI thread (ClusterConnection::run, HistoryStore::run):
// hand the result to a callback on the context object's thread, and drop it if the context
// (usually a view) was destroyed meanwhile.

#include <QMetaObject>
#include <QObject>
#include <QPointer>

#include <utility>

namespace mqdesk::ui {

template <typename Done, typename Result>
void deliverQueued(const QPointer<QObject> &context, Done done, Result result)
{
    if (!context)
        return;
    QMetaObject::invokeMethod(
        context.data(),
        [context, done = std::move(done), result = std::move(result)]() mutable {
            if (context)
                done(std::move(result));
        },
        Qt::QueuedConnection);
}

} // namespace mqdesk::ui
