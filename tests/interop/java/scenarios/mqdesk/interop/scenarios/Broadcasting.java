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

/** Two BROADCASTING push consumers of one group: each receives every message. */
public class Broadcasting implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker();
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("broadcast");
        Clients.createTopic(producer, topic, 4);
        String group = env.unique("bg");
        // Deliveries counted per body, so a message delivered twice to one consumer shows.
        @SuppressWarnings("unchecked")
        Map<String, Integer>[] received = new Map[] { new ConcurrentHashMap<>(), new ConcurrentHashMap<>() };
        for (int i = 0; i < 2; ++i) {
            final Map<String, Integer> mine = received[i];
            Clients.pushConsumer(env, broker, group, topic, "*", true,
                (MessageListenerConcurrently) (msgs, context) -> {
                    for (MessageExt m : msgs)
                        mine.merge(new String(m.getBody(), StandardCharsets.UTF_8), 1, Integer::sum);
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
        }
        Thread.sleep(2000);
        final int total = 100;
        for (int i = 0; i < total; ++i)
            producer.send(new Message(topic, "t", ("b" + i).getBytes(StandardCharsets.UTF_8)));
        for (int i = 0; i < 2; ++i) {
            final Map<String, Integer> mine = received[i];
            Check.eventually(Duration.ofSeconds(40), () -> mine.size() == total,
                             "broadcast consumer " + i + " received all " + total, mine::size);
            for (var delivery : mine.entrySet())
                Check.equal(1, delivery.getValue(), "deliveries of " + delivery.getKey() + " to consumer " + i);
        }
    }
}
