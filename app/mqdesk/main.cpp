// mqdesk: the desktop console. Parses the same broker flags as mqdesk-broker, starts the
// embedded broker (store in the user's application data folder unless --store says otherwise)
// and opens the main window.

#include "broker/server/bind_policy.h"
#include "ui/explorer/explorer_actions.h"
#include "ui/language.h"
#include "ui/main_window.h"
#include "ui/port_choice.h"
#include "ui/widgets/app_fonts.h"
#include "stop_signals.h"

#include <QApplication>
#include <QCoreApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QSessionManager>
#include <QStandardPaths>

#include <iostream>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("mqdesk"));
    QApplication::setOrganizationName(QStringLiteral("MQDesk"));
    // SIGTERM, SIGINT and SIGHUP (kill, Ctrl+C, logout) quit the event loop instead of ending
    // the process, so the broker below is stopped cleanly (MainWindow::shutDown on aboutToQuit).
    mqdesk::app::StopSignals stopSignals;
    QObject::connect(&stopSignals, &mqdesk::app::StopSignals::received, &app, [](int signal) {
        std::cerr << "mqdesk: " << mqdesk::app::StopSignals::signalName(signal) << " received, stopping the broker\n";
        QCoreApplication::quit();
    });

    // The language comes first, so that --help is in it too: --lang is read before parsing.
    QString langArgument;
    const QStringList arguments = QCoreApplication::arguments();
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == QStringLiteral("--lang") && i + 1 < arguments.size())
            langArgument = arguments[i + 1];
        else if (arguments[i].startsWith(QStringLiteral("--lang=")))
            langArgument = arguments[i].mid(7);
    }
    if (!langArgument.isEmpty() && mqdesk::ui::normalizedLanguage(langArgument).isEmpty()) {
        std::cerr << "mqdesk: --lang takes en or zh_CN, got '" << langArgument.toStdString() << "'\n";
        return 2;
    }
    if (!mqdesk::ui::installTranslators(app, mqdesk::ui::chooseLanguage(langArgument)))
        std::cerr << "mqdesk: the translation could not be loaded; the window stays in English\n";
    for (const QString &problem : mqdesk::ui::installAppFonts())
        std::cerr << "mqdesk: warning: " << problem.toStdString() << "\n";

    // Translated in the context "mqdesk" (QT_TRANSLATE_NOOP marks them for lupdate).
    const auto translated = [](const char *text) { return QCoreApplication::translate("mqdesk", text); };
    QCommandLineParser parser;
    parser.setApplicationDescription(translated(QT_TRANSLATE_NOOP("mqdesk", "MQDesk: a RocketMQ broker with a console attached")));
    parser.addHelpOption();
    const QCommandLineOption configOption({QStringLiteral("c"), QStringLiteral("config")},
                                          translated(QT_TRANSLATE_NOOP("mqdesk", "broker.conf (RocketMQ keys)")), translated(QT_TRANSLATE_NOOP("mqdesk", "file")));
    const QCommandLineOption storeOption(QStringLiteral("store"), translated(QT_TRANSLATE_NOOP("mqdesk", "Store root directory")), translated(QT_TRANSLATE_NOOP("mqdesk", "dir")));
    const QCommandLineOption namesrvPortOption(QStringLiteral("namesrv-port"),
                                               translated(QT_TRANSLATE_NOOP("mqdesk", "Embedded NameServer port (0: a free one)")), translated(QT_TRANSLATE_NOOP("mqdesk", "port")),
                                               QStringLiteral("9876"));
    const QCommandLineOption brokerPortOption(QStringLiteral("broker-port"), translated(QT_TRANSLATE_NOOP("mqdesk", "Broker port (0: a free one)")),
                                              translated(QT_TRANSLATE_NOOP("mqdesk", "port")), QStringLiteral("10911"));
    const QCommandLineOption grpcPortOption(QStringLiteral("grpc-port"),
                                            translated(QT_TRANSLATE_NOOP("mqdesk", "RocketMQ 5 gRPC endpoint port (0: a free one, "
                                                                                   "-1: none; a taken port falls back to a free one)")),
                                            translated(QT_TRANSLATE_NOOP("mqdesk", "port")), QStringLiteral("8081"));
    const QCommandLineOption langOption(QStringLiteral("lang"),
                                        translated(QT_TRANSLATE_NOOP("mqdesk", "Interface language: en or zh_CN (default: the saved choice, "
                                           "else the system's)")),
                                        translated(QT_TRANSLATE_NOOP("mqdesk", "language")));
    const QCommandLineOption exploreOption(QStringLiteral("explore"),
                                           translated(QT_TRANSLATE_NOOP("mqdesk", "Open a store directory in the store explorer at start")),
                                           translated(QT_TRANSLATE_NOOP("mqdesk", "dir")));
    const QCommandLineOption allowUnauthenticatedOption(
        QStringLiteral("allow-unauthenticated"),
        translated(QT_TRANSLATE_NOOP("mqdesk", "Let the embedded broker listen on a non-loopback bindAddress without "
                                               "aclEnable (every host that reaches it can read and write every topic)")));
    parser.addOptions({configOption, storeOption, namesrvPortOption, brokerPortOption, grpcPortOption, langOption, exploreOption,
                       allowUnauthenticatedOption});
    parser.process(app);

    mqdesk::server::EmbeddedBrokerOptions options;
    const auto fail = [](const std::string &message) {
        std::cerr << "mqdesk: " << message << "\n";
        return 2;
    };
    if (parser.isSet(configOption)) {
        std::vector<std::string> unknownKeys;
        std::string error;
        if (!options.settings.loadFile(parser.value(configOption).toStdString(), unknownKeys, error))
            return fail(error);
    }
    QString store = parser.value(storeOption);
    if (store.isEmpty())
        store = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/store");
    QDir().mkpath(store);
    if (const std::string error = options.settings.set("storePathRootDir", store.toStdString()); !error.empty())
        return fail(error);
    bool ok = false;
    const int brokerPort = parser.value(brokerPortOption).toInt(&ok);
    if (!ok || brokerPort < 0 || brokerPort > 65535)
        return fail("--broker-port takes a port number, got '" + parser.value(brokerPortOption).toStdString() + "'");
    const int namesrvPort = parser.value(namesrvPortOption).toInt(&ok);
    if (!ok || namesrvPort < 0 || namesrvPort > 65535)
        return fail("--namesrv-port takes a port number, got '" + parser.value(namesrvPortOption).toStdString() + "'");
    const int grpcPort = parser.value(grpcPortOption).toInt(&ok);
    if (!ok || grpcPort < -1 || grpcPort > 65535)
        return fail("--grpc-port takes a port number or -1, got '" + parser.value(grpcPortOption).toStdString() + "'");
    options.settings.store.listenPort = brokerPort;
    options.grpcPort = grpcPort;
    options.allowUnauthenticated = parser.isSet(allowUnauthenticatedOption);
    // Refused here, before a window opens, as mqdesk-broker refuses it (bind_policy.h).
    if (const std::string refusal = mqdesk::server::checkBindPolicy(options.settings, options.allowUnauthenticated);
        !refusal.empty())
        return fail(refusal);
    if (mqdesk::server::isExposedWithoutAcl(options.settings))
        std::cerr << "mqdesk: warning: the embedded broker listens on " << options.settings.broker.bindAddress
                  << " WITHOUT access control: any host that reaches it can read, write and delete every topic "
                     "(set aclEnable=true, see README, Access control)\n";
    options.namesrvPort = static_cast<uint16_t>(namesrvPort);
    // Ports chosen in the app after a conflict ("Use port N") apply unless given here.
    const mqdesk::ui::RememberedPorts remembered = mqdesk::ui::rememberedPorts();
    if (!parser.isSet(namesrvPortOption) && remembered.namesrvPort)
        options.namesrvPort = *remembered.namesrvPort;
    if (!parser.isSet(brokerPortOption) && remembered.brokerPort)
        options.settings.store.listenPort = *remembered.brokerPort;

    mqdesk::ui::MainWindow window(options);
    // Every quit (the window closed, a stop signal, the session manager's quit at logout) stops
    // the broker before main() returns; the session manager's save request keeps the layout.
    QObject::connect(&app, &QCoreApplication::aboutToQuit, &window, &mqdesk::ui::MainWindow::shutDown);
    QObject::connect(&app, &QGuiApplication::commitDataRequest, &window,
                     [&window](QSessionManager &) { window.rememberWindowState(); });
    window.show();
    for (const QString &dir : parser.values(exploreOption))
        mqdesk::ui::openStoreExplorer(dir);
    return app.exec();
}
