#pragma once

// The last step of work done off the GUI thread (ClusterConnection::run, HistoryStore::run):
// hand the result to a callback on the GUI thread (where every context lives), and drop it if the context
// (usually a view) was destroyed meanwhile.

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>

#include <utility>

namespace mqdesk::ui {

// Called on a worker thread: `context` may be destroyed on the GUI thread at any moment, so it
// is only tested there; the call is queued to the application object (the GUI thread, where
// every context lives), never to context.data(), which could dangle between test and use.
template <typename Done, typename Result>
void deliverQueued(const QPointer<QObject> &context, Done done, Result result)
{
    QObject *const app = QCoreApplication::instance();
    if (!context || !app)
        return;
    QMetaObject::invokeMethod(
        app,
        [context, done = std::move(done), result = std::move(result)]() mutable {
            if (context)
                done(std::move(result));
        },
        Qt::QueuedConnection);
}

} // namespace mqdesk::ui
