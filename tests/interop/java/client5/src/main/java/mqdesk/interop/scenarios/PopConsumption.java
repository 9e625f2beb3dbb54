package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageRequestMode;

/**
 * RocketMQ 5 POP consumption from the 5.x remoting client (client5 only): the group is switched to
 * POP with the request `mqadmin setConsumeMode` sends (SET_MESSAGE_REQUEST_MODE); a push consumer
 * with clientRebalance=false then gets a POP assignment (QUERY_ASSIGNMENT, queueId -1), pops every
 * message with POP_MESSAGE (each carrying its POP_CK handle), acks them with ACK_MESSAGE, and a
 * message its listener answers RECONSUME_LATER comes back (CHANGE_MESSAGE_INVISIBLETIME, then
 * the revive service and the group's retry topic) with reconsumeTimes 1; nothing else is
 * delivered twice.
 */
public class PopConsumption implements Scenario {
    /**
     * A started push consumer of `group` that pops (the 5.x client pops only with clientRebalance
     * off, on a group switched to POP), from the first message, looking up routes every 2 s.
     * The caller shuts it down.
     */
    static DefaultMQPushConsumer popConsumer(Env env, String namesrvAddr, String group, String topic,
                                             MessageListenerConcurrently listener) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(env.unique("popconsumer"));
        consumer.setClientRebalance(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(2000);
        consumer.subscribe(topic, "*");
        consumer.setMessageListener(listener);
        consumer.start();
        return consumer;
    }

    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker("timerPrecisionMs=100");
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("pop");
        String group = env.unique("popgroup");
        Clients.createTopic(producer, topic, 4);
        producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl()
            .setMessageRequestMode(broker.brokerAddr(), topic, group, MessageRequestMode.POP, 8, 5000);

        int count = 40;
        Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        Map<String, Integer> lastReconsumeTimes = new ConcurrentHashMap<>();
        Set<String> withoutHandle = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = popConsumer(env, broker.namesrvAddr(), group, topic, (msgs, context) -> {
            for (MessageExt m : msgs) {
                int n = deliveries.computeIfAbsent(m.getKeys(), k -> new AtomicInteger()).incrementAndGet();
                lastReconsumeTimes.put(m.getKeys(), m.getReconsumeTimes());
                if (m.getProperty("POP_CK") == null)
                    withoutHandle.add(m.getKeys());
                if (m.getKeys().equals("later") && n == 1)
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        env.shutdownLater(consumer::shutdown);

        for (int i = 0; i < count; ++i) {
            String key = i == 7 ? "later" : "k" + i;
            Message m = new Message(topic, "tag", key, ("pop " + i).getBytes(StandardCharsets.UTF_8));
            Check.equal(SendStatus.SEND_OK, producer.send(m).getSendStatus(), "send of " + key);
        }
        Check.eventually(Duration.ofSeconds(60), () -> deliveries.size() == count, "every message popped once",
                         deliveries::keySet);
        Check.that(withoutHandle.isEmpty(), "messages delivered without a POP_CK handle (not popped): %s",
                   withoutHandle);
        // RECONSUME_LATER: invisible for popDelayLevel[0] = 10 s, then revived into the retry topic.
        Check.eventually(Duration.ofSeconds(60), () -> deliveries.get("later").get() >= 2,
                         "the message answered RECONSUME_LATER delivered again", () -> deliveries.get("later"));
        Check.equal(1, lastReconsumeTimes.get("later"), "reconsumeTimes of the redelivered message");
        // Acked ones stay acked: give the revive service time to (wrongly) bring any back.
        Thread.sleep(5000);
        for (var e : deliveries.entrySet()) {
            if (!e.getKey().equals("later"))
                Check.equal(1, e.getValue().get(), "deliveries of " + e.getKey());
        }
    }
}
