// mqdesk: the desktop console. Parses the same broker flags as mqdesk-broker, starts the
// embedded broker (store in the user's application data folder unless --store says otherwise)
// and opens the main window.

#include "ui/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QStandardPaths>

#include <iostream>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("mqdesk"));
    QApplication::setOrganizationName(QStringLiteral("MQDesk"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("MQDesk: a RocketMQ broker with a console attached"));
    parser.addHelpOption();
    const QCommandLineOption configOption({QStringLiteral("c"), QStringLiteral("config")},
                                          QStringLiteral("broker.conf (RocketMQ keys)"), QStringLiteral("file"));
    const QCommandLineOption storeOption(QStringLiteral("store"), QStringLiteral("Store root directory"),
                                         QStringLiteral("dir"));
    const QCommandLineOption namesrvPortOption(QStringLiteral("namesrv-port"),
                                               QStringLiteral("Embedded NameServer port (0: a free one)"),
                                               QStringLiteral("port"), QStringLiteral("9876"));
    const QCommandLineOption brokerPortOption(QStringLiteral("broker-port"),
                                              QStringLiteral("Broker port (0: a free one)"), QStringLiteral("port"),
                                              QStringLiteral("10911"));
    parser.addOptions({configOption, storeOption, namesrvPortOption, brokerPortOption});
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
    options.settings.store.listenPort = brokerPort;
    options.namesrvPort = static_cast<uint16_t>(namesrvPort);

    mqdesk::ui::MainWindow window(options);
    window.show();
    return app.exec();
}
