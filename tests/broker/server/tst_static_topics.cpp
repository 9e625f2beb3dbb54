// Static topics over the wire: UPDATE_AND_CREATE_STATIC_TOPIC as mqadmin sends it,
// the mapping in GET_TOPIC_CONFIG, topicQueueMapping.json and the route, and every request a
// client of a logical queue sends (send, pull, offsets) answered in logical terms as Java's
// processors answer them — for a queue created here, and for one remapped here from another
// broker, whose old offsets are asked of that broker (two brokers of one cluster). The expected
// figures are Java's arithmetic (LogicQueueMappingItem) worked by hand, not MQDesk's.

#include "admin_test_util.h"

#include "broker/common/topic_queue_mapping.h"
#include "broker/server/broker_controller.h"
#include "broker/store/config/consumer_offset_manager.h"
#include "broker/store/config/topic_queue_mapping_manager.h"
#include "broker/store/message_store.h"
#include "test_support.h"

#include <QFile>

using namespace mqdesk;
using namespace mqdesk::test;
using common::LogicQueueMappingItem;
using common::TopicQueueMappingDetail;
using remoting::ResponseCode;

namespace {

// A detail as mqadmin builds it: each hosted logical queue → its item chain.
TopicQueueMappingDetail mapping(const std::string &topic, const std::string &broker, int32_t totalQueues,
                                int64_t epoch, std::map<int32_t, common::LogicQueueMappingItems> hosted)
{
    TopicQueueMappingDetail detail;
    detail.topic = topic;
    detail.bname = broker;
    detail.totalQueues = totalQueues;
    detail.epoch = epoch;
    detail.hostedQueues = std::move(hosted);
    return detail;
}

LogicQueueMappingItem item(int32_t gen, int32_t queueId, const std::string &broker, int64_t logicOffset,
                           int64_t startOffset = 0, int64_t endOffset = -1)
{
    return LogicQueueMappingItem{.gen = gen, .queueId = queueId, .bname = broker, .logicOffset = logicOffset,
                                 .startOffset = startOffset, .endOffset = endOffset};
}

RemotingCommand createStatic(const TopicQueueMappingDetail &detail, int32_t queues, bool force = false)
{
    RemotingCommand command = createTopic(detail.topic, queues, {{"force", force ? "true" : "false"}});
    command.code = RequestCode::kUpdateAndCreateStaticTopic;
    setBodyText(command, common::toJsonCompact(detail.toJson()));
    return command;
}

RemotingCommand offsetQuery(int32_t code, const std::string &topic, int32_t queueId, ExtFields extra = {})
{
    RemotingCommand command = request(code, {{"topic", topic}, {"queueId", std::to_string(queueId)}});
    for (const auto &[key, value] : extra)
        command.extFields.set(key, value);
    return command;
}

RemotingCommand queryOffset(const std::string &group, const std::string &topic, int32_t queueId)
{
    return offsetQuery(RequestCode::kQueryConsumerOffset, topic, queueId, {{"consumerGroup", group}});
}

std::string field(const RemotingCommand &command, std::string_view key)
{
    return command.extFields.value(std::string(key));
}

} // namespace

class StaticTopicsTest : public QObject
{
    Q_OBJECT

private slots:
    // The beans as Java's fastjson writes them (bare Integer keys), and Java's offset arithmetic.
    void mappingsReadAsJavaWritesThem()
    {
        const std::string java =
            R"({"bname":"broker-a","currIdMap":{},"dirty":false,"epoch":1700000000000,"hostedQueues":{2:[)"
            R"({"bname":"broker-b","endOffset":10,"gen":0,"logicOffset":0,"queueId":1,"startOffset":0,"timeOfEnd":-1,"timeOfStart":-1},)"
            R"({"bname":"broker-a","endOffset":-1,"gen":1,"logicOffset":10000,"queueId":0,"startOffset":3,"timeOfEnd":-1,"timeOfStart":-1}]},)"
            R"("scope":"__global__","topic":"S","totalQueues":4})";
        TopicQueueMappingDetail detail;
        std::string error;
        QVERIFY2(TopicQueueMappingDetail::fromJson(common::parseJson(java).value, "", detail, error), error.c_str());
        QCOMPARE(detail.items(2)->size(), size_t{2});
        QCOMPARE(detail.leaderIdMap(), (std::map<int32_t, int32_t>{{2, 0}}));
        QCOMPARE(detail.asInfo().currIdMap, (std::map<int32_t, int32_t>{{2, 0}}));
        QCOMPARE(detail.maxOffsetFromMapping(2), int64_t{10000});
        QCOMPARE(common::toJsonCompact(detail.toJson()), std::string(java).replace(java.find("{2:"), 3, "{\"2\":"));
        TopicQueueMappingDetail back;
        QVERIFY(TopicQueueMappingDetail::fromJson(detail.toJson(), "", back, error) && back == detail);

        const common::LogicQueueMappingItems &chain = *detail.items(2);
        QCOMPARE(common::findMappingItem(chain, 4)->bname, std::string("broker-b"));
        QCOMPARE(common::findMappingItem(chain, 10)->bname, std::string("broker-b"));
        QCOMPARE(common::findMappingItem(chain, 10000)->bname, std::string("broker-a"));
        QCOMPARE(common::nextMappingItem(chain, chain[0]), &chain[1]);
        QVERIFY(common::nextMappingItem(chain, chain[1]) == nullptr);
        // The leader: physical 3 is logical 10000 (mqadmin rounds a remapped queue's start up to
        // a block of 10000 past the old end).
        QCOMPARE(chain[1].physicalOffset(10002), int64_t{5});
        QCOMPARE(chain[1].staticOffsetStrictly(5), int64_t{10002});
        QCOMPARE(chain[1].staticOffsetStrictly(1), int64_t{10000});
        QCOMPARE(chain[1].offsetDelta(), int64_t{9997});
        // The old item ends at physical 10: loosely clamped there.
        QCOMPARE(chain[0].staticOffsetLoosely(15), int64_t{10});
        QCOMPARE(chain[0].maxStaticOffset(), int64_t{10});
        QCOMPARE(common::checkMappingItems(chain), std::string());
        common::LogicQueueMappingItems wrongOrder = {chain[1], chain[0]};
        QCOMPARE(common::checkMappingItems(wrongOrder), std::string("The gen does not increase monotonically"));
        common::LogicQueueMappingItems overlapping = chain;
        overlapping[1].logicOffset = 10;
        QCOMPARE(common::checkMappingItems(overlapping), std::string("The max logic offset does not increase monotonically"));
        QCOMPARE(common::mockBrokerNameOfScope("__global__"), std::string("__syslo__global__"));

        QVERIFY(!TopicQueueMappingDetail::fromJson(common::parseJson(R"({"hostedQueues":{"1":[{"gen":"x"}]}})").value,
                                                   "mappingDetail", back, error));
        QCOMPARE(error, std::string("mappingDetail.hostedQueues.1[0].gen: expected an integer"));
    }

    void createdStaticTopicIsServedThroughItsLogicalQueues()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const std::string self = broker.controller().brokerConfig().brokerName;
        // Logical queues 1 and 3 of 4 live here, in physical queues 0 and 1.
        const TopicQueueMappingDetail detail =
            mapping("S", self, 4, 1700000000000, {{1, {item(0, 0, self, 0)}}, {3, {item(0, 1, self, 0)}}});
        QCOMPARE(broker.call(createStatic(detail, 2)).code, ResponseCode::kSuccess);

        // GET_TOPIC_CONFIG shows the mapping only when asked (lo=true), as mqadmin asks.
        const common::JsonValue shown =
            parsed(bodyOf(broker.call(request(RequestCode::kGetTopicConfig, {{"topic", "S"}, {"lo", "true"}}))));
        TopicQueueMappingDetail back;
        QVERIFY2(TopicQueueMappingDetail::fromJson(at(shown, {"mappingDetail"}), "", back, error), error.c_str());
        QVERIFY(back == detail);
        QCOMPARE(at(shown, {"readQueueNums"}).asInteger(), int64_t{2});
        QVERIFY(at(parsed(bodyOf(broker.call(request(RequestCode::kGetTopicConfig, {{"topic", "S"}})))), {"mappingDetail"})
                    .isNull());

        // The route names the logical queues this broker leads.
        QTRY_VERIFY_WITH_TIMEOUT(
            bodyOf(broker.callAt(broker.namesrvAddress(), request(RequestCode::kGetRouteinfoByTopic, {{"topic", "S"}})))
                    .find(R"("topicQueueMappingByBroker":{")" + self + R"(":{"bname":")" + self
                          + R"(","currIdMap":{"1":0,"3":1},"dirty":false,"epoch":1700000000000,"scope":"__global__","topic":"S","totalQueues":4})")
                != std::string::npos,
            kPatienceMs);

        // A send to logical queue 3 is stored in physical queue 1 and answered as queue 3.
        for (int i = 0; i < 3; ++i) {
            RemotingCommand sent = broker.call(sendV2("S", 3, "m" + std::to_string(i)));
            QCOMPARE(sent.code, ResponseCode::kSuccess);
            QCOMPARE(field(sent, "queueId"), std::string("3"));
            QCOMPARE(field(sent, "queueOffset"), std::to_string(i));
        }
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("S", 1), int64_t{3}, kPatienceMs);
        // Logical queues hosted elsewhere are not led here.
        RemotingCommand notLed = broker.call(sendV2("S", 0, "x"));
        QCOMPARE(notLed.code, ResponseCode::kNotLeaderForQueue);
        QCOMPARE(notLed.remark.value_or(""), "S-0 does not exit in request process of current broker " + self);

        // A pull of logical queue 3 reads physical queue 1; a forwarded one (lo=false) is physical.
        RemotingCommand pulled = broker.call(pullRequest("G", "S", 3, 1));
        QCOMPARE(pulled.code, ResponseCode::kSuccess);
        QCOMPARE(decodeRecords(pulled.body).size(), size_t{2});
        QCOMPARE(decodeRecords(pulled.body).front().queueId, 1);
        QCOMPARE(field(pulled, "nextBeginOffset"), std::string("3"));
        QCOMPARE(field(pulled, "maxOffset"), std::string("3"));
        QCOMPARE(field(pulled, "offsetDelta"), std::string("0"));
        RemotingCommand physical = pullRequest("G", "S", 1, 0);
        physical.extFields.set("lo", "false");
        QCOMPARE(decodeRecords(broker.call(physical).body).size(), size_t{3});
        // Past the end: Java's rewrite answers PULL_NOT_FOUND at the end, without a remark.
        RemotingCommand beyond = broker.call(pullRequest("G", "S", 3, 7));
        QCOMPARE(beyond.code, ResponseCode::kPullNotFound);
        QCOMPARE(field(beyond, "nextBeginOffset"), std::string("3"));
        QVERIFY(!beyond.remark);

        // Offsets of the logical queue.
        QCOMPARE(broker.call(commitOffset("G", "S", 3, 2)).code, ResponseCode::kSuccess);
        QCOMPARE(field(broker.call(queryOffset("G", "S", 3)), "offset"), std::string("2"));
        QCOMPARE(broker.controller().offsets().queryOffset("G", "S", 1), int64_t{2});
        QCOMPARE(field(broker.call(offsetQuery(RequestCode::kGetMaxOffset, "S", 3)), "offset"), std::string("3"));
        QCOMPARE(field(broker.call(offsetQuery(RequestCode::kGetMinOffset, "S", 3)), "offset"), std::string("0"));
        QCOMPARE(broker.call(offsetQuery(RequestCode::kGetMaxOffset, "S", 0)).code, ResponseCode::kNotLeaderForQueue);

        // The mapping is in topicQueueMapping.json and outlives a restart.
        QFile file(QString::fromStdString(broker.storeDir() + "/config/topicQueueMapping.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"topicQueueMappingInfoMap\""));
        QVERIFY2(broker.restart(error), error.c_str());
        QCOMPARE(field(broker.call(sendV2("S", 1, "after restart")), "queueId"), std::string("1"));
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("S", 0), int64_t{1}, kPatienceMs);

        // Refusals: an older epoch, an equal epoch with another leader, another broker's mapping, a
        // bad name; then the topic's deletion takes its mapping.
        RemotingCommand older = broker.call(createStatic(mapping("S", self, 4, 1600000000000, {}), 2));
        QCOMPARE(older.code, ResponseCode::kSystemError);
        QCOMPARE(older.remark.value_or(""), std::string("Can't accept data with small epoch 1600000000000 < 1700000000000"));
        RemotingCommand moved = broker.call(createStatic(
            mapping("S", self, 4, 1700000000000, {{1, {item(0, 1, self, 0)}}, {3, {item(0, 1, self, 0)}}}), 2));
        QCOMPARE(moved.remark.value_or(""), std::string("The new leader is different but epoch equal"));
        QCOMPARE(broker.call(createStatic(mapping("S", "elsewhere", 4, 1800000000000, {}), 2)).code,
                 ResponseCode::kSystemError);
        QCOMPARE(broker.call(createStatic(mapping("a/b", self, 4, 1800000000000, {}), 2)).code,
                 ResponseCode::kInvalidParameter);
        RemotingCommand garbage = createStatic(detail, 2);
        setBodyText(garbage, R"({"hostedQueues":{"1":[{"queueId":-1}]}})");
        QCOMPARE(broker.call(garbage).code, ResponseCode::kSystemError);
        QCOMPARE(broker.call(request(RequestCode::kDeleteTopicInBroker, {{"topic", "S"}})).code, ResponseCode::kSuccess);
        QVERIFY(!broker.controller().queueMappings().find("S"));
    }

    // Logical queue 0 moved here from broker "b", whose physical 0..10 were logical 0..10, at logical
    // offset 10000 (mqadmin's round-up).
    void remappedQueueAnswersInLogicalOffsets()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const std::string self = broker.controller().brokerConfig().brokerName;
        const TopicQueueMappingDetail detail =
            mapping("R", self, 1, 1700000000000, {{0, {item(0, 0, "b", 0, 0, 10), item(1, 0, self, 10000)}}});
        QCOMPARE(broker.call(createStatic(detail, 1)).code, ResponseCode::kSuccess);

        RemotingCommand sent = broker.call(sendV2("R", 0, "first here"));
        QCOMPARE(field(sent, "queueOffset"), std::string("10000"));
        QCOMPARE(field(broker.call(sendV2("R", 0, "second")), "queueOffset"), std::string("10001"));

        // The client adds offsetDelta to each record's physical offset.
        QTRY_COMPARE_WITH_TIMEOUT(broker.controller().store().maxOffsetInQueue("R", 0), int64_t{2}, kPatienceMs);
        RemotingCommand pulled = broker.call(pullRequest("G", "R", 0, 10001));
        QCOMPARE(pulled.code, ResponseCode::kSuccess);
        QCOMPARE(decodeRecords(pulled.body).front().queueOffset, int64_t{1});
        QCOMPARE(field(pulled, "offsetDelta"), std::string("10000"));
        QCOMPARE(field(pulled, "nextBeginOffset"), std::string("10002"));
        QCOMPARE(field(pulled, "minOffset"), std::string("10000"));
        QCOMPARE(field(pulled, "maxOffset"), std::string("10002"));

        // Offsets 0..10 are on broker b, which is in no route here: the forward fails, and says so.
        RemotingCommand old = broker.call(pullRequest("G", "R", 0, 3));
        QCOMPARE(old.code, ResponseCode::kSystemError);
        QVERIFY2(old.remark.value_or("").find("broker b has no master in the route of R") != std::string::npos,
                 old.remark.value_or("").c_str());
        QCOMPARE(broker.call(offsetQuery(RequestCode::kGetMinOffset, "R", 0)).code, ResponseCode::kSystemError);
        QCOMPARE(field(broker.call(offsetQuery(RequestCode::kGetMaxOffset, "R", 0)), "offset"), std::string("10002"));

        // A commit of logical 10001 is physical 1 here, read back as 10001.
        QCOMPARE(broker.call(commitOffset("G", "R", 0, 10001)).code, ResponseCode::kSuccess);
        QCOMPARE(broker.controller().offsets().queryOffset("G", "R", 0), int64_t{1});
        QCOMPARE(field(broker.call(queryOffset("G", "R", 0)), "offset"), std::string("10001"));
        QCOMPARE(broker.call(commitOffset("G", "R", 0, 4)).code, ResponseCode::kSystemError);

        // A mapping whose only item has no logical offset yet (mqadmin's first remapping step
        // sends one): sends are taken, reads answered SYSTEM_ERROR saying so, the broker stays up.
        QCOMPARE(broker.call(createStatic(mapping("U", self, 1, 1700000000000, {{0, {item(0, 0, self, -1)}}}), 1)).code,
                 ResponseCode::kSuccess);
        QCOMPARE(field(broker.call(sendV2("U", 0, "undecided")), "queueOffset"), std::string("-1"));
        RemotingCommand undecided = broker.call(pullRequest("G", "U", 0, 0));
        QCOMPARE(undecided.code, ResponseCode::kSystemError);
        QCOMPARE(undecided.remark.value_or(""),
                 std::string("static topic U logical queue 0: no item has a decided logical offset yet"));
        QCOMPARE(broker.call(commitOffset("G", "U", 0, 0)).code, ResponseCode::kSystemError);
        QCOMPARE(broker.call(offsetQuery(RequestCode::kGetMaxOffset, "U", 0)).code, ResponseCode::kSystemError);
        QCOMPARE(broker.call(offsetQuery(RequestCode::kGetMinOffset, "U", 0)).code, ResponseCode::kSystemError);
    }

    // Logical queue 0 remapped from broker-b (physical queue 1 there, logical 0..3) to broker-a
    // (physical 0, from logical 10000): broker-a answers every request of the old offsets by
    // asking broker-b, found through the cluster's route, and moves readers on to its own item.
    void remappedQueueIsReadThroughTheOldBroker()
    {
        TestBroker a;
        std::string error;
        QVERIFY2(a.start(error), error.c_str());
        TestBroker b([&](server::BrokerSettings &settings) {
            settings.broker.brokerName = "broker-b";
            settings.broker.namesrvAddr = a.namesrvAddress();
        });
        QVERIFY2(b.start(error), error.c_str());
        const std::string nameA = a.controller().brokerConfig().brokerName;
        const common::LogicQueueMappingItems chain = {item(0, 1, "broker-b", 0, 0, 3), item(1, 0, nameA, 10000)};
        QCOMPARE(b.call(createStatic(mapping("M", "broker-b", 1, 1700000000000, {{0, chain}}), 2)).code,
                 ResponseCode::kSuccess);
        QCOMPARE(a.call(createStatic(mapping("M", nameA, 1, 1700000000000, {{0, chain}}), 1)).code,
                 ResponseCode::kSuccess);
        // broker-b's three messages, stored before the remap (physically: lo=false).
        for (int i = 0; i < 3; ++i) {
            RemotingCommand old = sendV2("M", 1, "old " + std::to_string(i));
            old.extFields.set("lo", "false");
            QCOMPARE(b.call(old).code, ResponseCode::kSuccess);
        }
        QCOMPARE(field(a.call(sendV2("M", 0, "new")), "queueOffset"), std::string("10000"));
        QTRY_COMPARE_WITH_TIMEOUT(b.controller().store().maxOffsetInQueue("M", 1), int64_t{3}, kPatienceMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            bodyOf(a.callAt(a.namesrvAddress(), request(RequestCode::kGetRouteinfoByTopic, {{"topic", "M"}})))
                    .find("broker-b")
                != std::string::npos,
            kPatienceMs);

        RemotingCommand first = a.call(pullRequest("G", "M", 0, 0));
        QCOMPARE(first.code, ResponseCode::kSuccess);
        QCOMPARE(decodeRecords(first.body).size(), size_t{3});
        QCOMPARE(field(first, "nextBeginOffset"), std::string("3"));
        QCOMPARE(field(first, "offsetDelta"), std::string("0"));
        QCOMPARE(field(first, "maxOffset"), std::string("10000")); // the mapping's own maximum
        // At the old item's end: retry at once from the new item's first logical offset.
        RemotingCommand end = a.call(pullRequest("G", "M", 0, 3));
        QCOMPARE(end.code, ResponseCode::kPullRetryImmediately);
        QCOMPARE(field(end, "nextBeginOffset"), std::string("10000"));
        RemotingCommand fresh = a.call(pullRequest("G", "M", 0, 10000));
        QCOMPARE(fresh.code, ResponseCode::kSuccess);
        QCOMPARE(field(fresh, "offsetDelta"), std::string("10000"));

        QCOMPARE(field(a.call(offsetQuery(RequestCode::kGetMinOffset, "M", 0)), "offset"), std::string("0"));
        QCOMPARE(field(a.call(offsetQuery(RequestCode::kGetMaxOffset, "M", 0)), "offset"), std::string("10001"));
        QCOMPARE(field(a.call(offsetQuery(RequestCode::kSearchOffsetByTimestamp, "M", 0, {{"timestamp", "0"}})), "offset"),
                 std::string("0"));
        QVERIFY(field(a.call(offsetQuery(RequestCode::kGetEarliestMsgStoretime, "M", 0)), "timestamp") != "-1");
        // A commit of logical 2 lands on broker-b's physical queue 1; read back through broker-a.
        QCOMPARE(a.call(commitOffset("G", "M", 0, 2)).code, ResponseCode::kSuccess);
        QCOMPARE(b.controller().offsets().queryOffset("G", "M", 1), int64_t{2});
        QCOMPARE(field(a.call(queryOffset("G", "M", 0)), "offset"), std::string("2"));
        // The newest item's offset wins the double read.
        QCOMPARE(a.call(commitOffset("G", "M", 0, 10001)).code, ResponseCode::kSuccess);
        QCOMPARE(field(a.call(queryOffset("G", "M", 0)), "offset"), std::string("10001"));

        // broker-b refusing the read (the topic made write-only there): SYSTEM_ERROR with its answer,
        // as Java's RPC client turns any answer but a pull's four into an error.
        QCOMPARE(b.call(createTopic("M", 2, {{"perm", "2"}})).code, ResponseCode::kSuccess);
        RemotingCommand refused = a.call(pullRequest("G", "M", 0, 1));
        QCOMPARE(refused.code, ResponseCode::kSystemError);
        QVERIFY2(refused.remark.value_or("").find("broker broker-b answered " + std::to_string(ResponseCode::kNoPermission))
                     != std::string::npos,
                 refused.remark.value_or("").c_str());

        // broker-b gone: the old offsets cannot be read, and the answer says why.
        b.stop();
        RemotingCommand gone = a.call(pullRequest("G", "M", 0, 1));
        QCOMPARE(gone.code, ResponseCode::kSystemError);
        QVERIFY2(gone.remark.value_or("").find("broker broker-b") != std::string::npos, gone.remark.value_or("").c_str());
    }
};

QObject *createStaticTopicsTest() { return new StaticTopicsTest; }

#include "tst_static_topics.moc"
