package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * MessageListenerOrderly: messages of one order key go to one queue (selector) and are consumed in
 * send order, also while a second consumer joins the group mid-stream and the queues are rebalanced
 * (the broker's queue locks, LOCK_BATCH_MQ / UNLOCK_BATCH_MQ, keep two members off one queue).
 */
public class Orderly implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker();
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("orderly");
        Clients.createTopic(producer, topic, 4);
        String group = env.unique("og");

        Map<Integer, List<Integer>> seen = new ConcurrentHashMap<>();
        MessageListenerOrderly listener = (msgs, context) -> {
            for (MessageExt m : msgs) {
                String[] parts = new String(m.getBody(), StandardCharsets.UTF_8).split(":");
                seen.computeIfAbsent(Integer.parseInt(parts[0]), k -> Collections.synchronizedList(new ArrayList<>()))
                    .add(Integer.parseInt(parts[1]));
            }
            return ConsumeOrderlyStatus.SUCCESS;
        };
        Clients.pushConsumer(env, broker, group, topic, "*", false, listener);
        Thread.sleep(2000);
        final int orders = 8;
        final int steps = 60;
        for (int step = 0; step < steps; ++step) {
            if (step == steps / 2)
                Clients.pushConsumer(env, broker, group, topic, "*", false, listener);
            for (int order = 0; order < orders; ++order) {
                Message m = new Message(topic, "t", (order + ":" + step).getBytes(StandardCharsets.UTF_8));
                producer.send(m, (queues, msg, arg) -> queues.get((Integer) arg % queues.size()), order);
            }
        }
        Check.eventually(Duration.ofSeconds(60), () -> seen.size() == orders
                             && seen.values().stream().allMatch(l -> distinct(l) == steps),
                         "every step of every order consumed", () -> seen);
        for (var e : seen.entrySet()) {
            List<Integer> steps0 = new ArrayList<>(e.getValue());
            // A rebalance may hand a queue over with its last unacknowledged batch consumed again:
            // order is per delivery, so the first delivery of each step must come in send order.
            List<Integer> firstSeen = new ArrayList<>();
            for (Integer s : steps0)
                if (!firstSeen.contains(s))
                    firstSeen.add(s);
            List<Integer> sorted = new ArrayList<>(firstSeen);
            Collections.sort(sorted);
            Check.equal(sorted, firstSeen, "consume order of order key " + e.getKey());
        }
    }

    private static long distinct(List<Integer> list) {
        synchronized (list) {
            return list.stream().distinct().count();
        }
    }
}
