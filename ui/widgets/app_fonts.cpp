#include "ui/widgets/app_fonts.h"

#include <QApplication>
#include <QFontDatabase>

namespace mqdesk::ui {

namespace {

struct FixedPitchChoice
{
    QFont font;
    QString problem;
};

QString firstInstalled(const QStringList &candidates, bool fixedPitch)
{
    const QStringList installed = QFontDatabase::families();
    for (const QString &family : candidates) {
        if (installed.contains(family, Qt::CaseInsensitive) && (!fixedPitch || QFontDatabase::isFixedPitch(family)))
            return family;
    }
    return {};
}

QString cjkFamily()
{
    static const QString family = firstInstalled(cjkCandidates(), false);
    return family;
}

QStringList withCjkFallback(const QString &family)
{
    QStringList families{family};
    if (!cjkFamily().isEmpty() && cjkFamily() != family)
        families.append(cjkFamily());
    return families;
}

FixedPitchChoice chooseFixedPitch()
{
    FixedPitchChoice choice;
    choice.font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const QString family = firstInstalled(fixedPitchCandidates(), true);
    if (family.isEmpty()) {
        choice.problem = QStringLiteral("none of the fixed-pitch fonts %1 is installed (fonts-dejavu-core has the first); "
                                        "code and hex use the system's '%2'")
                             .arg(fixedPitchCandidates().join(QStringLiteral(", ")), choice.font.family());
        return choice;
    }
    choice.font.setFamilies(withCjkFallback(family));
    choice.font.setStyleHint(QFont::TypeWriter);
    choice.font.setFixedPitch(true);
    return choice;
}

const FixedPitchChoice &fixedPitchChoice()
{
    static const FixedPitchChoice choice = chooseFixedPitch();
    return choice;
}

} // namespace

QStringList fixedPitchCandidates()
{
    // DejaVu first: in fonts-dejavu-core, which nearly every Debian desktop has, with box drawing
    // and wide Unicode coverage. Noto Mono (not Noto Sans Mono) and Liberation Mono are fixed-pitch
    // to fontconfig; Noto Sans Mono is last, tried only by the database check (it fails it today).
    return {QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Noto Mono"), QStringLiteral("Liberation Mono"),
            QStringLiteral("Ubuntu Mono"), QStringLiteral("Hack"), QStringLiteral("Noto Sans Mono")};
}

QStringList cjkCandidates()
{
    return {QStringLiteral("WenQuanYi Micro Hei"), QStringLiteral("Noto Sans CJK SC"), QStringLiteral("Droid Sans Fallback"),
            QStringLiteral("WenQuanYi Zen Hei"), QStringLiteral("AR PL UMing CN")};
}

QFont fixedPitchFont()
{
    return fixedPitchChoice().font;
}

QString fixedPitchProblem()
{
    return fixedPitchChoice().problem;
}

QStringList installAppFonts()
{
    QStringList problems;
    if (!fixedPitchProblem().isEmpty())
        problems.append(fixedPitchProblem());
    if (cjkFamily().isEmpty()) {
        problems.append(QStringLiteral("none of the CJK fonts %1 is installed (fonts-wqy-microhei has the first); "
                                       "Chinese text uses whatever the system falls back to")
                            .arg(cjkCandidates().join(QStringLiteral(", "))));
        return problems;
    }
    QFont font = QApplication::font();
    font.setFamilies(withCjkFallback(font.family()));
    QApplication::setFont(font);
    return problems;
}

} // namespace mqdesk::ui
