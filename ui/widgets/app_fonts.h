#pragma once

// The fonts the app draws with, chosen from lists rather than left to whatever the machine's
// "monospace" alias and fallback order resolve to. On a Debian desktop with fonts-noto-mono,
// "monospace" is Noto Sans Mono, which fontconfig does not mark fixed-pitch (it declares dual
// spacing): Qt then treats it as proportional, and snippets, hex dumps and stacks are laid out
// with proportional metrics. Which face draws Chinese text likewise depended on the fallback
// order of whatever CJK fonts happened to be installed.
//
// scripts/install-deps.sh installs the first choice of each list (fonts-dejavu-core,
// fonts-wqy-microhei). Functions here need a QGuiApplication; call them from the GUI thread.

#include <QFont>
#include <QStringList>

namespace mqdesk::ui {

// Families tried, in order, for code, hex dumps, message bodies and stacks.
QStringList fixedPitchCandidates();

// Families appended as fallbacks to the interface and fixed-pitch fonts for CJK text.
QStringList cjkCandidates();

// The fixed-pitch font: the first candidate installed that the font database calls fixed-pitch,
// at the size of Qt's system fixed font, with the CJK fallback. Chosen on the first call. When
// no candidate is installed it is Qt's system fixed font (fixedPitchProblem() says so).
QFont fixedPitchFont();

// Empty when a candidate was found, else a sentence naming the families tried.
QString fixedPitchProblem();

// Applies the chosen fonts at start: the CJK fallback appended to the application font. Returns
// what could not be chosen (no fixed-pitch candidate, no CJK candidate), one sentence each, for
// the caller to print; the app runs with Qt's defaults for those.
QStringList installAppFonts();

} // namespace mqdesk::ui
