package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Message trace (enableMsgTrace): a producer and a push consumer with tracing on write their trace
 * records to RMQ_SYS_TRACE_TOPIC, which the broker created at start (traceTopicEnable=true). Every
 * message sent has its Pub record (producer group, topic, msgId, keys, store host, success) and
 * its consumer's SubBefore and SubAfter records (consumer group, success), read back from the
 * trace topic as RocketMQ's Dashboard reads them.
 */
public class MsgTrace implements Scenario {
    private static final String TRACE_TOPIC = "RMQ_SYS_TRACE_TOPIC";
    private static final char CONTENT_SPLITTER = 1;
    private static final char FIELD_SPLITTER = 2;
    private static final int MESSAGES = 8;

    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker("traceTopicEnable=true");
        String topic = env.unique("traced");
        String producerGroup = env.unique("tracepg");
        String consumerGroup = env.unique("tracecg");

        DefaultMQProducer producer = new DefaultMQProducer(producerGroup, true, null);
        producer.setNamesrvAddr(broker.namesrvAddr());
        producer.setInstanceName(env.unique("tracep"));
        producer.setSendMsgTimeout(10_000);
        producer.start();
        env.shutdownLater(producer::shutdown);
        Clients.createTopic(producer, topic, 2);

        Set<String> consumed = java.util.concurrent.ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(consumerGroup, true, null);
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("tracec"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(2000);
        consumer.subscribe(topic, "*");
        consumer.setMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs)
                consumed.add(m.getMsgId());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        env.shutdownLater(consumer::shutdown);

        Set<String> sent = new HashSet<>();
        for (int i = 0; i < MESSAGES; ++i) {
            SendResult result = producer.send(new Message(topic, "t" + (i % 2), "key-" + i,
                                                          ("traced " + i).getBytes(StandardCharsets.UTF_8)));
            sent.add(result.getMsgId());
        }
        Check.eventually(Duration.ofSeconds(40), () -> consumed.containsAll(sent), "every traced message consumed",
                         () -> consumed);

        Set<String> pub = new HashSet<>();
        Set<String> subBefore = new HashSet<>();
        Set<String> subAfter = new HashSet<>();
        DefaultLitePullConsumer reader = new DefaultLitePullConsumer(env.unique("tracereader"));
        reader.setNamesrvAddr(broker.namesrvAddr());
        reader.setInstanceName(env.unique("tracereader"));
        reader.setAutoCommit(false);
        // From the first message when the broker knows no offset of the group (no seek: see Clients.readAll).
        reader.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        reader.start();
        try {
            Collection<MessageQueue> queues = reader.fetchMessageQueues(TRACE_TOPIC);
            reader.assign(queues);
            long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
            while (!(pub.containsAll(sent) && subBefore.containsAll(sent) && subAfter.containsAll(sent))
                   && System.nanoTime() < deadline) {
                for (MessageExt trace : reader.poll(500)) {
                    Check.equal(TRACE_TOPIC, trace.getTopic(), "topic of a trace record");
                    collect(new String(trace.getBody(), StandardCharsets.UTF_8), topic, producerGroup, consumerGroup,
                            broker, pub, subBefore, subAfter);
                }
            }
        } finally {
            reader.shutdown();
        }
        Log.info("trace records: %d Pub, %d SubBefore, %d SubAfter", pub.size(), subBefore.size(), subAfter.size());
        for (String msgId : sent) {
            Check.that(pub.contains(msgId), "no Pub trace record for %s", msgId);
            Check.that(subBefore.contains(msgId), "no SubBefore trace record for %s", msgId);
            Check.that(subAfter.contains(msgId), "no SubAfter trace record for %s", msgId);
        }
    }

    /** Parses one trace message body (records split by 0x02, fields by 0x01) as TraceDataEncoder writes it. */
    private static void collect(String body, String topic, String producerGroup, String consumerGroup,
                                MqdeskBroker broker, Set<String> pub, Set<String> subBefore, Set<String> subAfter) {
        for (String record : body.split(String.valueOf(FIELD_SPLITTER))) {
            if (record.isEmpty())
                continue;
            List<String> f = new ArrayList<>(List.of(record.split(String.valueOf(CONTENT_SPLITTER), -1)));
            switch (f.get(0)) {
                case "Pub" -> {
                    // Pub, timestamp, region, group, topic, msgId, tags, keys, storeHost, bodyLength,
                    // costTime, msgType, offsetMsgId, success
                    Check.that(f.size() >= 14, "short Pub record %s", f);
                    Check.equal(producerGroup, f.get(3), "Pub group");
                    Check.equal(topic, f.get(4), "Pub topic");
                    Check.equal(broker.brokerAddr(), f.get(8), "Pub store host of " + f.get(5));
                    Check.equal("true", f.get(13), "Pub success of " + f.get(5));
                    pub.add(f.get(5));
                }
                case "SubBefore" -> {
                    // SubBefore, timestamp, region, group, requestId, msgId, retryTimes, keys
                    Check.that(f.size() >= 8, "short SubBefore record %s", f);
                    Check.equal(consumerGroup, f.get(3), "SubBefore group");
                    subBefore.add(f.get(5));
                }
                case "SubAfter" -> {
                    // SubAfter, requestId, msgId, costTime, success, keys, contextCode, ...
                    Check.that(f.size() >= 7, "short SubAfter record %s", f);
                    Check.equal("true", f.get(4), "SubAfter success of " + f.get(2));
                    subAfter.add(f.get(2));
                }
                default -> Check.that(false, "unknown trace record type %s", f.get(0));
            }
        }
    }
}
