#pragma once

// Helpers shared by the engine test suites.

#include <QtTest/QtTest>

#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace mqdesk::test {

// A "…: N kB" figure of /proc/<pid>/status (VmRSS, RssAnon, Threads …; `pid` "self" for this
// process), in the file's own unit; -1 when the file or the field is missing.
inline int64_t procStatusValue(const std::string &pid, const std::string &field)
{
    std::ifstream status("/proc/" + pid + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.compare(0, field.size() + 1, field + ":") == 0)
            return std::strtoll(line.c_str() + field.size() + 1, nullptr, 10);
    return -1;
}

// This process's resident anonymous memory (heap and anonymous mappings) in bytes.
inline int64_t residentAnonymousBytes()
{
    return procStatusValue("self", "RssAnon") * 1024;
}

// The Java-written stores (shared/fixtures/java-written). Missing ones end the suite at once with
// a message saying how to point at them: left to std::filesystem, the first directory walk would
// throw out of a test function, which QTest turns into an abort.
inline std::string fixturesDir()
{
    const std::string dir = MQDESK_FIXTURES_DIR;
    if (!std::filesystem::is_directory(dir)) {
        std::fprintf(stderr, "the Java-written fixtures are not at %s: configure with "
                             "-DMQDESK_FIXTURES_DIR=<path to shared/fixtures/java-written>\n", dir.c_str());
        std::exit(2);
    }
    return dir;
}

// The whole file in one read (a byte-by-byte iterator made a 38.7 MB timerwheel take minutes
// under the sanitizers); empty when it cannot be read.
inline std::vector<uint8_t> readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return {};
    const std::streamoff size = in.tellg();
    if (size <= 0)
        return {};
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    in.read(reinterpret_cast<char *>(bytes.data()), size);
    bytes.resize(static_cast<size_t>(in.gcount()));
    return bytes;
}

inline void writeFile(const std::string &path, const std::vector<uint8_t> &bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Copies a Java-written fixture store into `target` with write permission (fixtures are
// read-only and must stay unmodified).
inline void copyFixture(const std::string &name, const std::string &target)
{
    namespace fs = std::filesystem;
    fs::copy(fixturesDir() + "/" + name, target, fs::copy_options::recursive);
    for (const auto &entry : fs::recursive_directory_iterator(target))
        fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
    fs::permissions(target, fs::perms::owner_write, fs::perm_options::add);
}

inline QString q(const std::string &s) { return QString::fromStdString(s); }

// Rebuilds in `target` the store the Java broker 5.5.0 wrote (tests/fixtures/java-5.5.0, whose
// README says how it was made): the fixture keeps only the used bytes of the Java files, which
// are large and sparse, so the commit log and consume queues are extended with zeros to their
// Java sizes and the 420 MB index file is written back from its header, non-zero slots and
// entries. The files come back as the Java broker left them, holes and all.
inline void restoreJava550Store(const std::string &target)
{
    namespace fs = std::filesystem;
    const fs::path source = fs::path(MQDESK_PROJECT_FIXTURES_DIR) / "java-5.5.0";
    QVERIFY2(fs::is_directory(source), source.c_str());
    fs::create_directories(target);
    for (const char *item : {"checkpoint", "config", "commitlog", "consumequeue"})
        fs::copy(source / item, fs::path(target) / item, fs::copy_options::recursive);
    for (const auto &entry : fs::recursive_directory_iterator(target)) {
        fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
        if (!entry.is_regular_file())
            continue;
        const std::string parent = entry.path().parent_path().parent_path().parent_path().filename().string();
        if (entry.path().parent_path().filename() == "commitlog")
            fs::resize_file(entry.path(), 1073741824); // mappedFileSizeCommitLog
        else if (parent == "consumequeue")
            fs::resize_file(entry.path(), 6000000); // 300,000 entries of 20 bytes
    }
    constexpr int64_t kHeaderSize = 40, kSlots = 5000000, kEntrySize = 20, kEntries = 20000000;
    fs::create_directories(fs::path(target) / "index");
    for (const auto &entry : fs::directory_iterator(source / "index")) {
        if (entry.path().extension() != ".header")
            continue;
        const fs::path stem = entry.path().parent_path() / entry.path().stem();
        const std::string file = (fs::path(target) / "index" / entry.path().stem()).string();
        std::vector<uint8_t> bytes = readFile(entry.path().string());
        writeFile(file, bytes);
        fs::resize_file(file, kHeaderSize + kSlots * 4 + kEntries * kEntrySize);
        std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
        std::ifstream slotLines(stem.string() + ".slots.txt");
        int64_t slot = 0;
        uint32_t value = 0;
        while (slotLines >> slot >> value) {
            const char bigEndian[4] = {char(value >> 24), char(value >> 16), char(value >> 8), char(value)};
            out.seekp(kHeaderSize + slot * 4);
            out.write(bigEndian, 4);
        }
        const std::vector<uint8_t> entries = readFile(stem.string() + ".entries");
        out.seekp(kHeaderSize + kSlots * 4);
        out.write(reinterpret_cast<const char *>(entries.data()), static_cast<std::streamsize>(entries.size()));
        QVERIFY2(out.good(), file.c_str());
    }
}

} // namespace mqdesk::test

namespace mqdesk::test {

// Whether `suite` should run given the command line: every suite runs unless test functions are
// named, then only the suites that have one of them.
inline bool suiteSelected(QObject *suite, int argc, char **argv)
{
    bool namedAny = false;
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg.startsWith('-')) {
            if (arg == "-o" || arg == "-maxwarnings" || arg == "-eventdelay" || arg == "-keydelay")
                ++i; // skip the option's value
            continue;
        }
        namedAny = true;
        const qsizetype colon = arg.indexOf(':');
        const QByteArray function = (colon < 0 ? arg : arg.left(colon)) + "()";
        if (suite->metaObject()->indexOfMethod(function.constData()) >= 0)
            return true;
    }
    return !namedAny;
}

} // namespace mqdesk::test

namespace mqdesk::test {

// Runs `suites` (each selected by suiteSelected) and returns their combined status. Unless the
// command line chooses its own output (-o), each suite also writes a plain-text log to a temporary
// file, and the failures of every suite are printed again at the very end: a CI log that keeps
// only its tail still names the function that failed and where.
inline int runSuites(int argc, char **argv, std::initializer_list<QObject *> suites)
{
    bool ownOutput = false;
    for (int i = 1; i < argc; ++i)
        ownOutput |= QByteArray(argv[i]) == "-o";
    QTemporaryDir logDir;
    QStringList recap;
    int status = 0;
    for (QObject *suite : suites) {
        if (suiteSelected(suite, argc, argv)) {
            QStringList arguments;
            for (int i = 0; i < argc; ++i)
                arguments << QString::fromLocal8Bit(argv[i]);
            const QString log = logDir.filePath(QString::fromLatin1(suite->metaObject()->className()));
            if (!ownOutput && logDir.isValid())
                arguments << QStringLiteral("-o") << log + QStringLiteral(",txt") << QStringLiteral("-o")
                          << QStringLiteral("-,txt");
            const int suiteStatus = QTest::qExec(suite, arguments);
            status |= suiteStatus;
            QFile text(log);
            if (suiteStatus != 0 && text.open(QIODevice::ReadOnly)) {
                bool inFailure = false;
                for (const QByteArray &line : text.readAll().split('\n')) {
                    if (line.startsWith("FAIL!") || line.startsWith("QFATAL"))
                        inFailure = true;
                    else if (!line.startsWith(' '))
                        inFailure = false;
                    if (inFailure)
                        recap << QString::fromLocal8Bit(line);
                }
            }
        }
        delete suite;
    }
    if (!recap.isEmpty())
        std::fprintf(stdout, "== failed test functions, again:\n%s\n", qPrintable(recap.join(u'\n')));
    return status;
}

} // namespace mqdesk::test

// Runs several QObject test classes from one executable (one executable per source folder).
#define MQDESK_TEST_MAIN(...)                                                                   \
    int main(int argc, char **argv)                                                             \
    {                                                                                           \
        QCoreApplication app(argc, argv);                                                       \
        return mqdesk::test::runSuites(argc, argv, {__VA_ARGS__});                              \
    }
