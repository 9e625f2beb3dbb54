package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.client.QueryResult;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * The messages every peer scenario stores and then expects back, one topic, every kind a store holds
 * differently: plain, keyed (one and two keys: the index), tagged (tagsCode), delayed (level 1: first
 * SCHEDULE_TOPIC_XXXX, then the topic), timed (RocketMQ 5 timer messages, setDeliverTimeMs: first
 * rmq_sys_wheel_timer, the timer log and wheel, then the topic) and transactional committed
 * (RMQ_SYS_TRANS_HALF_TOPIC, the committed copy, the op record). Bodies are unique; a message is
 * identified by its body. Pending timer messages (sendPendingTimers) are due only after the broker
 * that parked them stopped: the broker opened on its store must deliver them from the timer files
 * the other wrote.
 */
final class PeerMessages {
    /** What a consumer must see: tags and keys as sent (null when none). */
    record Expected(String body, String tags, String keys) {}

    final String topic;
    final Map<String, Expected> expected = new LinkedHashMap<>();
    final Map<String, Expected> pending = new LinkedHashMap<>();
    private final Map<String, Long> dueAt = new LinkedHashMap<>();

    PeerMessages(String topic) {
        this.topic = topic;
    }

    static DefaultMQProducer producer(Env env, String namesrvAddr) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(env.unique("peerpg"));
        producer.setNamesrvAddr(namesrvAddr);
        producer.setInstanceName(env.unique("producer"));
        producer.setSendMsgTimeout(10_000);
        producer.start();
        env.shutdownLater(producer::shutdown);
        return producer;
    }

    /**
     * Creates the topic (4 queues) on every broker the NameServer knows through TBW102 and waits until
     * the NameServer serves its route.
     */
    void createTopic(DefaultMQProducer producer) throws Exception {
        // A Java broker prints "boot success" before its first registration reached the NameServer.
        Check.eventually(Duration.ofSeconds(30), () -> {
            try {
                return !producer.fetchPublishMessageQueues("TBW102").isEmpty();
            } catch (Exception e) {
                return false;
            }
        }, "the route of TBW102 (the broker registered)");
        producer.createTopic("TBW102", topic, 4, Map.of());
        Check.eventually(Duration.ofSeconds(30), () -> {
            try {
                return producer.fetchPublishMessageQueues(topic).size() == 4;
            } catch (Exception e) {
                return false;
            }
        }, "the route of " + topic + " with 4 queues");
    }

    /** Sends the whole set through {@code namesrvAddr}; every send must be SEND_OK. */
    void sendAll(Env env, String namesrvAddr) throws Exception {
        DefaultMQProducer producer = producer(env, namesrvAddr);
        createTopic(producer);
        for (int i = 0; i < 6; ++i)
            send(producer, new Message(topic, bytes("plain-" + i)), null, null);
        for (int i = 0; i < 6; ++i) {
            String keys = i % 2 == 0 ? "key-" + i : "key-" + i + " other-" + i;
            Message m = new Message(topic, bytes("keyed-" + i));
            m.setKeys(keys);
            send(producer, m, null, keys);
        }
        for (int i = 0; i < 6; ++i) {
            String tags = i % 2 == 0 ? "TagA" : "TagB";
            send(producer, new Message(topic, tags, bytes("tagged-" + i)), tags, null);
        }
        for (int i = 0; i < 3; ++i) {
            Message m = new Message(topic, "Delayed", "delay-" + i, bytes("delayed-" + i));
            m.setDelayTimeLevel(1);
            send(producer, m, "Delayed", "delay-" + i);
        }
        for (int i = 0; i < 2; ++i) {
            Message m = new Message(topic, "Timed", "timed-" + i, bytes("timed-" + i));
            long at = System.currentTimeMillis() + 1500 + 500 * i;
            m.setDeliverTimeMs(at);
            dueAt.put("timed-" + i, at);
            send(producer, m, "Timed", "timed-" + i);
        }
        TransactionMQProducer tx = new TransactionMQProducer(env.unique("peertxpg"));
        tx.setNamesrvAddr(namesrvAddr);
        tx.setInstanceName(env.unique("txproducer"));
        tx.setSendMsgTimeout(10_000);
        tx.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        tx.start();
        env.shutdownLater(tx::shutdown);
        for (int i = 0; i < 3; ++i) {
            Message m = new Message(topic, "Tx", "tx-" + i, bytes("tx-" + i));
            SendResult r = tx.sendMessageInTransaction(m, null);
            Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "half message send status of tx-" + i);
            expected.put("tx-" + i, new Expected("tx-" + i, "Tx", "tx-" + i));
        }
        Log.info("sent %d messages to %s", expected.size(), topic);
    }

    /**
     * Timer messages due {@code delayMs} from now, not expected until expectPending(): sent last, so
     * that they are still parked when the broker that took them stops.
     */
    void sendPendingTimers(Env env, String namesrvAddr, long delayMs) throws Exception {
        DefaultMQProducer producer = producer(env, namesrvAddr);
        for (int i = 0; i < 2; ++i) {
            String body = "pending-timer-" + i;
            Message m = new Message(topic, "Pending", body, bytes(body));
            long at = System.currentTimeMillis() + delayMs + 1000 * i;
            m.setDeliverTimeMs(at);
            SendResult r = producer.send(m);
            Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "send status of " + body);
            dueAt.put(body, at);
            pending.put(body, new Expected(body, "Pending", body));
        }
    }

    /** From now on the pending timer messages are expected too. */
    void expectPending() {
        expected.putAll(pending);
    }

    private void send(DefaultMQProducer producer, Message m, String tags, String keys) throws Exception {
        SendResult r = producer.send(m);
        Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "send status of " + body(m.getBody()));
        expected.put(body(m.getBody()), new Expected(body(m.getBody()), tags, keys));
    }

    /**
     * Reads every queue of the topic from its first offset (a lite pull consumer of a new group) until
     * all expected messages arrived or 40 s passed, then checks that each came exactly once with its
     * body, tags and keys, and nothing else.
     */
    void readAndCheck(Env env, String namesrvAddr, String who) throws Exception {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(env.unique("peerreader"));
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(env.unique("reader"));
        consumer.setAutoCommit(false);
        // From the first message when the broker knows no offset of the group (no seek: see Clients.readAll).
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.start();
        List<MessageExt> messages = new ArrayList<>();
        try {
            // A broker that just booted may not have registered yet.
            final List<Collection<MessageQueue>> found = new ArrayList<>();
            Check.eventually(Duration.ofSeconds(30), () -> {
                try {
                    Collection<MessageQueue> q = consumer.fetchMessageQueues(topic);
                    if (q.size() < 4)
                        return false;
                    found.add(q);
                    return true;
                } catch (Exception e) {
                    return false;
                }
            }, "the route of " + topic + " from " + who);
            Collection<MessageQueue> queues = found.get(0);
            consumer.assign(queues);
            long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
            while (messages.size() < expected.size() && System.nanoTime() < deadline)
                messages.addAll(consumer.poll(500));
            messages.addAll(consumer.poll(300));
        } finally {
            consumer.shutdown();
        }
        // The same queue position read twice would be the client's doing (its pull tasks), not the
        // broker's: it is counted once. A message stored twice (two positions) still shows as
        // "served twice" below.
        Map<String, MessageExt> byPosition = new java.util.LinkedHashMap<>();
        for (MessageExt m : messages)
            byPosition.putIfAbsent(m.getBrokerName() + "/" + m.getQueueId() + "/" + m.getQueueOffset(), m);
        messages = new ArrayList<>(byPosition.values());
        Log.info("%s served %d messages of %s (expected %d)", who, messages.size(), topic, expected.size());
        for (MessageExt m : messages) {
            Long due = dueAt.get(body(m.getBody()));
            Check.that(due == null || m.getStoreTimestamp() >= due, "%s: timer message %s stored %d ms before its time",
                       who, body(m.getBody()), due == null ? 0 : due - m.getStoreTimestamp());
        }
        check(messages.stream().map(m -> new Expected(body(m.getBody()), m.getTags(), m.getKeys())).toList(), who);
    }

    /**
     * QUERY_MESSAGE by key (the broker's index, topic#key) for every KEYS token sent: each finds its
     * message in the topic, with its body. On a broker opened on the other's store this reads an
     * index the other wrote.
     */
    void queryByKeys(Env env, String namesrvAddr, String who) throws Exception {
        DefaultMQProducer producer = producer(env, namesrvAddr);
        int queried = 0;
        for (Expected want : expected.values()) {
            if (want.keys() == null)
                continue;
            for (String key : want.keys().split(" ")) {
                QueryResult result = producer.queryMessage(topic, key, 32, 0, Long.MAX_VALUE);
                List<String> bodies = result.getMessageList().stream().map(m -> body(m.getBody())).toList();
                Check.that(bodies.contains(want.body()), "%s: a query of key %s found %s, not %s", who, key, bodies,
                           want.body());
                ++queried;
            }
        }
        Log.info("%s: %d keys queried, each found its message", who, queried);
    }

    /**
     * RocketMQ 5.5's query by tag (QUERY_MESSAGE with indexType "T", the index's "topic#T#tags"
     * entries): every tag of the set finds exactly the messages that carry it.
     */
    void queryByTags(Env env, String namesrvAddr, String who) throws Exception {
        DefaultMQProducer producer = producer(env, namesrvAddr);
        Map<String, List<String>> byTag = new LinkedHashMap<>();
        for (Expected want : expected.values())
            if (want.tags() != null && !want.tags().equals("Pending"))
                byTag.computeIfAbsent(want.tags(), t -> new java.util.ArrayList<>()).add(want.body());
        for (Map.Entry<String, List<String>> tag : byTag.entrySet()) {
            QueryResult result = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQAdminImpl()
                .queryMessage(null, topic, tag.getKey(), 64, 0, Long.MAX_VALUE, false, "T", null);
            List<String> bodies = result.getMessageList().stream().map(m -> body(m.getBody())).sorted().toList();
            Check.that(bodies.containsAll(tag.getValue()), "%s: a query of tag %s found %s, not all of %s", who,
                       tag.getKey(), bodies, tag.getValue());
            Check.that(result.getMessageList().stream().allMatch(m -> tag.getKey().equals(m.getTags())),
                       "%s: a query of tag %s found other tags: %s", who, tag.getKey(), bodies);
        }
        Log.info("%s: %d tags queried (index type T), each found its messages", who, byTag.size());
    }

    /** Every expected message exactly once in {@code seen}, with equal tags and keys, and no other. */
    void check(List<Expected> seen, String who) {
        Map<String, Expected> byBody = new LinkedHashMap<>();
        for (Expected e : seen) {
            Check.that(byBody.put(e.body(), e) == null, "%s: %s served twice", who, e.body());
            Check.that(expected.containsKey(e.body()), "%s: unexpected message %s", who, e);
        }
        for (Expected want : expected.values()) {
            Expected got = byBody.get(want.body());
            Check.that(got != null, "%s: %s missing (served %d of %d: %s)", who, want.body(), byBody.size(),
                       expected.size(), byBody.keySet());
            Check.that(Objects.equals(want.tags(), got.tags()), "%s: tags of %s: expected <%s> but was <%s>", who,
                       want.body(), want.tags(), got.tags());
            Check.that(Objects.equals(want.keys(), got.keys()), "%s: keys of %s: expected <%s> but was <%s>", who,
                       want.body(), want.keys(), got.keys());
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String body(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
