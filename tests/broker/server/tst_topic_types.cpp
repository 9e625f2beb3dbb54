// RocketMQ 5.x topic types: the `attributes` field of UPDATE_AND_CREATE_TOPIC parsed and altered
// as Java's AttributeParser/AttributeUtil do ("+message.type=FIFO", "-key"), refused with Java's
// code and remark, kept in topics.json across a restart and carried by GET_ALL_TOPIC_CONFIG and
// GET_TOPIC_CONFIG.

#include "admin_test_util.h"

#include "broker/remoting/protocol/topic_attributes.h"
#include "broker/server/broker_controller.h"
#include "test_support.h"

#include <QFile>

using namespace mqdesk;
using namespace mqdesk::test;
using common::JsonValue;
using remoting::ResponseCode;

namespace {

RemotingCommand createTyped(const std::string &topic, const std::string &attributes)
{
    return createTopic(topic, 4, {{"attributes", attributes}});
}

std::string allTopicsBody(TestBroker &broker)
{
    return test::bodyOf(broker.call(request(RequestCode::kGetAllTopicConfig)));
}

JsonValue topicAttributes(TestBroker &broker, const std::string &topic)
{
    return at(parsed(allTopicsBody(broker)), {"topicConfigTable", topic, "attributes"});
}

std::string messageTypeOf(TestBroker &broker, const std::string &topic)
{
    // `at` answers a reference into its argument: keep the attributes alive while reading it.
    const JsonValue attributes = topicAttributes(broker, topic);
    const JsonValue &type = at(attributes, {"message.type"});
    return type.isString() ? type.asString() : std::string("<none>");
}

} // namespace

class TopicTypesTest : public QObject
{
    Q_OBJECT

private slots:
    void modificationTextIsParsedAsJavaParsesIt()
    {
        remoting::AttributeModifications parsedList;
        std::string error;
        QVERIFY(remoting::parseAttributeModifications("+message.type=FIFO,-reserve.time", parsedList, error));
        QCOMPARE(parsedList.size(), size_t{2});
        QCOMPARE(parsedList[0].first, std::string("+message.type"));
        QCOMPARE(parsedList[0].second, std::string("FIFO"));
        QCOMPARE(parsedList[1].first, std::string("-reserve.time"));
        QCOMPARE(remoting::formatAttributeModifications(parsedList), std::string("+message.type=FIFO,-reserve.time"));
        QVERIFY(remoting::parseAttributeModifications("", parsedList, error) && parsedList.empty());

        QVERIFY(!remoting::parseAttributeModifications("message.type=FIFO", parsedList, error));
        QCOMPARE(error, std::string("add/alter attribute format is wrong: message.type"));
        QVERIFY(!remoting::parseAttributeModifications("reserve.time", parsedList, error));
        QCOMPARE(error, std::string("delete attribute format is wrong: reserve.time"));
        QVERIFY(!remoting::parseAttributeModifications("+a=1,+a=2", parsedList, error));
        QCOMPARE(error, std::string("key duplication: +a"));
        QVERIFY(!remoting::parseAttributeModifications("+message.type=", parsedList, error));
        QVERIFY(error.find("+message.type=") != std::string::npos);

        // A client's header may hold any number of entries: parsing stays linear.
        std::string many;
        for (int i = 0; i < 100000; ++i)
            many += (i ? ",+k" : "+k") + std::to_string(i) + "=v";
        QVERIFY(remoting::parseAttributeModifications(many, parsedList, error));
        QCOMPARE(parsedList.size(), size_t{100000});

        QCOMPARE(remoting::topicMessageType({}), std::string("UNSPECIFIED"));
        QCOMPARE(remoting::topicMessageType({{"message.type", "DELAY"}}), std::string("DELAY"));
        QCOMPARE(remoting::messageTypeModification("FIFO"), std::string("+message.type=FIFO"));
    }

    void typedTopicIsStoredListedAndKeptAcrossRestart()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTyped("OrdersFifo", "+message.type=FIFO")).code, ResponseCode::kSuccess);
        QCOMPARE(broker.call(createTopic("PlainTopic", 4)).code, ResponseCode::kSuccess);

        QCOMPARE(messageTypeOf(broker, "OrdersFifo"), std::string("FIFO"));
        // Untyped topics carry no attributes (UNSPECIFIED), as Java's.
        QVERIFY(topicAttributes(broker, "PlainTopic").isNull());

        // The body reads back through the client's codec with the attribute.
        remoting::TopicConfigSerializeWrapper wrapper;
        QVERIFY2(remoting::TopicConfigSerializeWrapper::fromJson(allTopicsBody(broker), wrapper, error), error.c_str());
        const auto fifo = std::find_if(wrapper.topicConfigTable.begin(), wrapper.topicConfigTable.end(),
                                       [](const auto &topic) { return topic.topicName == "OrdersFifo"; });
        QVERIFY(fifo != wrapper.topicConfigTable.end());
        QCOMPARE(remoting::topicMessageType(fifo->attributes), std::string("FIFO"));

        // GET_TOPIC_CONFIG answers the topic as topics.json holds it.
        RemotingCommand one = broker.call(request(RequestCode::kGetTopicConfig, {{"topic", "OrdersFifo"}}));
        QCOMPARE(one.code, ResponseCode::kSuccess);
        QCOMPARE(at(parsed(test::bodyOf(one)), {"attributes", "message.type"}).asString(), std::string("FIFO"));

        QFile file(QString::fromStdString(broker.storeDir() + "/config/topics.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("\"message.type\":\"FIFO\""));

        QVERIFY2(broker.restart(error), error.c_str());
        QCOMPARE(messageTypeOf(broker, "OrdersFifo"), std::string("FIFO"));
    }

    void updatesAddChangeKeepAndRemoveAsAttributeUtil()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTyped("Typed", "+message.type=NORMAL,+queue.type=SimpleCQ")).code,
                 ResponseCode::kSuccess);
        QCOMPARE(broker.call(createTyped("Typed", "+message.type=DELAY")).code, ResponseCode::kSuccess);
        QCOMPARE(messageTypeOf(broker, "Typed"), std::string("DELAY"));
        // An overwrite without attributes (a 4.x tool) keeps them all.
        QCOMPARE(broker.call(createTopic("Typed", 8)).code, ResponseCode::kSuccess);
        QCOMPARE(messageTypeOf(broker, "Typed"), std::string("DELAY"));
        QCOMPARE(at(topicAttributes(broker, "Typed"), {"queue.type"}).asString(), std::string("SimpleCQ"));

        QCOMPARE(broker.call(createTyped("Typed", "-message.type")).code, ResponseCode::kSuccess);
        QCOMPARE(messageTypeOf(broker, "Typed"), std::string("<none>"));
        QCOMPARE(at(topicAttributes(broker, "Typed"), {"queue.type"}).asString(), std::string("SimpleCQ"));

        RemotingCommand refused = broker.call(createTyped("Typed", "-message.type"));
        QCOMPARE(refused.code, ResponseCode::kSystemError);
        QCOMPARE(*refused.remark, std::string("attempt to delete a nonexistent key: message.type"));
        refused = broker.call(createTyped("Typed", "+queue.type=BatchCQ"));
        QCOMPARE(refused.code, ResponseCode::kSystemError);
        QCOMPARE(*refused.remark, std::string("attempt to update an unchangeable attribute. key: queue.type"));
        QCOMPARE(at(topicAttributes(broker, "Typed"), {"queue.type"}).asString(), std::string("SimpleCQ"));
    }

    void badKeysAndValuesAreRefusedWithJavasCodeAndRemark()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const auto refusal = [&](const std::string &topic, const std::string &attributes) {
            // A 1 MB header of 100,000 entries (T7) takes seconds under the sanitizers on a busy machine.
            RemotingCommand response = broker.call(createTyped(topic, attributes), 60000);
            return std::make_pair(response.code, response.remark.value_or(""));
        };
        auto [code, remark] = refusal("T1", "+color=blue");
        QCOMPARE(code, ResponseCode::kSystemError);
        QCOMPARE(remark, std::string("unsupported key: color"));
        std::tie(code, remark) = refusal("T2", "+message.type=ORDERED");
        QCOMPARE(code, ResponseCode::kSystemError);
        QCOMPARE(remark, std::string("value is not in set: [UNSPECIFIED, NORMAL, FIFO, DELAY, TRANSACTION, PRIORITY, LITE, MIXED]"));
        std::tie(code, remark) = refusal("T3", "-message.type");
        QCOMPARE(code, ResponseCode::kSystemError);
        QCOMPARE(remark, std::string("only add attribute is supported while creating topic. key: message.type"));
        std::tie(code, remark) = refusal("T4", "+reserve.time=soon");
        QCOMPARE(code, ResponseCode::kSystemError);
        QCOMPARE(remark, std::string("For input string: \"soon\""));
        std::tie(code, remark) = refusal("T5", "message.type=FIFO");
        QCOMPARE(code, ResponseCode::kSystemError);
        QCOMPARE(remark, std::string("add/alter attribute format is wrong: message.type"));
        std::tie(code, remark) = refusal("T6", "+message.type=MIXED");
        QCOMPARE(code, ResponseCode::kInvalidParameter);
        QCOMPARE(remark, std::string("MIXED message type is not supported."));

        std::string many; // 100,000 entries, all but the last of keys Java does not know
        for (int i = 0; i < 100000; ++i)
            many += "+k" + std::to_string(i) + "=v,";
        std::tie(code, remark) = refusal("T7", many + "+message.type=FIFO");
        QCOMPARE(code, ResponseCode::kSystemError);
        QVERIFY2(remark.starts_with("unsupported key: k"), remark.c_str());

        // Nothing refused was created.
        const JsonValue table = parsed(allTopicsBody(broker));
        for (const char *topic : {"T1", "T2", "T3", "T4", "T5", "T6", "T7"})
            QVERIFY2(at(table, {"topicConfigTable", topic}).isNull(), topic);
    }

    void mixedIsAcceptedWhenTheBrokerAllowsIt()
    {
        TestBroker broker([](server::BrokerSettings &settings) { settings.broker.enableMixedMessageType = true; });
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        QCOMPARE(broker.call(createTyped("Mixed", "+message.type=MIXED")).code, ResponseCode::kSuccess);
        QCOMPARE(messageTypeOf(broker, "Mixed"), std::string("MIXED"));
    }

    // RocketMQ 5.5's group attributes (SubscriptionGroupAttributes: priority.factor, the lite.*
    // settings) sent in UPDATE_AND_CREATE_SUBSCRIPTIONGROUP's body as modifications, altered as
    // Java's SubscriptionGroupManager alters them; a bad key or value is refused and changes nothing.
    void groupAttributesAreAlteredAsJavaAltersThem()
    {
        TestBroker broker;
        std::string error;
        QVERIFY2(broker.start(error), error.c_str());
        const auto update = [&](const std::string &attributes) {
            RemotingCommand command = request(RequestCode::kUpdateAndCreateSubscriptiongroup);
            test::setBodyText(command, R"({"groupName":"AttrGroup","consumeEnable":true,"attributes":)" + attributes + "}");
            const RemotingCommand response = broker.call(command);
            return std::make_pair(response.code, response.remark.value_or(""));
        };
        const auto stored = [&] {
            RemotingCommand get = request(RequestCode::kGetSubscriptiongroupConfig, {{"group", "AttrGroup"}});
            const JsonValue config = parsed(test::bodyOf(broker.call(get)));
            const JsonValue &attributes = at(config, {"attributes"});
            std::map<std::string, std::string> out;
            if (attributes.isObject())
                for (const auto &entry : attributes.asObject())
                    out[entry.key] = entry.value.asString();
            return out;
        };
        using Attributes = std::map<std::string, std::string>;
        QCOMPARE(update(R"({"+priority.factor":"50","+lite.sub.model":"Exclusive"})").first, ResponseCode::kSuccess);
        QCOMPARE(stored(), (Attributes{{"priority.factor", "50"}, {"lite.sub.model", "Exclusive"}}));
        // No modification keeps them (what 4.x tools and the console send).
        QCOMPARE(update("{}").first, ResponseCode::kSuccess);
        QCOMPARE(stored(), (Attributes{{"priority.factor", "50"}, {"lite.sub.model", "Exclusive"}}));
        QCOMPARE(update(R"({"-lite.sub.model":"","+priority.factor":"0"})").first, ResponseCode::kSuccess);
        QCOMPARE(stored(), (Attributes{{"priority.factor", "0"}}));

        QCOMPARE(update(R"({"+priority.factor":"101"})"),
                 std::make_pair(ResponseCode::kSystemError, std::string("value is not in range(0, 100)")));
        QCOMPARE(update(R"({"+lite.sub.model":"Private"})"),
                 std::make_pair(ResponseCode::kSystemError, std::string("value is not in set: [Shared, Exclusive]")));
        QCOMPARE(update(R"({"+lite.sub.reset.offset.exclusive":"yes"})"),
                 std::make_pair(ResponseCode::kSystemError, std::string("boolean attribute format is wrong.")));
        QCOMPARE(update(R"({"+color":"blue"})"),
                 std::make_pair(ResponseCode::kSystemError, std::string("unsupported key: color")));
        QCOMPARE(update(R"({"priority.factor":"5"})"),
                 std::make_pair(ResponseCode::kSystemError, std::string("wrong format key: riority.factor")));
        QCOMPARE(stored(), (Attributes{{"priority.factor", "0"}}));
    }
};

QObject *createTopicTypesTest()
{
    return new TopicTypesTest;
}

#include "tst_topic_types.moc"
