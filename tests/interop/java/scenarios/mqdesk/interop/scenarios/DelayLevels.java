package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Message.setDelayTimeLevel: each message reaches the consumer on its real topic, with its
 * properties, no earlier than its level's delay (messageDelayLevel shortened to 1s 2s 3s here).
 */
public class DelayLevels implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker("messageDelayLevel=1s 2s 3s");
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("delay");
        Clients.createTopic(producer, topic, 2);
        Map<String, Long> arrived = new ConcurrentHashMap<>();
        Map<String, MessageExt> got = new ConcurrentHashMap<>();
        Map<String, Integer> deliveries = new ConcurrentHashMap<>(); // a message delivered twice shows
        Clients.pushConsumer(env, broker, env.unique("dg"), topic, "*", false,
            (MessageListenerConcurrently) (msgs, context) -> {
                for (MessageExt m : msgs) {
                    deliveries.merge(m.getKeys(), 1, Integer::sum);
                    arrived.putIfAbsent(m.getKeys(), System.currentTimeMillis());
                    got.putIfAbsent(m.getKeys(), m);
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        for (int level = 1; level <= 3; ++level) {
            for (int i = 0; i < 3; ++i) {
                Message m = new Message(topic, "d", "level" + level + "-" + i,
                                        ("delayed " + level).getBytes(StandardCharsets.UTF_8));
                m.setDelayTimeLevel(level);
                m.putUserProperty("level", Integer.toString(level));
                sentAt.put(m.getKeys(), System.currentTimeMillis());
                producer.send(m);
            }
        }
        Check.eventually(Duration.ofSeconds(30), () -> arrived.size() == 9, "all 9 delayed messages arrived",
                         arrived::keySet);
        for (var e : deliveries.entrySet())
            Check.equal(1, e.getValue(), "deliveries of " + e.getKey());
        for (var e : arrived.entrySet()) {
            MessageExt m = got.get(e.getKey());
            int level = Integer.parseInt(m.getUserProperty("level"));
            long waited = e.getValue() - sentAt.get(e.getKey());
            Check.that(waited >= level * 1000L - 100, "%s (level %d) arrived after %d ms, before its delay",
                       e.getKey(), level, waited);
            Check.equal(topic, m.getTopic(), "topic of delivered " + e.getKey());
            Check.equal("d", m.getTags(), "tags of delivered " + e.getKey());
        }
    }
}
