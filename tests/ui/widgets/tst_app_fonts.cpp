// The fonts the app chooses (ui/widgets/app_fonts.h) on the font sets Debian desktops have.
// Which fonts Qt sees is fixed when the process starts, so each case runs this executable again
// as a child under a fontconfig configuration of its own (FONTCONFIG_FILE naming a folder of
// chosen font files); the child, in probe mode, reports what it chose and saves a screenshot of
// a code snippet with Chinese text in it.

#include "ui/widgets/app_fonts.h"

#include <QApplication>
#include <QDirIterator>
#include <QFile>
#include <QFontDatabase>
#include <QFontInfo>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace mqdesk;

namespace {

constexpr char kProbeVariable[] = "MQDESK_FONT_PROBE";

// What a probe child prints, one "key: value" line each.
int runProbe(const QString &caseName)
{
    const QStringList problems = ui::installAppFonts();
    const QFont fixed = ui::fixedPitchFont();
    const QFont system = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    QTextStream out(stdout);
    out << "fixed-family: " << QFontInfo(fixed).family() << '\n'
        << "fixed-pitch: " << (QFontInfo(fixed).fixedPitch() ? "yes" : "no") << '\n'
        << "system-fixed-family: " << QFontInfo(system).family() << '\n'
        << "system-fixed-pitch: " << (QFontInfo(system).fixedPitch() ? "yes" : "no") << '\n'
        << "app-families: " << QApplication::font().families().join(QLatin1Char(',')) << '\n';
    for (const QString &problem : problems)
        out << "problem: " << problem << '\n';
    out.flush();

    QPlainTextEdit text;
    text.setFont(fixed);
    text.setPlainText(QStringLiteral("producer.send(new Message(\"TopicTest\", \"TagA\", body));\n"
                                     "|  queueId | offset |  // 消息队列 偏移量\n"
                                     "|        0 |   1024 |"));
    text.resize(560, 90);
    const QString dir = QStringLiteral(QT_TESTCASE_BUILDDIR) + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return text.grab().save(dir + QStringLiteral("/fonts-") + caseName + QStringLiteral(".png")) ? 0 : 3;
}

// The first file named `fileName` under the system's font folders.
QString systemFontFile(const QString &fileName)
{
    QDirIterator it(QStringLiteral("/usr/share/fonts"), {fileName}, QDir::Files, QDirIterator::Subdirectories);
    return it.hasNext() ? it.next() : QString();
}

class AppFontsTest : public QObject
{
    Q_OBJECT

private:
    struct Probe
    {
        QMap<QString, QString> values;
        QStringList problems;
    };

    // Runs this executable in probe mode with only `fontFiles` installed and `monospace` (when
    // not empty) preferred for fontconfig's monospace alias, as a desktop's configuration does.
    Probe probe(const QString &caseName, const QStringList &fontFiles, const QString &monospace)
    {
        Probe result;
        QTemporaryDir dir;
        if (!dir.isValid())
            return result;
        const QString fonts = dir.filePath(QStringLiteral("fonts"));
        QDir().mkpath(fonts);
        for (const QString &file : fontFiles)
            QFile::link(file, fonts + QLatin1Char('/') + QFileInfo(file).fileName());
        QString config = QStringLiteral("<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig>\n"
                                        "<dir>%1</dir>\n<cachedir>%2</cachedir>\n")
                             .arg(fonts, dir.filePath(QStringLiteral("cache")));
        if (!monospace.isEmpty())
            config += QStringLiteral("<alias><family>monospace</family><prefer><family>%1</family></prefer></alias>\n").arg(monospace);
        config += QStringLiteral("</fontconfig>\n");
        QFile configFile(dir.filePath(QStringLiteral("fonts.conf")));
        if (!configFile.open(QIODevice::WriteOnly) || configFile.write(config.toUtf8()) < 0)
            return result;
        configFile.close();

        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QString::fromLatin1(kProbeVariable), caseName);
        environment.insert(QStringLiteral("FONTCONFIG_FILE"), configFile.fileName());
        child.setProcessEnvironment(environment);
        child.start(QCoreApplication::applicationFilePath(), {});
        if (!child.waitForFinished(60'000) || child.exitCode() != 0) {
            qWarning() << "probe" << caseName << "failed:" << child.readAllStandardError();
            return result;
        }
        for (const QString &line : QString::fromUtf8(child.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const qsizetype colon = line.indexOf(QStringLiteral(": "));
            if (line.startsWith(QStringLiteral("problem: ")))
                result.problems.append(line.mid(colon + 2));
            else if (colon > 0)
                result.values.insert(line.left(colon), line.mid(colon + 2));
        }
        return result;
    }

    QString dejaVuMono_ = systemFontFile(QStringLiteral("DejaVuSansMono.ttf"));
    QString notoSansMono_ = systemFontFile(QStringLiteral("NotoSansMono-Regular.ttf"));
    QString wenQuanYi_ = systemFontFile(QStringLiteral("wqy-microhei.ttc"));

private slots:
    void initTestCase()
    {
        // scripts/install-deps.sh installs all three (fonts-dejavu-core, fonts-noto-mono,
        // fonts-wqy-microhei): without them the hard cases below cannot be set up.
        QVERIFY2(!dejaVuMono_.isEmpty(), "DejaVuSansMono.ttf not under /usr/share/fonts: install fonts-dejavu-core");
        QVERIFY2(!notoSansMono_.isEmpty(), "NotoSansMono-Regular.ttf not under /usr/share/fonts: install fonts-noto-mono");
        QVERIFY2(!wenQuanYi_.isEmpty(), "wqy-microhei.ttc not under /usr/share/fonts: install fonts-wqy-microhei");
    }

    void theMachinesOwnFontsGiveAFixedPitchFont()
    {
        QVERIFY(QFontInfo(ui::fixedPitchFont()).fixedPitch());
        QCOMPARE(ui::fixedPitchProblem(), QString());
    }

    // The desktop of the bug report: fontconfig's monospace is Noto Sans Mono, which it does not
    // call fixed-pitch, so Qt's system fixed font is not fixed-pitch there; the app's is.
    void aDesktopWhoseMonospaceIsNotoSansMono()
    {
        const Probe result = probe(QStringLiteral("noto-sans-mono-desktop"), {notoSansMono_, dejaVuMono_, wenQuanYi_},
                                   QStringLiteral("Noto Sans Mono"));
        QCOMPARE(result.values.value(QStringLiteral("system-fixed-family")), QStringLiteral("Noto Sans Mono"));
        QCOMPARE(result.values.value(QStringLiteral("system-fixed-pitch")), QStringLiteral("no"));
        QCOMPARE(result.values.value(QStringLiteral("fixed-family")), QStringLiteral("DejaVu Sans Mono"));
        QCOMPARE(result.values.value(QStringLiteral("fixed-pitch")), QStringLiteral("yes"));
        QVERIFY(result.values.value(QStringLiteral("app-families")).split(QLatin1Char(',')).contains(QStringLiteral("WenQuanYi Micro Hei")));
        QCOMPARE(result.problems, QStringList());
    }

    void aMachineWithoutNotoChoosesTheSame()
    {
        const Probe result = probe(QStringLiteral("dejavu-only"), {dejaVuMono_, wenQuanYi_}, {});
        QCOMPARE(result.values.value(QStringLiteral("fixed-family")), QStringLiteral("DejaVu Sans Mono"));
        QCOMPARE(result.values.value(QStringLiteral("fixed-pitch")), QStringLiteral("yes"));
        QCOMPARE(result.problems, QStringList());
    }

    // Nothing from either list installed: the app keeps Qt's defaults and says which packages
    // would give it its fonts (the app prints these as warnings at start).
    void noCandidateInstalledIsNamed()
    {
        const Probe result = probe(QStringLiteral("no-candidate"), {notoSansMono_}, QStringLiteral("Noto Sans Mono"));
        QCOMPARE(result.problems.size(), 2);
        QVERIFY2(result.problems[0].contains(QStringLiteral("DejaVu Sans Mono")) && result.problems[0].contains(QStringLiteral("fonts-dejavu-core")),
                 qPrintable(result.problems[0]));
        QVERIFY2(result.problems[1].contains(QStringLiteral("WenQuanYi Micro Hei")) && result.problems[1].contains(QStringLiteral("fonts-wqy-microhei")),
                 qPrintable(result.problems[1]));
    }
};

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const QString probeCase = qEnvironmentVariable(kProbeVariable);
    if (!probeCase.isEmpty())
        return runProbe(probeCase);
    AppFontsTest test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_app_fonts.moc"
