#include "ui/widgets/banner.h"

namespace mqdesk::ui {

Banner::Banner(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setMargin(6);
    hide();
}

void Banner::report(const QString &text, Tone tone)
{
    tone_ = tone;
    setText(text);
    setStyleSheet(tone == Tone::Error ? QStringLiteral("background: #fde2e1; color: #8a1f11; border-radius: 4px;")
                                      : QStringLiteral("background: palette(alternate-base); border-radius: 4px;"));
    setVisible(!text.isEmpty());
}

QString Banner::shownText() const
{
    // isVisibleTo: the banner of a page that is itself hidden still reports what it would show.
    return parentWidget() && isVisibleTo(parentWidget()) ? text() : QString();
}

} // namespace mqdesk::ui
