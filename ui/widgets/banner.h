#pragma once

// Banner: the line under a page's toolbar that reports what just happened there — a result
// ("Topic T created."), a failure (shown in red) or nothing (hidden). Every page reports through
// one, never through an error box. The text is selectable, so an error can be copied.

#include <QLabel>

namespace mqdesk::ui {

class Banner : public QLabel
{
    Q_OBJECT

public:
    enum class Tone { Info, Error };

    explicit Banner(QWidget *parent = nullptr);

    // Shows `text` (hides the banner when it is empty).
    void report(const QString &text, Tone tone = Tone::Info);
    void clearReport() { report({}); }
    // What the banner shows now, "" while hidden.
    QString shownText() const;
    bool isError() const { return tone_ == Tone::Error; }

private:
    Tone tone_ = Tone::Info;
};

} // namespace mqdesk::ui
