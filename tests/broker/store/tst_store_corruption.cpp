// The corruption suite (issue 7): copies of every Java-written fixture and of a store written by
// MessageStore, damaged in every way — flipped bits, truncated and extended files, zeroed pages,
// a missing or an extra file, garbage config — in every file family. Every damaged copy is
// opened, browsed through every reader call and verified without a crash (the suite runs under
// ASan + UBSan in CI) and without a byte of it changing; where the fault is certain, verify names
// its kind, file and offset. Then seeded random damage, a bounded number of rounds per store.

#include "store_corruption_util.h"

#include <filesystem>

using namespace mqdesk;
using namespace mqdesk::store;
using namespace mqdesk::test;
namespace fs = std::filesystem;

class StoreCorruptionTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir baseDir_;
    std::map<std::string, std::string> sources_; // name → a pristine store to copy

    std::string copySource(const std::string &name, QTemporaryDir &dir)
    {
        const std::string root = dir.path().toStdString() + "/store";
        fs::copy(sources_.at(name), root, fs::copy_options::recursive);
        return root;
    }

    // Opens, browses and verifies `root`; fails the test if anything under it changed or a
    // fault names no byte of the store.
    VerifyReport browseAndVerify(const std::string &root)
    {
        const auto before = fingerprint(root);
        auto reader = openReader(root);
        if (!reader) {
            QTest::qFail("the reader does not open", __FILE__, __LINE__);
            return {};
        }
        exerciseReader(*reader);
        auto report = verifyStore(*reader);
        exerciseReader(*reader); // a second time, through the reader's caches
        const std::string outside = faultOutsideItsFile(root, report);
        if (!outside.empty())
            QTest::qFail(("a fault outside its file: " + outside).c_str(), __FILE__, __LINE__);
        if (fingerprint(root) != before)
            QTest::qFail("reading changed the store", __FILE__, __LINE__);
        return report;
    }

private slots:
    void initTestCase()
    {
        for (const char *fixture : {"fork-2021", "study-2019", "study-b"})
            sources_[fixture] = test::fixturesDir() + "/" + fixture;
        const std::string generated = baseDir_.path().toStdString() + "/generated";
        {
            auto store = test::openStore(storeConfig(q(generated)));
            QVERIFY(store);
            for (int i = 0; i < kMessages; ++i)
                QCOMPARE(store->putMessage(numbered(i)).status, PutMessageStatus::PutOk);
        }
        fs::copy(test::fixturesDir() + "/study-2019/config", generated + "/config", fs::copy_options::recursive);
        for (const auto &entry : fs::recursive_directory_iterator(generated + "/config"))
            fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
        sources_["generated"] = generated;
        QVERIFY(fs::exists(generated + "/commitlog/00000000000000016384"));
    }

    // Every pristine source is healthy, and reading it changes nothing.
    void pristineSourcesAreHealthy()
    {
        for (const auto &[name, root] : sources_) {
            const auto report = browseAndVerify(root);
            QVERIFY2(report.healthy(), (name + listFaults(report)).c_str());
        }
    }

    void everyDamageInEveryFamily_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("family");
        QTest::addColumn<int>("damage");
        for (const char *source : {"generated", "fork-2021", "study-2019", "study-b"}) {
            auto pristine = openReader(sources_.at(source));
            QVERIFY(pristine);
            for (int family = 0; family <= static_cast<int>(Family::Config); ++family) {
                if (!hasFamily(*pristine, static_cast<Family>(family)))
                    continue; // e.g. the Java stores hold no consume queues or index
                for (int damage = 0; damage <= static_cast<int>(Damage::Garbage); ++damage) {
                    if (damage == static_cast<int>(Damage::Garbage) && family != static_cast<int>(Family::Config))
                        continue; // garbage is the config files' damage; the others get flipped bits
                    QTest::addRow("%s/%s/%s", source, familyName(static_cast<Family>(family)),
                                  damageName(static_cast<Damage>(damage)))
                        << QString::fromLatin1(source) << family << damage;
                }
            }
        }
    }

    void everyDamageInEveryFamily()
    {
        QFETCH(QString, source);
        QFETCH(int, family);
        QFETCH(int, damage);
        QTemporaryDir dir;
        const std::string root = copySource(source.toStdString(), dir);
        for (const auto &entry : fs::recursive_directory_iterator(root)) // fixtures are read-only
            fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
        auto pristine = openReader(root);
        QVERIFY(pristine);
        const Expected expected = applyDamage(root, *pristine, static_cast<Family>(family), static_cast<Damage>(damage));
        pristine.reset();

        const VerifyReport report = browseAndVerify(root);
        if (expected.kind.empty())
            return;
        const bool found = std::any_of(report.faults.begin(), report.faults.end(), [&](const StoreFault &f) {
            return f.kind == expected.kind && f.file == expected.file
                   && (expected.offset < 0 || f.offset == expected.offset);
        });
        QVERIFY2(found, ("expected " + expected.kind + " " + expected.file + " @" + std::to_string(expected.offset)
                         + ", got" + listFaults(report))
                            .c_str());
        QVERIFY(!report.healthy());
    }

    // Random damage of every kind to every kind of file, a few at a time, seeded so a failure
    // repeats: never a crash, a changed byte or a fault outside its file.
    void survivesRandomCorruption()
    {
        std::mt19937_64 random(20241129);
        const auto pick = [&random](int64_t n) {
            return n <= 0 ? int64_t{0} : static_cast<int64_t>(random() % static_cast<uint64_t>(n));
        };
        for (const auto &[name, source] : sources_) {
            const int rounds = name == "generated" ? 40 : 12;
            for (int round = 0; round < rounds; ++round) {
                QTemporaryDir dir;
                const std::string root = copySource(name, dir);
                std::vector<std::string> files;
                for (const auto &entry : fs::recursive_directory_iterator(root)) {
                    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
                    if (entry.is_regular_file())
                        files.push_back(entry.path().string());
                }
                for (int damage = 0; damage < 3; ++damage) {
                    const std::string &path = files[static_cast<size_t>(pick(static_cast<int64_t>(files.size())))];
                    auto bytes = test::readFile(path);
                    const int64_t size = static_cast<int64_t>(bytes.size());
                    switch (pick(6)) {
                    case 0: // flip bits
                        if (size > 0)
                            bytes[static_cast<size_t>(pick(size))] ^= static_cast<uint8_t>(1 + pick(255));
                        break;
                    case 1: { // zero a page-sized range
                        const int64_t from = pick(size);
                        std::fill(bytes.begin() + from, bytes.begin() + std::min(size, from + 4096), 0);
                        break;
                    }
                    case 2: // truncate
                        bytes.resize(static_cast<size_t>(pick(size + 1)));
                        break;
                    case 3: // extend with garbage
                        for (int64_t i = pick(300); i >= 0; --i)
                            bytes.push_back(static_cast<uint8_t>(random()));
                        break;
                    case 4: // a missing file
                        fs::remove(path);
                        continue;
                    default: // garbage over a range
                        for (int64_t i = pick(size), end = std::min(size, i + pick(64)); i < end; ++i)
                            bytes[static_cast<size_t>(i)] = static_cast<uint8_t>(random());
                        break;
                    }
                    if (fs::exists(path))
                        test::writeFile(path, bytes);
                }
                browseAndVerify(root);
                if (QTest::currentTestFailed()) {
                    qWarning("source %s, round %d", name.c_str(), round);
                    return;
                }
            }
        }
    }
};

QObject *createStoreCorruptionTest() { return new StoreCorruptionTest; }

#include "tst_store_corruption.moc"
