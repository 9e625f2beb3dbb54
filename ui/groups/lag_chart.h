#pragma once

// LagChart: a consumer group's lag over time (the Consumer groups view's detail pane). It loads
// the window chosen (15 min and 1 h from the per-second history, 24 h and 7 d from the
// per-minute rollups, which also draw the minute's maximum) from the HistoryStore off the GUI
// thread, then follows the HistoryRecorder's live samples. Markers show where the app started
// and where offsets were reset from the console. A TimeChart (ui/widgets/time_chart.h): wheel zoom
// and drag on the time axis, values on hover, pause (live samples are kept and drawn on resume),
// PNG and CSV export.

#include "ui/history/history_types.h"

#include <QWidget>

class QCPGraph;
class QCustomPlot;
class QLabel;

namespace mqdesk::ui {

class HistoryRecorder;
class HistoryStore;
class TimeChart;

class LagChart : public QWidget
{
    Q_OBJECT

public:
    enum class Window { Minutes15, Hour1, Hours24, Days7 };
    Q_ENUM(Window)

    LagChart(HistoryStore &history, HistoryRecorder &recorder, QWidget *parent = nullptr);

    // Shows `group` of the cluster at `cluster` (its NameServer address); empty clears.
    void setGroup(const QString &cluster, const QString &group);
    void setWindow(Window window);
    void setPaused(bool paused);
    bool isPaused() const;
    // Marks an offset reset of the shown group made just now (it is also stored as an event).
    void markReset(int64_t time);
    bool exportPng(const QString &path, QString *error = nullptr);
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    // For tests and screenshots.
    const std::vector<HistoryPoint> &points() const { return points_; }
    int markerCount() const { return static_cast<int>(markers_.size()); }
    bool isLoading() const { return loading_; }
    QCustomPlot *plot() const;
    QString statusText() const;

signals:
    void loaded();

private:
    void reload();
    void onSample(const QString &cluster, qint64 time, const NamedCounts &lag);
    void redraw();
    void followLatest();
    void rescaleValues();
    void onPausedChanged(bool paused);
    void addMarkerItem(const HistoryEvent &event);
    QString hoverText(double seconds) const;
    HistoryResolution resolution() const;
    int64_t windowMillis() const;

    HistoryStore &history_;
    QString cluster_;
    QString group_;
    Window window_ = Window::Minutes15;
    std::vector<HistoryPoint> points_;
    std::vector<HistoryPoint> pending_; // live samples taken while paused or loading
    std::vector<HistoryEvent> markers_;
    bool loading_ = false;
    int generation_ = 0;

    TimeChart *chart_ = nullptr;
    QCPGraph *lag_ = nullptr;
    QCPGraph *maxLag_ = nullptr;
    QLabel *status_ = nullptr;
};

} // namespace mqdesk::ui
