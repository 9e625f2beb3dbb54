package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * DefaultLitePullConsumer in both modes. subscribe(): a group polls part of a topic, commits, shuts
 * down; a new instance of the group resumes after the committed offsets (nothing lost, nothing
 * repeated). assign(): the group, now committed at the end of the topic, replays one queue from
 * offset 5 with seek(queue, 5).
 *
 * Why assign() starts where the group is committed (the end) and not on a fresh group: the client's
 * assign() starts a pull task at once, and seek() cancels it by interrupting its thread. When that
 * first task already holds messages (a fresh group is told offset 0), it can still deliver them
 * after the seek, or move the pull offset past the sought one (rocketmq-client 4.9.8 and 5.5.0,
 * DefaultLitePullConsumerImpl.seek vs PullTaskImpl.run: seen under CPU load as 20 messages for 15,
 * or 10 and then none). Java's broker answers the same way, so that race is the client's. At the
 * end of the queue the first task waits in a long poll, holds nothing, and the seek is exact.
 */
public class LitePull implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker();
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("lite");
        Clients.createTopic(producer, topic, 2);
        for (int i = 0; i < 40; ++i)
            producer.send(new Message(topic, "t", "k" + i, ("lite " + i).getBytes(StandardCharsets.UTF_8)),
                          (queues, msg, arg) -> queues.get((Integer) arg % 2), i);

        String group = env.unique("lg");
        Set<String> seen = new HashSet<>();
        DefaultLitePullConsumer first = subscriber(env, broker, group, topic);
        List<MessageExt> firstBatch = pollAtLeast(first, 15);
        for (MessageExt m : firstBatch)
            Check.that(seen.add(m.getKeys()), "%s polled twice by the first instance", m.getKeys());
        first.commitSync();
        first.shutdown();

        DefaultLitePullConsumer second = subscriber(env, broker, group, topic);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (seen.size() < 40 && System.nanoTime() < deadline) {
            for (MessageExt m : second.poll(500))
                Check.that(seen.add(m.getKeys()), "%s polled again after its offset was committed", m.getKeys());
        }
        Check.equal(40, seen.size(), "messages seen by the two subscribe-mode instances");
        second.commitSync();
        second.shutdown();

        DefaultLitePullConsumer assigned = new DefaultLitePullConsumer(group);
        assigned.setNamesrvAddr(broker.namesrvAddr());
        assigned.setInstanceName(env.unique("assigned"));
        assigned.setAutoCommit(false);
        assigned.start();
        env.shutdownLater(assigned::shutdown);
        Collection<MessageQueue> queues = assigned.fetchMessageQueues(topic);
        MessageQueue queue1 = queues.stream().filter(q -> q.getQueueId() == 1).findFirst().orElseThrow();
        assigned.assign(List.of(queue1));
        assigned.seek(queue1, 5);
        List<MessageExt> fromFive = pollAtLeast(assigned, 15);
        Check.equal(15, fromFive.size(), "messages of queue 1 from offset 5");
        for (int i = 0; i < fromFive.size(); ++i) {
            MessageExt m = fromFive.get(i);
            Check.equal(1, m.getQueueId(), "queue of an assigned poll");
            Check.equal(5L + i, m.getQueueOffset(), "queue offset of assigned message " + i);
            Check.equal("k" + (2 * (5 + i) + 1), m.getKeys(), "keys at queue 1 offset " + (5 + i));
        }
    }

    private static DefaultLitePullConsumer subscriber(Env env, MqdeskBroker broker, String group, String topic)
            throws Exception {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("lite"));
        consumer.setAutoCommit(false);
        consumer.setPullBatchSize(5);
        consumer.subscribe(topic, "*");
        consumer.start();
        env.shutdownLater(consumer::shutdown);
        return consumer;
    }

    private static List<MessageExt> pollAtLeast(DefaultLitePullConsumer consumer, int count) {
        List<MessageExt> got = new ArrayList<>();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (got.size() < count && System.nanoTime() < deadline)
            got.addAll(consumer.poll(500));
        Check.that(got.size() >= count, "polled %d messages, wanted %d", got.size(), count);
        return got;
    }
}
