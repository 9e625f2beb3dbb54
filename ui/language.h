#pragma once

// The interface language: English (the source strings) or Simplified Chinese (the zh_CN
// translation compiled into mqdesk_ui as :/i18n/mqdesk_zh_CN.qm). Chosen by --lang, else the
// choice saved from View > Language in the app's settings file, else the system locale
// (zh_* gives zh_CN). A choice made in the menu applies the next time the app starts.

#include <QString>

class QCoreApplication;
class QLocale;
class QMenu;
class QStatusBar;

namespace mqdesk::ui {

inline const QString kEnglish = QStringLiteral("en");
inline const QString kChinese = QStringLiteral("zh_CN");

// "zh_CN" for any Chinese locale, "en" otherwise.
QString languageForLocale(const QLocale &locale);
// "en" or "zh_CN" for the names --lang accepts (en, zh_CN, zh, zh-CN; any case); empty otherwise.
QString normalizedLanguage(const QString &name);
// The language saved from the menu; empty when none was saved.
QString savedLanguage();
void saveLanguage(const QString &language);
// --lang (when not empty) beats the saved choice, which beats the system locale.
QString chooseLanguage(const QString &commandLine);
// Installs MQDesk's translation for the language and Qt's own (qtbase_zh_CN.qm from
// QLibraryInfo::TranslationsPath, when qt6-translations-l10n is installed). English installs
// nothing. False when MQDesk's translation could not be loaded.
bool installTranslators(QCoreApplication &app, const QString &language);
// View > Language: English / 简体中文, the current one checked; picking one saves it and
// says in the status bar that it applies on the next start.
void addLanguageMenu(QMenu &viewMenu, QStatusBar &statusBar);

} // namespace mqdesk::ui
