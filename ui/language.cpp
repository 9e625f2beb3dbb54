#include "ui/language.h"

#include "ui/connection/connection_manager.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>
#include <QTranslator>

namespace mqdesk::ui {

namespace {

const QString kLanguageKey = QStringLiteral("ui/language");

// The language the running app was started in (installTranslators), for the menu's check mark.
QString &currentLanguage()
{
    static QString language = kEnglish;
    return language;
}

} // namespace

QString languageForLocale(const QLocale &locale)
{
    return locale.language() == QLocale::Chinese ? kChinese : kEnglish;
}

QString normalizedLanguage(const QString &name)
{
    const QString lower = name.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    if (lower == QStringLiteral("en") || lower.startsWith(QStringLiteral("en_")))
        return kEnglish;
    if (lower == QStringLiteral("zh") || lower.startsWith(QStringLiteral("zh_")))
        return kChinese;
    return {};
}

QString savedLanguage()
{
    const QSettings settings(appSettingsPath(), QSettings::IniFormat);
    return normalizedLanguage(settings.value(kLanguageKey).toString());
}

void saveLanguage(const QString &language)
{
    QSettings settings(appSettingsPath(), QSettings::IniFormat);
    settings.setValue(kLanguageKey, language);
}

QString chooseLanguage(const QString &commandLine)
{
    if (const QString language = normalizedLanguage(commandLine); !language.isEmpty())
        return language;
    if (const QString saved = savedLanguage(); !saved.isEmpty())
        return saved;
    return languageForLocale(QLocale::system());
}

bool installTranslators(QCoreApplication &app, const QString &language)
{
    currentLanguage() = language;
    if (language != kChinese)
        return true;
    // Qt's own strings (standard buttons and dialogs): optional, only when the package is there.
    auto *qt = new QTranslator(&app);
    if (qt->load(QStringLiteral("qtbase_zh_CN"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    auto *own = new QTranslator(&app);
    if (!own->load(QStringLiteral(":/i18n/mqdesk_zh_CN.qm"))) {
        delete own;
        return false;
    }
    QCoreApplication::installTranslator(own);
    QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    return true;
}

void addLanguageMenu(QMenu &viewMenu, QStatusBar &statusBar)
{
    QMenu *menu = viewMenu.addMenu(QCoreApplication::translate("mqdesk::ui::Language", "&Language"));
    auto *group = new QActionGroup(menu);
    // Each language is named in itself, so it can be found whatever the current one is.
    const struct {
        QString code;
        QString name;
    } languages[] = {{kEnglish, QStringLiteral("English")}, {kChinese, QStringLiteral("简体中文")}};
    for (const auto &language : languages) {
        QAction *action = menu->addAction(language.name);
        action->setCheckable(true);
        action->setChecked(language.code == currentLanguage());
        action->setData(language.code);
        group->addAction(action);
        QObject::connect(action, &QAction::triggered, menu, [code = language.code, bar = &statusBar] {
            saveLanguage(code);
            bar->showMessage(QCoreApplication::translate(
                "mqdesk::ui::Language", "The language changes the next time MQDesk starts."));
        });
    }
}

} // namespace mqdesk::ui
