#pragma once

// Helpers of tst_explorer_views.cpp: cells of a view's model, a real double-click, the
// checkpoint's and config folder's contents read straight from the files, the checks of the
// Java-written config files against their own JSON, and the stores the test writes.

#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/topic_config_manager.h"
#include "broker/store/store_reader_test_util.h"
#include "ui/explorer/config_files_view.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QtTest/QtTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace mqdesk::test {

namespace fs = std::filesystem;

inline constexpr int kWait = 60000; // bounded waits: they end as soon as the condition holds

inline std::shared_ptr<const store::StoreReader> openShared(const std::string &root)
{
    return std::shared_ptr<const store::StoreReader>(test::openReader(root));
}

inline QString timeText(int64_t millis)
{
    return QDateTime::fromMSecsSinceEpoch(millis).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

inline QString cell(const QAbstractItemModel *model, int row, int column)
{
    return model->index(row, column).data().toString();
}

// The row whose `column` shows `text`, -1 when none does.
inline int findRow(const QAbstractItemModel *model, int column, const QString &text)
{
    for (int row = 0; row < model->rowCount(); ++row)
        if (cell(model, row, column) == text)
            return row;
    return -1;
}

inline void doubleClick(QTableView *table, int row, int column = 0)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    const QModelIndex index = table->model()->index(row, column);
    table->scrollTo(index);
    const QRect rect = table->visualRect(index);
    QVERIFY2(table->viewport()->rect().contains(rect.center()), "the cell is not on screen");
    // As a real double-click arrives: press and release, then the second press as a double-click
    // (QTest::mouseDClick alone sends no first press, which item views need).
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, rect.center());
}

// The checkpoint's five longs, read from the file itself (store-format §7: big-endian at 0..32).
inline std::vector<int64_t> checkpointLongs(const std::string &root)
{
    const auto bytes = test::readFile(root + "/checkpoint");
    std::vector<int64_t> out;
    for (int i = 0; i < 5; ++i)
        out.push_back(common::readInt64(bytes.data() + i * 8));
    return out;
}

inline std::string configNamesOnDisk(const std::string &root)
{
    std::vector<std::string> names;
    if (fs::is_directory(root + "/config"))
        for (const auto &entry : fs::directory_iterator(root + "/config"))
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto &name : names)
        out += name + ";";
    return out;
}

inline std::string configNamesShown(const ui::ConfigFilesView &view)
{
    std::vector<std::string> names;
    for (int row = 0; row < view.fileModel()->rowCount(); ++row)
        names.push_back(cell(view.fileModel(), row, ui::ConfigFilesView::NameColumn).toStdString());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto &name : names)
        out += name + ";";
    return out;
}


inline void checkJavaTopics(ui::ConfigFilesView &config, const std::string &root)
{
    QVERIFY(config.selectFile(QStringLiteral("topics.json")));
    QCOMPARE(config.tabs()->currentIndex(), int(ui::ConfigFilesView::TableTab));
    const auto bytes = test::readFile(root + "/config/topics.json");
    const auto document = QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char *>(bytes.data()),
                                                             static_cast<qsizetype>(bytes.size())));
    const QJsonObject table = document.object().value(QStringLiteral("topicConfigTable")).toObject();
    QVERIFY(!table.isEmpty());
    const QStandardItemModel *model = config.contentModel();
    QVERIFY(model);
    QCOMPARE(model->rowCount(), table.size());
    for (auto it = table.begin(); it != table.end(); ++it) {
        const int row = findRow(model, 0, it.key());
        QVERIFY2(row >= 0, qPrintable(it.key()));
        const QJsonObject topic = it.value().toObject();
        QCOMPARE(cell(model, row, 1), QString::number(topic.value(QStringLiteral("readQueueNums")).toInt()));
        QCOMPARE(cell(model, row, 2), QString::number(topic.value(QStringLiteral("writeQueueNums")).toInt()));
        QVERIFY(cell(model, row, 3).startsWith(QString::number(topic.value(QStringLiteral("perm")).toInt())));
    }
    QVERIFY(config.noteText().contains(
        QString::number(document.object().value(QStringLiteral("dataVersion")).toObject().value(QStringLiteral("counter")).toInt())));
    const auto file = config.rawText()->toPlainText().toUtf8();
    QCOMPARE(file, QByteArray(reinterpret_cast<const char *>(bytes.data()), static_cast<qsizetype>(bytes.size())));
}

inline void checkJavaGroups(ui::ConfigFilesView &config, const std::string &root)
{
    QVERIFY(config.selectFile(QStringLiteral("subscriptionGroup.json")));
    const auto bytes = test::readFile(root + "/config/subscriptionGroup.json");
    const auto document = QJsonDocument::fromJson(QByteArray(reinterpret_cast<const char *>(bytes.data()),
                                                             static_cast<qsizetype>(bytes.size())));
    const QJsonObject table = document.object().value(QStringLiteral("subscriptionGroupTable")).toObject();
    const QStandardItemModel *model = config.contentModel();
    QVERIFY(model && !table.isEmpty());
    QCOMPARE(model->rowCount(), table.size());
    for (auto it = table.begin(); it != table.end(); ++it) {
        const int row = findRow(model, 0, it.key());
        QVERIFY2(row >= 0, qPrintable(it.key()));
        const QJsonObject group = it.value().toObject();
        QCOMPARE(cell(model, row, 5), QString::number(group.value(QStringLiteral("retryQueueNums")).toInt()));
        QCOMPARE(cell(model, row, 6), QString::number(group.value(QStringLiteral("retryMaxTimes")).toInt()));
    }
}

// consumerOffset.json is fastjson's dialect ({0:250}): read here with a pattern, not a JSON parser.
inline void checkJavaOffsets(ui::ConfigFilesView &config, const std::string &root)
{
    QVERIFY(config.selectFile(QStringLiteral("consumerOffset.json")));
    const auto bytes = test::readFile(root + "/config/consumerOffset.json");
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(bytes.data()), static_cast<qsizetype>(bytes.size()));
    static const QRegularExpression entry(QStringLiteral("\"([^\"@]+)@([^\"]+)\":\\{([^}]*)\\}"));
    static const QRegularExpression queue(QStringLiteral("(\\d+):(\\d+)"));
    const QStandardItemModel *model = config.contentModel();
    QVERIFY(model);
    int expectedRows = 0;
    for (auto it = entry.globalMatch(text); it.hasNext();) {
        const auto match = it.next();
        for (auto q = queue.globalMatch(match.captured(3)); q.hasNext();) {
            const auto queueMatch = q.next();
            ++expectedRows;
            bool found = false;
            for (int row = 0; row < model->rowCount() && !found; ++row)
                found = cell(model, row, 0) == match.captured(2) && cell(model, row, 1) == match.captured(1)
                        && cell(model, row, 2) == queueMatch.captured(1)
                        && cell(model, row, 3) == queueMatch.captured(2)
                        && cell(model, row, 4) == QStringLiteral("no consume queue"); // not in the fixtures
            QVERIFY2(found, qPrintable(match.captured(0)));
        }
    }
    QVERIFY(expectedRows > 0);
    QCOMPARE(model->rowCount(), expectedRows);
}

// Offsets writeStoreConfig commits for group G (queue 5 of T has no consume queue).
inline constexpr int64_t kCommittedT0 = 10;
inline constexpr int64_t kCommittedT1 = 25;
inline constexpr int64_t kCommittedT5 = 3;

// topics.json (T with 2 queues, U), consumerOffset.json (group G) and a broker.properties, written
// through the managers as a broker writes them.
inline void writeStoreConfig(const std::string &root)
{
    const std::string configDir = root + "/config";
    fs::create_directories(configDir);
    store::TopicConfigManager topics;
    topics.setConfigDir(configDir);
    for (const char *name : {"T", "U"}) {
        store::TopicConfig config;
        config.topicName = name;
        config.readQueueNums = config.writeQueueNums = std::string(name) == "T" ? 2 : 1;
        topics.updateTopicConfig(config);
    }
    std::string error;
    QVERIFY2(topics.persist(error), error.c_str());
    store::ConsumerOffsetManager offsets;
    offsets.setConfigDir(configDir);
    offsets.commitOffset("127.0.0.1", "G", "T", 0, kCommittedT0);
    offsets.commitOffset("127.0.0.1", "G", "T", 1, kCommittedT1);
    offsets.commitOffset("127.0.0.1", "G", "T", 5, kCommittedT5);
    QVERIFY2(offsets.persist(error), error.c_str());
    test::writeFile(configDir + "/broker.properties",
                    {'b', 'r', 'o', 'k', 'e', 'r', 'N', 'a', 'm', 'e', '=', 'b', '-', '1', '\n'});
}

// Progress (and so a cancel check) comes every 64 MiB: a store of ~100 MiB of records with
// keys "b<i>", written once.
inline std::string writeLargeStore(const std::string &root)
{
    if (fs::exists(root))
        return root;
    auto store = test::openStore(test::smallStoreConfig(q(root), 16 * 1024 * 1024));
    if (!store)
        return {};
    const std::string body(4000, 'x');
    for (int i = 0; i < 26000; ++i) {
        if (store->putMessage(test::makeMessage("Big", i % 4, body, "b" + std::to_string(i))).status
            != store::PutMessageStatus::PutOk)
            return {};
    }
    return root;
}

} // namespace mqdesk::test
