package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.MessageSelector;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * SQL92 property filtering (MessageSelector.bySql) on a broker with enablePropertyFilter=true:
 * DefaultMQPushConsumers in three groups subscribe with different expressions (one of them sending
 * its expression with every pull: postSubscriptionWhenPull), and a DefaultLitePullConsumer
 * (LITE_PULL_MESSAGE on 5.x, the expression in each pull header), each receive exactly the messages
 * their expression matches — once each, none of the others — with missing properties, TAGS, IN,
 * BETWEEN and IS NULL in play. Then a consumer with an expression the broker cannot compile, and one
 * against a broker with the property filter off, fail to start (CHECK_CLIENT_CONFIG refuses them).
 */
public class SqlFilter implements Scenario {
    private static final int MESSAGES = 60;

    /** A message's properties as sent: a = i % 8, b = x/y/z, c only on every fifth, tags TagA/TagB. */
    private static final class Sample {
        final int i;
        final int a;
        final String b;
        final String c;
        final String tag;

        Sample(int i) {
            this.i = i;
            this.a = i % 8;
            this.b = i % 3 == 0 ? "x" : (i % 3 == 1 ? "y" : "z");
            this.c = i % 5 == 0 ? "keep-" + i : null;
            this.tag = i % 2 == 0 ? "TagA" : "TagB";
        }
    }

    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker("enablePropertyFilter=true");
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("sql");
        Clients.createTopic(producer, topic, 4);

        record Subscription(String sql, Predicate<Sample> expected, boolean postSubscription) {}
        Subscription[] subscriptions = {
            new Subscription("a BETWEEN 0 AND 3 AND b = 'x'", s -> s.a <= 3 && s.b.equals("x"), false),
            new Subscription("(b IN ('y', 'z') AND a > 5) OR c IS NOT NULL",
                             s -> (!s.b.equals("x") && s.a > 5) || s.c != null, false),
            new Subscription("TAGS = 'TagB' AND c IS NULL AND NOT (a BETWEEN 2 AND 6)",
                             s -> s.tag.equals("TagB") && s.c == null && (s.a < 2 || s.a > 6), true),
        };
        @SuppressWarnings("unchecked")
        Map<String, AtomicInteger>[] received = new Map[subscriptions.length];
        for (int k = 0; k < subscriptions.length; ++k) {
            Map<String, AtomicInteger> mine = new ConcurrentHashMap<>();
            received[k] = mine;
            DefaultMQPushConsumer consumer = consumer(env, broker, env.unique("sqlcg"), topic,
                MessageSelector.bySql(subscriptions[k].sql()), subscriptions[k].postSubscription(),
                (MessageListenerConcurrently) (msgs, context) -> {
                    for (MessageExt m : msgs)
                        mine.computeIfAbsent(new String(m.getBody(), StandardCharsets.UTF_8),
                                             key -> new AtomicInteger()).incrementAndGet();
                    return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
                });
            consumer.start();
            env.shutdownLater(consumer::shutdown);
        }

        String liteSql = "b <> 'y' AND (a IN ('1', '2') OR a >= 7)";
        Predicate<Sample> liteExpected = s -> !s.b.equals("y") && (s.a == 1 || s.a == 2 || s.a >= 7);
        DefaultLitePullConsumer lite = new DefaultLitePullConsumer(env.unique("sqllite"));
        lite.setNamesrvAddr(broker.namesrvAddr());
        lite.setInstanceName(env.unique("lite"));
        lite.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        lite.setPollNameServerInterval(2000);
        lite.subscribe(topic, MessageSelector.bySql(liteSql));
        lite.start();
        env.shutdownLater(lite::shutdown);

        for (int i = 0; i < MESSAGES; ++i) {
            Sample s = new Sample(i);
            Message m = new Message(topic, s.tag, ("m" + i).getBytes(StandardCharsets.UTF_8));
            m.putUserProperty("a", Integer.toString(s.a));
            m.putUserProperty("b", s.b);
            if (s.c != null)
                m.putUserProperty("c", s.c);
            producer.send(m);
        }

        for (int k = 0; k < subscriptions.length; ++k) {
            Set<String> expected = new TreeSet<>();
            for (int i = 0; i < MESSAGES; ++i)
                if (subscriptions[k].expected().test(new Sample(i)))
                    expected.add("m" + i);
            final Map<String, AtomicInteger> mine = received[k];
            Check.that(!expected.isEmpty() && expected.size() < MESSAGES, "a selective expression");
            Check.eventually(Duration.ofSeconds(40), () -> mine.keySet().containsAll(expected),
                             "every message matching " + subscriptions[k].sql() + " consumed",
                             () -> new TreeSet<>(mine.keySet()));
            Thread.sleep(k == 0 ? 2000 : 200); // time for anything unexpected to arrive too
            Check.equal(expected, new TreeSet<>(mine.keySet()), "messages consumed with " + subscriptions[k].sql());
            for (var e : mine.entrySet())
                Check.equal(1, e.getValue().get(), "deliveries of " + e.getKey() + " with " + subscriptions[k].sql());
            Log.info("%s: %d of %d messages, each once", subscriptions[k].sql(), expected.size(), MESSAGES);
        }

        Set<String> liteWanted = new TreeSet<>();
        for (int i = 0; i < MESSAGES; ++i)
            if (liteExpected.test(new Sample(i)))
                liteWanted.add("m" + i);
        Map<String, Integer> polled = new ConcurrentHashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (!polled.keySet().containsAll(liteWanted) && System.nanoTime() < deadline)
            for (MessageExt m : lite.poll(500))
                polled.merge(new String(m.getBody(), StandardCharsets.UTF_8), 1, Integer::sum);
        for (MessageExt m : lite.poll(1000)) // anything unexpected arrives too
            polled.merge(new String(m.getBody(), StandardCharsets.UTF_8), 1, Integer::sum);
        Check.equal(liteWanted, new TreeSet<>(polled.keySet()), "messages polled with " + liteSql);
        for (var e : polled.entrySet())
            Check.equal(1, e.getValue(), "polls of " + e.getKey() + " with " + liteSql);
        Log.info("lite pull %s: %d of %d messages, each once", liteSql, liteWanted.size(), MESSAGES);

        // An expression the broker cannot compile: CHECK_CLIENT_CONFIG answers SUBSCRIPTION_PARSE_FAILED
        // and the client refuses to start.
        expectStartFailure(env, broker, topic, "a BETWEEN 3 AND 1", "Illegal values of between");

        // A broker without enablePropertyFilter refuses SQL92 subscriptions as Java's does.
        // (The topic exists there: a route lookup does not create one, and the client asks only the
        // brokers of its topics.)
        MqdeskBroker plain = env.startBroker();
        Clients.createTopic(Clients.producer(env, plain, env.unique("pg")), topic, 4);
        expectStartFailure(env, plain, topic, "a = 1", "does not support consumer to filter message by SQL92");
    }

    private static void expectStartFailure(Env env, MqdeskBroker broker, String topic, String sql, String reason)
        throws Exception {
        DefaultMQPushConsumer consumer = consumer(env, broker, env.unique("sqlbad"), topic, MessageSelector.bySql(sql),
            false, (MessageListenerConcurrently) (msgs, context) -> ConsumeConcurrentlyStatus.CONSUME_SUCCESS);
        try {
            consumer.start();
            consumer.shutdown();
            Check.that(false, "a consumer with %s started against %s", sql, broker.brokerAddr());
        } catch (Exception e) {
            StringBuilder text = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause())
                text.append(t.getMessage()).append(" | ");
            Log.info("start with %s refused: %s", sql, text);
            Check.that(text.toString().contains(reason), "the refusal names the cause (%s): %s", reason, text);
            consumer.shutdown();
        }
    }

    private static DefaultMQPushConsumer consumer(Env env, MqdeskBroker broker, String group, String topic,
                                                  MessageSelector selector, boolean postSubscription,
                                                  MessageListenerConcurrently listener) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(2000);
        consumer.setPostSubscriptionWhenPull(postSubscription);
        consumer.subscribe(topic, selector);
        consumer.setMessageListener(listener);
        return consumer;
    }
}
