#pragma once

// TimeChart: the graph over time that the flush monitor (ui/flush) and a group's lag chart
// (ui/groups) share. One or more axis rects stacked over a common time axis (local time; a
// wheel zoom or a drag on one moves them all, and the zoomed width is what is followed from then
// on), markers (a vertical line through every rect, a label in the first), a toolbar with the
// time window, Pause/Resume and PNG/CSV export, and values on hover.
//
// What a series holds, how its value axes scale and what a hover says stay with the owner:
// it adds its graphs to the rects, answers visibleRangeChanged by rescaling its value axes, and
// gives the hover text and the CSV writer as functions. Paused, the time axis stops following
// (followLatest does nothing); the owner keeps what arrives meanwhile and draws it on
// pausedChanged(false). GUI thread only.

#include <QList>
#include <QPen>
#include <QWidget>

#include <functional>

class QCPAxis;
class QCPAxisRect;
class QCPGraph;
class QCPRange;
class QComboBox;
class QCustomPlot;
class QHBoxLayout;
class QPushButton;

namespace mqdesk::ui {

class TimeChart : public QWidget
{
    Q_OBJECT

public:
    struct WindowChoice
    {
        QString label; // "5 min"
        int seconds;
    };
    // Writes what the chart shows as CSV to `path`; false with `error` set.
    using CsvWriter = std::function<bool(const QString &path, QString *error)>;
    // The tooltip for the pointer at `seconds` (epoch, fractional) over `rect`; empty hides it.
    using HoverText = std::function<QString(QCPAxisRect *rect, double seconds)>;

    // `objectNamePrefix` names the controls ("flush": flushWindowBox, flushPauseButton, …).
    TimeChart(const QString &objectNamePrefix, QWidget *parent = nullptr);

    // The toolbar, for the owner's own controls in front of the window choice ("status" labels).
    QHBoxLayout *toolbar() const { return toolbar_; }
    void setWindowChoices(const QList<WindowChoice> &choices, int currentSeconds);
    // Chooses a window (as the combo does): the followed width becomes it; windowChanged follows.
    void setWindowSeconds(int seconds);
    // The chosen window (the combo's), and the width followed now (after a zoom, the zoomed one).
    int windowSeconds() const { return windowSeconds_; }
    double followedSeconds() const { return followedSeconds_; }
    // "HH:mm:ss" or "dd MMM HH:mm", for every rect's time axis.
    void setTimeFormat(const QString &format);

    // A rect under the ones already there, its value axis titled `valueLabel`, with a legend.
    QCPAxisRect *addRect(const QString &valueLabel);
    QCPAxis *timeAxis(QCPAxisRect *rect) const;
    QCPAxis *valueAxis(QCPAxisRect *rect) const;
    QCPGraph *addGraph(QCPAxisRect *rect, QCPAxis *valueAxis, const QString &name, const QPen &pen);
    const QList<QCPAxisRect *> &rects() const { return rects_; }
    QCustomPlot *plot() const { return plot_; }

    // A vertical line at `seconds` through every rect, labelled in the first (three label rows
    // in turn, so markers close together stay readable).
    void addMarker(double seconds, const QString &label, const QPen &pen);
    int markerCount() const { return markers_; }
    // Clears the graphs' data and every item (markers, the owner's lines too).
    void clear();

    // Shows [now - followed width, now + a margin] unless paused; visibleRangeChanged follows.
    void followLatest(double nowSeconds);
    void setPaused(bool paused);
    bool isPaused() const { return paused_; }
    void replot();

    bool exportPng(const QString &path, QString *error = nullptr);
    void setExports(const QString &pngName, const QString &csvName, CsvWriter csv);
    void setHoverText(HoverText hover) { hover_ = std::move(hover); }

signals:
    void windowChanged(int seconds);
    void pausedChanged(bool paused);
    // The time range shown changed (followed, zoomed, dragged): rescale the value axes.
    void visibleRangeChanged();
    // "Saved <path>." or "Export failed: <why>".
    void exportFinished(const QString &outcome);

private:
    void syncRanges(const QCPRange &range);
    void showHover(const QPoint &pos);
    void chooseExport(bool png);

    QHBoxLayout *toolbar_ = nullptr;
    QComboBox *windowBox_ = nullptr;
    QPushButton *pauseButton_ = nullptr;
    QCustomPlot *plot_ = nullptr;
    QList<QCPAxisRect *> rects_;
    QString timeFormat_ = QStringLiteral("HH:mm:ss");
    QString pngName_;
    QString csvName_;
    CsvWriter csv_;
    HoverText hover_;
    int windowSeconds_ = 300;
    double followedSeconds_ = 300;
    int markers_ = 0;
    bool paused_ = false;
    bool updatingRange_ = false;
};

} // namespace mqdesk::ui
