#pragma once

// BackgroundScan: one long scan over a store (a full verify, a filtered record search, a jump to
// a time) on a pool thread, with progress and cancel, for the explorer's views. The work gets a
// store::ScanProgress to call as it goes; it returns false once cancel() was called, so the
// engine stops at its next check. Progress reaches the GUI thread at most every 50 ms; the
// result reaches `done` on the GUI thread unless the scan was cancelled or replaced meanwhile.
//
// One scan at a time per object: start() cancels the one running (its result is dropped). Work
// that throws ends in finished(true) and failed(message): no exception leaves the pool thread.
// Destroying the object cancels and waits, so the work may use what the owner keeps alive.

#include "broker/store/reader/store_reader.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace mqdesk::ui {

class BackgroundScan : public QObject
{
    Q_OBJECT

public:
    explicit BackgroundScan(QObject *parent = nullptr) : QObject(parent) { pool_.setMaxThreadCount(1); }
    ~BackgroundScan() override
    {
        cancel();
        pool_.waitForDone();
    }

    // Runs `work(const store::ScanProgress &)` off the GUI thread; `done(result)` runs on the GUI
    // thread when it returns, unless cancelled or replaced. Emits started() now and finished()
    // when the work ends either way.
    template <typename Work, typename Done>
    void start(Work work, Done done)
    {
        cancel();
        auto state = std::make_shared<State>();
        {
            std::lock_guard lock(mutex_);
            current_ = state;
        }
        running_ = true;
        emit started();
        QPointer<BackgroundScan> self(this);
        pool_.start([self, state, work = std::move(work), done = std::move(done)]() mutable {
            QElapsedTimer sinceReport;
            sinceReport.start();
            const store::ScanProgress progress = [self, state, &sinceReport](int64_t doneBytes, int64_t total) {
                if (state->cancelled.load(std::memory_order_relaxed))
                    return false;
                if (sinceReport.elapsed() >= 50 && self) {
                    sinceReport.restart();
                    QMetaObject::invokeMethod(self.data(), [self, state, doneBytes, total] {
                        if (self && !state->cancelled)
                            emit self->progressChanged(doneBytes, total);
                    }, Qt::QueuedConnection);
                }
                return true;
            };
            // No exception may end a pool thread (it would end the app): a scan that throws
            // (an allocation a damaged store made huge) is reported as failed, not delivered.
            std::optional<decltype(work(progress))> result;
            QString failure;
            try {
                result.emplace(work(progress));
            } catch (const std::exception &e) {
                failure = QString::fromUtf8(e.what());
            } catch (...) {
                failure = QStringLiteral("unknown exception");
            }
            if (!self)
                return;
            if (!result) {
                qWarning("store explorer: a background scan failed: %s", qPrintable(failure));
                QMetaObject::invokeMethod(self.data(), [self, state, failure] {
                    if (!self || !self->isCurrent(state))
                        return;
                    self->running_ = false;
                    emit self->finished(true);
                    emit self->failed(failure);
                }, Qt::QueuedConnection);
                return;
            }
            QMetaObject::invokeMethod(self.data(), [self, state, done = std::move(done), result = std::move(result)]() mutable {
                if (!self)
                    return;
                const bool current = self->isCurrent(state);
                if (current)
                    self->running_ = false;
                if (!state->cancelled && current)
                    done(std::move(*result));
                if (current)
                    emit self->finished(state->cancelled.load());
            }, Qt::QueuedConnection);
        });
    }

    // Asks the running work to stop; its result is dropped. finished(true) follows, unless a
    // start() replaced the scan first (a replaced scan reports nothing).
    void cancel()
    {
        std::lock_guard lock(mutex_);
        if (current_)
            current_->cancelled = true;
    }
    bool isRunning() const { return running_; }
    // Blocks until the work has returned (tests). Results are still delivered through the event loop.
    void waitForDone() { pool_.waitForDone(); }

signals:
    void started();
    void progressChanged(qint64 done, qint64 total); // bytes; total 0 when unknown
    void finished(bool cancelled);
    // The work threw (its text), right after finished(true). The view keeps what it showed before.
    void failed(const QString &message);

private:
    struct State
    {
        std::atomic<bool> cancelled{false};
    };

    bool isCurrent(const std::shared_ptr<State> &state)
    {
        std::lock_guard lock(mutex_);
        return current_ == state;
    }

    QThreadPool pool_;
    std::mutex mutex_;
    std::shared_ptr<State> current_; // guarded by mutex_
    bool running_ = false;           // GUI thread only
};

} // namespace mqdesk::ui
