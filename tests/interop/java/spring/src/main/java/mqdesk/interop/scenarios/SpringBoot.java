package mqdesk.interop.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import mqdesk.interop.spring.Order;
import mqdesk.interop.spring.Received;
import mqdesk.interop.spring.SpringApp;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.apache.rocketmq.spring.support.RocketMQHeaders;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.messaging.support.MessageBuilder;

/**
 * A Spring Boot application on rocketmq-spring-boot-starter (mqdesk.interop.spring.SpringApp)
 * against mqdesk-broker, configured the way an application is: {@code rocketmq.name-server} and
 * {@code rocketmq.producer.group}. Through its RocketMQTemplate it sends with syncSend (SEND_OK and
 * the queue offsets), asyncSend (onSuccess), syncSendOrderly by hash key, sendMessageInTransaction
 * (COMMIT, ROLLBACK and UNKNOWN resolved to COMMIT by the broker's check-back), a delayed syncSend
 * (delayLevel 2 = 5 s), convertAndSend of a POJO (JSON) and syncSend to a topic that did not exist
 * (auto-created). Its @RocketMQMessageListener beans — a String listener with a tag filter, a POJO
 * listener, an ORDERLY listener, a listener of the transactional topic and one subscribed to the
 * not-yet-existing topic — must get every committed or plain message exactly once with its content,
 * the rolled-back and filtered ones never, each hash key's messages in send order. Closing the
 * context must shut the clients down with every group's offsets committed up to the end.
 */
public class SpringBoot implements Scenario {
    private static final int QUEUES = 4;
    private static final int SYNC = 12;
    private static final int FILTERED = 6;
    private static final int ASYNC = 12;
    private static final int DELAYED = 2;
    private static final int DELAY_LEVEL = 2; // messageDelayLevel's default: level 2 = 5 s
    private static final long DELAY_MS = 5000;
    private static final int POJOS = 10;
    private static final List<String> HASH_KEYS = List.of("order-a", "order-b", "order-c", "order-d", "order-e");
    private static final int STEPS = 25;
    private static final int TX_EACH = 4;
    private static final int AUTO = 8;

    @Override
    public void run(Env env) throws Exception {
        // A short transaction timeout and check interval, so that the UNKNOWN ones are asked back
        // within seconds (RocketMQ's defaults: 6 s and 60 s).
        MqdeskBroker broker = env.startBroker("transactionTimeOut=1000", "transactionCheckInterval=1000");
        Map<String, String> topics = new TreeMap<>();
        for (String kind : List.of("text", "pojo", "orderly", "tx", "auto"))
            topics.put(kind, env.unique("spring_" + kind));

        // The application does not create topics; an operator does, as here (4 queues each).
        DefaultMQProducer admin = new DefaultMQProducer(env.unique("admin"));
        admin.setNamesrvAddr(broker.namesrvAddr());
        admin.setInstanceName(env.unique("admin"));
        admin.start();
        env.shutdownLater(admin::shutdown);
        for (var e : topics.entrySet())
            if (!e.getKey().equals("auto"))
                admin.createTopic("TBW102", e.getValue(), QUEUES, Map.of());

        List<String> args = new ArrayList<>();
        args.add("--rocketmq.name-server=" + broker.namesrvAddr());
        args.add("--rocketmq.producer.group=" + env.unique("springpg"));
        args.add("--rocketmq.producer.send-message-timeout=10000");
        args.add("--logging.level.root=WARN");
        Map<String, String> groups = new TreeMap<>();
        for (var e : topics.entrySet()) {
            groups.put(e.getKey(), env.unique("spring_cg_" + e.getKey()));
            args.add("--mqdesk.topic." + e.getKey() + "=" + e.getValue());
            args.add("--mqdesk.group." + e.getKey() + "=" + groups.get(e.getKey()));
        }
        Log.info("starting the Spring application context: %s", args);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(SpringApp.class)
            .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).registerShutdownHook(false)
            .run(args.toArray(String[]::new));
        env.closeLater(context);
        Log.info("Spring application context started");
        RocketMQTemplate template = context.getBean(RocketMQTemplate.class);
        Received received = context.getBean(Received.class);
        Check.equal(Set.of("text", "pojo", "orderly", "tx", "auto"), received.consumers.keySet(),
                    "listeners whose push consumer was prepared");
        for (var e : received.consumers.entrySet())
            Check.equal(2000, e.getValue().getPollNameServerInterval(), "pollNameServerInterval of " + e.getKey());
        // Each listener's consumer holds all 4 queues of its topic (one member per group) before the
        // sends, so that a consumer that never got its queues fails here, by name.
        for (var e : received.consumers.entrySet()) {
            if (e.getKey().equals("auto"))
                continue; // its topic does not exist yet
            String topic = topics.get(e.getKey());
            DefaultMQPushConsumer consumer = e.getValue();
            Check.eventually(Duration.ofSeconds(30), () -> assignedQueues(consumer, topic) == QUEUES,
                             "consumer " + e.getKey() + " assigned the " + QUEUES + " queues of " + topic,
                             () -> assignedQueues(consumer, topic));
        }

        String text = topics.get("text");
        // syncSend: SEND_OK, and each queue's offsets run 0, 1, 2, … in send order.
        Map<Integer, List<Long>> offsets = new TreeMap<>();
        for (int i = 0; i < SYNC; ++i) {
            SendResult r = template.syncSend(text + ":kept", "sync-" + i);
            Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "syncSend status of sync-" + i);
            Check.equal(text, r.getMessageQueue().getTopic(), "syncSend queue topic");
            offsets.computeIfAbsent(r.getMessageQueue().getQueueId(), q -> new ArrayList<>()).add(r.getQueueOffset());
        }
        for (int i = 0; i < FILTERED; ++i) {
            SendResult r = template.syncSend(text + ":dropped", "dropped-" + i);
            Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "syncSend status of dropped-" + i);
            offsets.computeIfAbsent(r.getMessageQueue().getQueueId(), q -> new ArrayList<>()).add(r.getQueueOffset());
        }
        for (var e : offsets.entrySet()) {
            List<Long> expected = IntStream.range(0, e.getValue().size()).mapToObj(Long::valueOf).toList();
            Check.equal(expected, e.getValue(), "queue offsets of the syncSends to queue " + e.getKey());
        }
        Check.equal(QUEUES, offsets.size(), "queues the syncSends went to");

        // asyncSend: every callback's onSuccess with SEND_OK, none onException.
        Map<String, SendResult> asyncResults = new ConcurrentHashMap<>();
        List<Throwable> asyncFailures = new ArrayList<>();
        for (int i = 0; i < ASYNC; ++i) {
            String body = "async-" + i;
            template.asyncSend(text + ":kept", body, new SendCallback() {
                @Override
                public void onSuccess(SendResult sendResult) {
                    asyncResults.put(body, sendResult);
                }

                @Override
                public void onException(Throwable e) {
                    synchronized (asyncFailures) {
                        asyncFailures.add(e);
                    }
                }
            });
        }
        Check.eventually(Duration.ofSeconds(20), () -> asyncResults.size() + failures(asyncFailures) == ASYNC,
                         "every asyncSend called back", asyncResults::keySet);
        Check.that(failures(asyncFailures) == 0, "asyncSend onException: %s", asyncFailures);
        for (var e : asyncResults.entrySet()) {
            Check.equal(SendStatus.SEND_OK, e.getValue().getSendStatus(), "asyncSend status of " + e.getKey());
            Check.that(e.getValue().getQueueOffset() >= 0, "asyncSend offset of %s: %d", e.getKey(),
                       e.getValue().getQueueOffset());
        }

        // A delayed syncSend (delayLevel): arrives on its topic, not before its delay.
        Map<String, Long> delayedSentAt = new HashMap<>();
        for (int i = 0; i < DELAYED; ++i) {
            String body = "delayed-" + i;
            delayedSentAt.put(body, System.currentTimeMillis());
            SendResult r = template.syncSend(text + ":kept", MessageBuilder.withPayload(body).build(), 10_000,
                                             DELAY_LEVEL);
            Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "delayed syncSend status of " + body);
        }

        // syncSendOrderly: one hash key, one queue; steps interleaved across the keys.
        String orderly = topics.get("orderly");
        Map<String, Set<Integer>> queueOfKey = new HashMap<>();
        for (int step = 0; step < STEPS; ++step) {
            for (String key : HASH_KEYS) {
                SendResult r = template.syncSendOrderly(orderly + ":o", key + ":" + step, key);
                Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "syncSendOrderly status of " + key + ":" + step);
                queueOfKey.computeIfAbsent(key, k -> new java.util.TreeSet<>()).add(r.getMessageQueue().getQueueId());
            }
        }
        for (var e : queueOfKey.entrySet())
            Check.equal(1, e.getValue().size(), "queues hash key " + e.getKey() + " went to " + e.getValue());

        // convertAndSend of a POJO.
        String pojo = topics.get("pojo");
        List<Order> sentOrders = new ArrayList<>();
        for (int i = 0; i < POJOS; ++i) {
            Order order = new Order(1000 + i, "customer-" + i, 10.5 * i, List.of("item-" + i, "extra \"quoted\" é"));
            sentOrders.add(order);
            template.convertAndSend(pojo + ":order", order);
        }

        // sendMessageInTransaction with the application's @RocketMQTransactionListener.
        String tx = topics.get("tx");
        Map<String, LocalTransactionState> expectedState = Map.of(
            "commit", LocalTransactionState.COMMIT_MESSAGE, "rollback", LocalTransactionState.ROLLBACK_MESSAGE,
            "unknown", LocalTransactionState.UNKNOW);
        for (String kind : List.of("commit", "rollback", "unknown")) {
            for (int i = 0; i < TX_EACH; ++i) {
                String keys = kind + "-" + i;
                TransactionSendResult r = template.sendMessageInTransaction(
                    tx + ":t", MessageBuilder.withPayload(keys).setHeader(RocketMQHeaders.KEYS, keys).build(), null);
                Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "half message send status of " + keys);
                Check.equal(expectedState.get(kind), r.getLocalTransactionState(), "local transaction state of " + keys);
            }
        }
        // syncSend to a topic nobody created: the broker creates it (autoCreateTopicEnable, as
        // RocketMQ's default), and the listener already subscribed to it gets every message.
        String auto = topics.get("auto");
        Set<String> expectedAuto = new java.util.TreeSet<>();
        for (int i = 0; i < AUTO; ++i) {
            String body = "auto-" + i;
            SendResult r = template.syncSend(auto, body);
            Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "syncSend status of " + body + " (auto-created topic)");
            expectedAuto.add(body);
        }
        Log.info("all sent");

        // Everything expected arrives …
        Set<String> expectedText = new java.util.TreeSet<>();
        for (int i = 0; i < SYNC; ++i)
            expectedText.add("sync-" + i);
        for (int i = 0; i < ASYNC; ++i)
            expectedText.add("async-" + i);
        expectedText.addAll(delayedSentAt.keySet());
        Set<String> expectedTx = new java.util.TreeSet<>();
        for (int i = 0; i < TX_EACH; ++i) {
            expectedTx.add("commit-" + i);
            expectedTx.add("unknown-" + i);
        }
        // A pull may be refused with SUBSCRIPTION_NOT_LATEST for up to heartbeatBrokerInterval (30 s)
        // after a consumer starts, with any broker: the 5.x client's first rebalance (1 s after start)
        // raises the subscription version while its first scheduled heartbeat (also 1 s after start)
        // is carrying the old one, and the rebalance's own heartbeat is skipped because that one
        // holds the heartbeat lock (RocketMQ issue 3434, "Consumers start slowly"). Hence 45 s.
        Check.eventually(Duration.ofSeconds(45), () -> received.text.keySet().containsAll(expectedText),
                         "every kept message delivered to the tag-filtered String listener",
                         () -> missing(expectedText, received.text.keySet()));
        Check.eventually(Duration.ofSeconds(45), () -> received.orders.size() >= POJOS,
                         "every Order delivered to the POJO listener", () -> received.orders);
        Check.eventually(Duration.ofSeconds(45), () -> HASH_KEYS.stream().allMatch(
                             k -> received.orderly.containsKey(k) && received.orderly.get(k).size() >= STEPS),
                         "every step of every hash key delivered to the ORDERLY listener", () -> received.orderly);
        Check.eventually(Duration.ofSeconds(45), () -> received.transactional.keySet().containsAll(expectedTx),
                         "the committed and checked-back-committed transactional messages delivered",
                         () -> "delivered " + received.transactional.keySet() + ", checks " + received.txChecks);
        Check.eventually(Duration.ofSeconds(45), () -> received.auto.keySet().containsAll(expectedAuto),
                         "every message of the auto-created topic delivered",
                         () -> missing(expectedAuto, received.auto.keySet()));
        Log.info("everything expected arrived; waiting 3 s for duplicates or strays");
        Thread.sleep(3000);

        // … exactly once, and nothing else.
        Check.equal(expectedText, new java.util.TreeSet<>(received.text.keySet()),
                    "bodies delivered to the String listener (tag kept; the dropped tag filtered out)");
        Check.equal(Map.of(), duplicates(received.text), "String listener deliveries more than once");
        for (var e : delayedSentAt.entrySet()) {
            long waited = received.textArrivedAt.get(e.getKey()) - e.getValue();
            Check.that(waited >= DELAY_MS - 100, "%s (delayLevel %d) arrived after %d ms, before its delay",
                       e.getKey(), DELAY_LEVEL, waited);
        }
        List<Order> gotOrders = new ArrayList<>(received.orders);
        gotOrders.sort((a, b) -> Long.compare(a.id(), b.id()));
        Check.equal(sentOrders, gotOrders, "Orders delivered to the POJO listener");
        for (String key : HASH_KEYS) {
            List<Integer> steps;
            synchronized (received.orderly.get(key)) {
                steps = new ArrayList<>(received.orderly.get(key));
            }
            Check.equal(IntStream.range(0, STEPS).boxed().toList(), steps, "steps of hash key " + key + " as consumed");
        }
        Check.equal(Set.copyOf(HASH_KEYS), Set.copyOf(received.orderly.keySet()), "hash keys consumed");
        Check.equal(expectedTx, new java.util.TreeSet<>(received.transactional.keySet()),
                    "transactional messages delivered (no rolled-back one)");
        Check.equal(Map.of(), duplicates(received.transactional), "transactional deliveries more than once");
        Check.equal(expectedAuto, new java.util.TreeSet<>(received.auto.keySet()), "auto-created topic deliveries");
        Check.equal(Map.of(), duplicates(received.auto), "auto-created topic deliveries more than once");
        Check.equal(Map.of(), duplicates(received.txExecuted), "local transactions executed more than once");
        for (String keys : received.txChecks.keySet())
            Check.that(keys.startsWith("unknown-"), "%s was checked back though its local transaction answered",
                       keys);
        Check.equal(TX_EACH, received.txChecks.size(), "UNKNOWN transactions checked back");

        // The POJO went as JSON: read the raw bodies of its topic.
        ObjectMapper json = new ObjectMapper();
        Map<Long, JsonNode> raw = new TreeMap<>();
        for (MessageExt m : readAll(env, broker, pojo, POJOS)) {
            JsonNode node = json.readTree(new String(m.getBody(), StandardCharsets.UTF_8));
            Check.equal("order", m.getTags(), "tag of a convertAndSend message");
            raw.put(node.get("id").asLong(), node);
        }
        Check.equal(POJOS, raw.size(), "JSON bodies on the POJO topic");
        for (Order o : sentOrders) {
            JsonNode node = raw.get(o.id());
            Check.equal(o.customer(), node.get("customer").asText(), "JSON customer of order " + o.id());
            Check.equal(o.amount(), node.get("amount").asDouble(), "JSON amount of order " + o.id());
            Check.equal(o.items().get(1), node.get("items").get(1).asText(), "JSON items of order " + o.id());
        }

        // Rolled-back messages never reached the transactional topic: it holds the 8 committed ones.
        Map<String, Map<MessageQueue, Long>> maxOffsets = new TreeMap<>();
        for (var e : topics.entrySet()) {
            Map<MessageQueue, Long> max = new HashMap<>();
            for (MessageQueue mq : admin.fetchPublishMessageQueues(e.getValue()))
                max.put(mq, admin.maxOffset(mq));
            Check.that(e.getKey().equals("auto") ? !max.isEmpty() : max.size() == QUEUES, "queues of %s: %s",
                       e.getValue(), max.keySet());
            maxOffsets.put(e.getKey(), max);
        }
        Check.equal((long) expectedTx.size(), maxOffsets.get("tx").values().stream().mapToLong(Long::longValue).sum(),
                    "messages on the transactional topic");

        // Close the context: the listeners' consumers and the template's producer shut down, and each
        // group's offsets were committed up to the end of its topic.
        long closeStart = System.nanoTime();
        context.close();
        long closeMs = (System.nanoTime() - closeStart) / 1_000_000;
        Log.info("Spring application context closed in %d ms", closeMs);
        Check.that(!context.isActive(), "the context is still active after close()");
        Check.that(closeMs < 20_000, "closing the context took %d ms", closeMs);
        for (var e : groups.entrySet()) {
            Map<MessageQueue, Long> max = maxOffsets.get(e.getKey());
            Map<MessageQueue, Long> committed = new HashMap<>();
            Check.eventually(Duration.ofSeconds(15), () -> {
                committed.putAll(committedOffsets(env, broker, e.getValue(), max.keySet()));
                return committed.equals(max);
            }, "group " + e.getValue() + " committed its offsets up to the end of " + topics.get(e.getKey()),
               () -> "committed " + committed + ", max " + max);
        }
    }

    private static int assignedQueues(DefaultMQPushConsumer consumer, String topic) {
        return (int) consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet()
                             .stream().filter(mq -> mq.getTopic().equals(topic)).count();
    }

    private static int failures(List<Throwable> failures) {
        synchronized (failures) {
            return failures.size();
        }
    }

    private static Set<String> missing(Set<String> expected, Set<String> got) {
        return expected.stream().filter(k -> !got.contains(k)).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static Map<String, Integer> duplicates(Map<String, AtomicInteger> counts) {
        Map<String, Integer> more = new TreeMap<>();
        counts.forEach((k, v) -> {
            if (v.get() != 1)
                more.put(k, v.get());
        });
        return more;
    }

    /** Every message of the topic from the first offset (assigned lite pull consumer, no group offsets). */
    private static List<MessageExt> readAll(Env env, MqdeskBroker broker, String topic, int expected) throws Exception {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(env.unique("reader"));
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("reader"));
        consumer.setAutoCommit(false);
        // From the first message when the broker knows no offset of the group (no seek: see Clients.readAll).
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();
        try {
            Collection<MessageQueue> queues = consumer.fetchMessageQueues(topic);
            consumer.assign(queues);
            List<MessageExt> messages = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (messages.size() < expected && System.nanoTime() < deadline)
                messages.addAll(consumer.poll(500));
            messages.addAll(consumer.poll(300));
            Check.equal(expected, messages.size(), "messages read from " + topic);
            return messages;
        } finally {
            consumer.shutdown();
        }
    }

    /** The offsets the broker holds for {@code group} on {@code queues} (QUERY_CONSUMER_OFFSET). */
    private static Map<MessageQueue, Long> committedOffsets(Env env, MqdeskBroker broker, String group,
                                                            Set<MessageQueue> queues) {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("offsets"));
        consumer.setAutoCommit(false);
        Map<MessageQueue, Long> committed = new HashMap<>();
        try {
            // Assigned and paused before it starts: it pulls nothing, it only asks for the offsets.
            consumer.assign(queues);
            consumer.pause(queues);
            consumer.start();
            for (MessageQueue mq : queues)
                committed.put(mq, consumer.committed(mq));
        } catch (Exception e) {
            Log.info("reading the offsets of %s failed: %s", group, e);
        } finally {
            consumer.shutdown();
        }
        return committed;
    }
}
