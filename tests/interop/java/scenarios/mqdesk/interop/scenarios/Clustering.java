package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Three DefaultMQPushConsumers in one CLUSTERING group over an 8-queue topic: the queues are split
 * between them (each consumes some, none all), each message is consumed exactly once while the
 * membership is stable; then one member leaves mid-stream and the other two take over its queues,
 * so every message sent is consumed (at least once: what the leaving member had in flight may come
 * again, as RocketMQ allows, but nothing is lost).
 */
public class Clustering implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker();
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("cluster");
        Clients.createTopic(producer, topic, 8);
        String group = env.unique("cg");

        Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        Map<String, Set<Integer>> queuesByMember = new ConcurrentHashMap<>();
        DefaultMQPushConsumer[] members = new DefaultMQPushConsumer[3];
        for (int i = 0; i < members.length; ++i) {
            final String member = "member-" + i;
            queuesByMember.put(member, ConcurrentHashMap.newKeySet());
            members[i] = Clients.pushConsumer(env, broker, group, topic, "*", false,
                (MessageListenerConcurrently) (msgs, context) -> {
                    for (MessageExt m : msgs) {
                        deliveries.computeIfAbsent(new String(m.getBody(), StandardCharsets.UTF_8),
                                                   k -> new AtomicInteger()).incrementAndGet();
                        queuesByMember.get(member).add(m.getQueueId());
                    }
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
        }
        // Let all three find each other before the first message, so the split is stable.
        Thread.sleep(3000);
        final int firstHalf = 400;
        for (int i = 0; i < firstHalf; ++i)
            producer.send(new Message(topic, "t", ("m" + i).getBytes(StandardCharsets.UTF_8)));
        Check.eventually(Duration.ofSeconds(40), () -> deliveries.size() == firstHalf,
                         "all of the first " + firstHalf + " messages consumed", () -> deliveries.size());
        Thread.sleep(500);
        for (var e : deliveries.entrySet())
            Check.equal(1, e.getValue().get(), "deliveries of " + e.getKey() + " with stable membership");
        int membersUsed = 0;
        for (var e : queuesByMember.entrySet()) {
            Log.info("%s consumed queues %s", e.getKey(), e.getValue());
            Check.that(e.getValue().size() < 8, "%s consumed every queue: the group was not split", e.getKey());
            if (!e.getValue().isEmpty())
                ++membersUsed;
        }
        Check.equal(3, membersUsed, "members that got queues");

        // Member 0 leaves while the producer keeps sending.
        final int total = 800;
        for (int i = firstHalf; i < total; ++i) {
            if (i == firstHalf + 100)
                members[0].shutdown();
            producer.send(new Message(topic, "t", ("m" + i).getBytes(StandardCharsets.UTF_8)));
        }
        Check.eventually(Duration.ofSeconds(60), () -> deliveries.size() == total,
                         "all " + total + " messages consumed after a member left", () -> deliveries.size());
        long redelivered = deliveries.values().stream().filter(c -> c.get() > 1).count();
        Log.info("%d messages consumed; %d delivered more than once around the leave", deliveries.size(),
                 redelivered);
    }
}
