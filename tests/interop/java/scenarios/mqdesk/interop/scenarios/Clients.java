package mqdesk.interop.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.MessageListener;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Client set-up shared by the scenarios; compiled against every client version, so it uses only the
 * API that 4.9.8 and 5.x share. Every client is shut down when the scenario ends.
 */
final class Clients {
    private Clients() {}

    static DefaultMQProducer producer(Env env, MqdeskBroker broker, String group) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(broker.namesrvAddr());
        producer.setInstanceName(env.unique("producer"));
        producer.setSendMsgTimeout(10_000);
        producer.start();
        env.shutdownLater(producer::shutdown);
        return producer;
    }

    /**
     * A push consumer of {@code topic} (tag expression {@code tags}) in {@code group}, consuming from
     * the first offset, started; {@code listener} is a MessageListenerConcurrently or …Orderly.
     */
    static DefaultMQPushConsumer pushConsumer(Env env, MqdeskBroker broker, String group, String topic, String tags,
                                              boolean broadcasting, MessageListener listener) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("consumer"));
        Compat.setBroadcasting(consumer, broadcasting);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, tags);
        consumer.setMessageListener(listener);
        // A new group's %RETRY% topic exists once its first heartbeat reached the broker; the 5.x
        // client asks the NameServer for its route before that heartbeat and then only every
        // pollNameServerInterval (30 s), as it does with the Java broker. 2 s keeps retries prompt.
        consumer.setPollNameServerInterval(2000);
        consumer.setConsumeThreadMin(2);
        consumer.setConsumeThreadMax(4);
        consumer.start();
        env.shutdownLater(consumer::shutdown);
        return consumer;
    }

    /** Creates the topic on the broker (UPDATE_AND_CREATE_TOPIC through the producer's MQAdmin API). */
    static void createTopic(DefaultMQProducer producer, String topic, int queues) throws Exception {
        Compat.createTopic(producer, topic, queues);
    }

    /**
     * Reads every message of the topic from the first offset with an assigned lite pull consumer
     * until {@code expected} arrived (more are kept too, so duplicates show) and returns them.
     *
     * The group is a fresh one, which the broker tells offset 0 (as Java's does), so the
     * consumer starts at the first message without a seek. A seek right after assign() is what
     * must not be done: it interrupts the pull task assign() started, and an interrupted thread
     * inside invokeSync makes rocketmq-client (4.9.8 and 5.5.0) close the connection every other
     * request shares ("send request exception, so close the channel"), failing them all.
     */
    static List<MessageExt> readAll(Env env, MqdeskBroker broker, String topic, int expected) throws Exception {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(env.unique("reader"));
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("reader"));
        consumer.setAutoCommit(false);
        // From the first message when the broker knows no offset of the group (no seek: see Clients.readAll).
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            Collection<MessageQueue> queues = fetchQueues(consumer, topic, deadline);
            consumer.assign(queues);
            List<MessageExt> messages = new ArrayList<>();
            while (messages.size() < expected && System.nanoTime() < deadline)
                messages.addAll(consumer.poll(500));
            // One more short poll so that unexpected extra messages are seen too.
            messages.addAll(consumer.poll(300));
            // The same queue position read twice would be the client's doing (its pull tasks), not the
            // broker's: it is counted once. A message stored twice (two positions) still shows.
            Map<String, MessageExt> byPosition = new LinkedHashMap<>();
            for (MessageExt m : messages)
                byPosition.putIfAbsent(m.getBrokerName() + "/" + m.getQueueId() + "/" + m.getQueueOffset(), m);
            if (byPosition.size() != messages.size())
                Log.info("%d queue positions of %s were read twice by the client", messages.size() - byPosition.size(),
                         topic);
            messages = new ArrayList<>(byPosition.values());
            Log.info("read %d messages of %s (expected %d)", messages.size(), topic, expected);
            Check.that(messages.size() >= expected, "only %d of %d messages of %s could be read",
                       messages.size(), expected, topic);
            return messages;
        } finally {
            consumer.shutdown();
        }
    }

    /**
     * The topic's queues, waiting (until {@code deadline}, System.nanoTime) for a topic that the
     * broker is about to create, such as a %DLQ% topic made by the send-back that follows the
     * delivery a scenario just saw.
     */
    private static Collection<MessageQueue> fetchQueues(DefaultLitePullConsumer consumer, String topic, long deadline)
            throws Exception {
        for (;;) {
            try {
                return consumer.fetchMessageQueues(topic);
            } catch (MQClientException e) {
                if (System.nanoTime() > deadline)
                    throw e;
                Thread.sleep(200);
            }
        }
    }
}
