// The Debian package as a user gets it: built by CPack from this build tree (what
// `cmake --build build/release --target package` runs), its control data and file list checked,
// then unpacked into a scratch root whose programs are started from there — the headless broker
// and the desktop app (offscreen) — and stopped cleanly.

#include "program_process.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>

using mqdesk::testing::ProgramProcess;

namespace {

// Runs a command to the end (10 minutes at most); its standard output, or a failed test.
struct CommandResult
{
    bool ok = false;
    QString output;
    QString errors;
};

CommandResult run(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    CommandResult result;
    result.ok = process.waitForFinished(600000) && process.exitStatus() == QProcess::NormalExit
                && process.exitCode() == 0;
    result.output = QString::fromUtf8(process.readAllStandardOutput());
    result.errors = program + QLatin1Char(' ') + arguments.join(QLatin1Char(' ')) + QStringLiteral(": ")
                    + process.errorString() + QLatin1Char('\n') + QString::fromUtf8(process.readAllStandardError());
    return result;
}

// The package names in a Depends field ("a (>= 1), b | c" → a, b, c).
QStringList dependencyNames(const QString &depends)
{
    QStringList names;
    for (const QString &alternative : depends.split(QRegularExpression(QStringLiteral("[,|]")))) {
        const QString name = alternative.trimmed().section(QLatin1Char(' '), 0, 0);
        if (!name.isEmpty())
            names << name;
    }
    return names;
}

// The Debian package that owns `path` (dpkg --search), or empty. Debian 12 merges /lib into
// /usr/lib, and dpkg knows each file by the name its package shipped it under: try both.
QString owningPackage(const QString &path)
{
    QStringList candidates{path};
    if (path.startsWith(QStringLiteral("/usr/lib/")))
        candidates << path.mid(4);
    else if (path.startsWith(QStringLiteral("/lib/")))
        candidates << QStringLiteral("/usr") + path;
    for (const QString &candidate : candidates) {
        const CommandResult owner = run(QStringLiteral("dpkg"), {QStringLiteral("--search"), candidate});
        if (owner.ok)
            return owner.output.section(QLatin1Char(':'), 0, 0).trimmed();
    }
    return {};
}

const QStringList kPrograms{QStringLiteral("mqdesk"), QStringLiteral("mqdesk-broker"),
                            QStringLiteral("mqdesk-admin"), QStringLiteral("mqdesk-bench")};

} // namespace

class DebPackageTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void controlData();
    void fileList();
    void linkedLibrariesComeFromDependencies();
    void packagedBrokerStartsAndStops();
    void packagedAppStartsAndStops();

private:
    QString field(const QString &name) const;

    QTemporaryDir work_;
    QString deb_;
    QString control_;
    QString root_;
};

void DebPackageTest::initTestCase()
{
    QVERIFY(work_.isValid());
    const CommandResult cpack = run(QStringLiteral(MQDESK_CPACK_COMMAND),
                                    {QStringLiteral("--config"), QStringLiteral(MQDESK_BUILD_DIR "/CPackConfig.cmake"),
                                     QStringLiteral("-B"), work_.path()});
    QVERIFY2(cpack.ok, qPrintable(cpack.output + cpack.errors));
    const QStringList debs = QDir(work_.path()).entryList({QStringLiteral("*.deb")}, QDir::Files);
    QVERIFY2(debs.size() == 1, qPrintable(cpack.output + debs.join(QLatin1Char(' '))));
    deb_ = work_.filePath(debs.first());

    const CommandResult control = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--field"), deb_});
    QVERIFY2(control.ok, qPrintable(control.errors));
    control_ = control.output;

    root_ = work_.filePath(QStringLiteral("root"));
    const CommandResult extract = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--extract"), deb_, root_});
    QVERIFY2(extract.ok, qPrintable(extract.errors));
}

QString DebPackageTest::field(const QString &name) const
{
    const QRegularExpression line(QStringLiteral("^%1: (.*)$").arg(name), QRegularExpression::MultilineOption);
    return line.match(control_).captured(1).trimmed();
}

void DebPackageTest::controlData()
{
    QCOMPARE(field(QStringLiteral("Package")), QStringLiteral("mqdesk"));
    QCOMPARE(field(QStringLiteral("Version")), QStringLiteral(MQDESK_VERSION));
    const CommandResult arch = run(QStringLiteral("dpkg"), {QStringLiteral("--print-architecture")});
    QVERIFY(arch.ok);
    QCOMPARE(field(QStringLiteral("Architecture")), arch.output.trimmed());
    QVERIFY2(!field(QStringLiteral("Maintainer")).isEmpty(), qPrintable(control_));
    QVERIFY2(field(QStringLiteral("Description")).contains(QStringLiteral("RocketMQ")), qPrintable(control_));
    QCOMPARE(field(QStringLiteral("Section")), QStringLiteral("devel"));

    // What the linker sees (shlibdeps) and the plugins it does not.
    const QStringList depends = dependencyNames(field(QStringLiteral("Depends")));
    for (const char *name : {"libc6", "libstdc++6", "libqt6core6", "libqt6widgets6", "libqt6network6",
                             "libqt6sql6", "libqt6sql6-sqlite", "libqt6svg6", "zlib1g"})
        QVERIFY2(depends.contains(QLatin1String(name)), qPrintable(QLatin1String(name) + QStringLiteral(" missing from Depends: ")
                                                                   + field(QStringLiteral("Depends"))));
}

void DebPackageTest::fileList()
{
    const CommandResult contents = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--contents"), deb_});
    QVERIFY2(contents.ok, qPrintable(contents.errors));
    QStringList paths;
    for (const QString &line : contents.output.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        paths << line.section(QLatin1Char(' '), -1).remove(QRegularExpression(QStringLiteral("^\\./")));
    QStringList expected{QStringLiteral("usr/share/applications/mqdesk.desktop"),
                         QStringLiteral("usr/share/icons/hicolor/scalable/apps/mqdesk.svg"),
                         QStringLiteral("usr/share/doc/MQDesk/README.md")};
    for (const QString &program : kPrograms)
        expected << QStringLiteral("usr/bin/") + program;
    for (const QString &path : expected)
        QVERIFY2(paths.contains(path), qPrintable(path + QStringLiteral(" not in the package:\n") + contents.output));
    for (const QString &path : paths) {
        QVERIFY2(path.startsWith(QStringLiteral("usr/")), qPrintable(path + QStringLiteral(" is outside /usr")));
        QVERIFY2(!path.startsWith(QStringLiteral("usr/include")) && !path.endsWith(QStringLiteral(".a")),
                 qPrintable(path + QStringLiteral(": development files do not belong in the package")));
    }
    // Programs are executable by everyone.
    for (const QString &line : contents.output.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.contains(QStringLiteral("./usr/bin/")) && !line.startsWith(QLatin1Char('d')))
            QVERIFY2(line.startsWith(QStringLiteral("-rwxr-xr-x")), qPrintable(line));
    }
}

// Every library a packaged program names (ELF NEEDED) belongs to a Debian package that the
// package depends on, so that installing the .deb installs what the programs need.
void DebPackageTest::linkedLibrariesComeFromDependencies()
{
    const QStringList depends = dependencyNames(field(QStringLiteral("Depends")));
    for (const QString &program : kPrograms) {
        const QString path = root_ + QStringLiteral("/usr/bin/") + program;
        const CommandResult ldd = run(QStringLiteral("ldd"), {path});
        QVERIFY2(ldd.ok, qPrintable(ldd.errors));
        QVERIFY2(!ldd.output.contains(QStringLiteral("not found")), qPrintable(ldd.output));
        const CommandResult dynamic = run(QStringLiteral("objdump"), {QStringLiteral("-p"), path});
        QVERIFY2(dynamic.ok, qPrintable(dynamic.errors));
        static const QRegularExpression needed(QStringLiteral(R"(NEEDED\s+(\S+))"));
        for (auto it = needed.globalMatch(dynamic.output); it.hasNext();) {
            const QString library = it.next().captured(1);
            const QRegularExpression resolved(QRegularExpression::escape(library) + QStringLiteral(R"( => (\S+))"));
            const QString libraryPath = resolved.match(ldd.output).captured(1);
            QVERIFY2(!libraryPath.isEmpty(), qPrintable(library + QStringLiteral(" unresolved:\n") + ldd.output));
            const QString package = owningPackage(libraryPath);
            QVERIFY2(!package.isEmpty(), qPrintable(libraryPath + QStringLiteral(" belongs to no installed package")));
            // A package may be depended on by a name it Provides (libspdlog1.10 provides libspdlog1.10-fmt9).
            const CommandResult provides = run(QStringLiteral("dpkg-query"),
                                               {QStringLiteral("--show"), QStringLiteral("--showformat=${Provides}"), package});
            QStringList names = dependencyNames(provides.output);
            names << package;
            QVERIFY2(std::any_of(names.cbegin(), names.cend(), [&](const QString &name) { return depends.contains(name); }),
                     qPrintable(QStringLiteral("%1 needs %2 from %3, which Depends does not name: %4")
                                    .arg(program, library, package, field(QStringLiteral("Depends")))));
        }
    }
}

void DebPackageTest::packagedBrokerStartsAndStops()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString store = home.filePath(QStringLiteral("store"));
    ProgramProcess broker(root_ + QStringLiteral("/usr/bin/mqdesk-broker"),
                          {QStringLiteral("--store"), store, QStringLiteral("--namesrv-port"), QStringLiteral("0"),
                           QStringLiteral("--broker-port"), QStringLiteral("0")});
    static const QRegularExpression ready(QStringLiteral(R"(mqdesk-broker ready: namesrv=\S+ broker=\S+)"));
    QVERIFY2(broker.waitFor(ready, 30000).hasMatch(), qPrintable(broker.output()));
    QCOMPARE(broker.stop(SIGTERM), 0);
    QVERIFY2(!QFile::exists(store + QStringLiteral("/abort")), qPrintable(broker.output()));
}

void DebPackageTest::packagedAppStartsAndStops()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), home.path());
    const QString store = home.filePath(QStringLiteral("store"));
    ProgramProcess app(root_ + QStringLiteral("/usr/bin/mqdesk"),
                       {QStringLiteral("--store"), store, QStringLiteral("--namesrv-port"), QStringLiteral("0"),
                        QStringLiteral("--broker-port"), QStringLiteral("0")},
                       environment);
    static const QRegularExpression serving(QStringLiteral(R"(serving at [0-9.]+:\d+)"));
    QVERIFY2(app.waitFor(serving, 30000).hasMatch(), qPrintable(app.output()));
    QCOMPARE(app.stop(SIGTERM), 0);
    QVERIFY2(!QFile::exists(store + QStringLiteral("/abort")), qPrintable(app.output()));
}

QTEST_GUILESS_MAIN(DebPackageTest)
#include "tst_deb_package.moc"
