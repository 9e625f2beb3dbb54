package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.JavaPeer;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.common.message.MessageRequestMode;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;

/**
 * What 5.x clients rely on in a cluster, run against three mqdesk-brokers (the first one's
 * NameServer, the other two registered with -n) and against three Java 5.5 brokers with their
 * NameServer, side by side, with the same outcome asserted for both:
 * <ul>
 * <li>a POP consumer is assigned the queues of every broker of the cluster (QUERY_ASSIGNMENT from
 *   the cluster-wide route) and gets every message of all three;</li>
 * <li>a reset that names one queue of a group (resetOffsetByQueueId, server-side as Java 5.x does
 *   by default) moves that queue only;</li>
 * <li>a client-sent POP_CK property is not stored, WAIT=false is;</li>
 * <li>a pull asking for 100 messages gets maxTransferCountOnMessageInMemory (64) of them;</li>
 * <li>a batch sent to a queue.type=BatchCQ topic is one inner batch: one message id, queue offsets
 *   advancing by its count, pulls that hand it out whole and the client unwraps, tag filters on
 *   the batch's own tags;</li>
 * <li>a static topic made as mqadmin updateStaticTopic makes it, used through its logical queues and
 *   grown (StaticTopicOutcomes);</li>
 * <li>both start with the Java 5.x settings that change nothing a client sees
 *   (enablePopBufferMerge, enableSingleTopicRegister, enableSplitRegistration, estimateAccumulation).</li>
 * </ul>
 */
public class ClusterBehaviour implements Scenario {
    private static final List<String> SETTINGS = List.of(
        "maxTransferCountOnMessageInMemory=64", "enablePopBufferMerge=true", "enableSingleTopicRegister=true",
        "enableSplitRegistration=true", "estimateAccumulation=true");

    /** A cluster of three brokers behind one NameServer. */
    private record Cluster(String kind, String namesrvAddr, List<String> brokerAddrs, List<JavaPeer> javaPeers) {}

    @Override
    public void run(Env env) throws Exception {
        Cluster javaCluster = javaCluster(env);
        Map<String, String> java = outcomes(env, javaCluster);
        // Java brokers take ~13 s each to stop; their stores are not looked at again.
        for (JavaPeer peer : javaCluster.javaPeers())
            peer.kill();
        Map<String, String> mqdesk = outcomes(env, mqdeskCluster(env));
        for (var entry : java.entrySet())
            Check.equal(entry.getValue(), mqdesk.get(entry.getKey()), "MQDesk as Java: " + entry.getKey());
    }

    private static Cluster mqdeskCluster(Env env) throws Exception {
        List<String> first = new ArrayList<>(SETTINGS);
        first.add("brokerName=broker-a");
        MqdeskBroker a = env.startBroker(first, List.of());
        List<String> addrs = new ArrayList<>(List.of(a.brokerAddr()));
        for (String name : List.of("broker-b", "broker-c")) {
            List<String> conf = new ArrayList<>(SETTINGS);
            conf.add("brokerName=" + name);
            addrs.add(env.startBroker(conf, List.of("-n", a.namesrvAddr())).brokerAddr());
        }
        return new Cluster("MQDesk", a.namesrvAddr(), addrs, List.of());
    }

    private static Cluster javaCluster(Env env) throws Exception {
        JavaPeer namesrv = env.startJavaNamesrv();
        List<String> addrs = new ArrayList<>();
        List<JavaPeer> peers = new ArrayList<>();
        for (int i = 0; i < 3; ++i) {
            String[] conf = SETTINGS.toArray(new String[0]);
            JavaPeer broker = env.startJavaBroker(namesrv.addr(), env.root().resolve("java-store-" + i), conf);
            peers.add(broker);
            addrs.add(broker.addr());
        }
        peers.add(namesrv);
        return new Cluster("Java", namesrv.addr(), addrs, peers);
    }

    /** Each check's outcome as text, by the check's name. */
    private static Map<String, String> outcomes(Env env, Cluster cluster) throws Exception {
        List<Runnable> shutdowns = new ArrayList<>();
        try {
            return outcomes(env, cluster, shutdowns);
        } finally {
            for (int i = shutdowns.size() - 1; i >= 0; --i)
                shutdowns.get(i).run();
        }
    }

    private static Map<String, String> outcomes(Env env, Cluster cluster, List<Runnable> shutdowns) throws Exception {
        Log.info("cluster of %s brokers: namesrv %s, brokers %s", cluster.kind(), cluster.namesrvAddr(), cluster.brokerAddrs());
        Map<String, String> outcome = new TreeMap<>();
        DefaultMQProducer producer = new DefaultMQProducer(env.unique("pg"));
        producer.setNamesrvAddr(cluster.namesrvAddr());
        producer.setInstanceName(env.unique("producer"));
        producer.start();
        shutdowns.add(producer::shutdown);
        // The requests mqadmin sends, through the client's own API.
        MQClientAPIImpl admin = producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl();

        String topic = env.unique("cluster");
        List<BrokerData> brokers = createOnEveryBroker(admin, cluster, topic, 2);

        // Properties a client sends: WAIT kept, POP_CK removed.
        Map<String, MessageExt> stored = new TreeMap<>();
        DefaultMQPullConsumer puller = new DefaultMQPullConsumer(env.unique("puller"));
        puller.setNamesrvAddr(cluster.namesrvAddr());
        puller.setInstanceName(env.unique("puller"));
        puller.start();
        shutdowns.add(puller::shutdown);
        MessageQueue first = new MessageQueue(topic, brokers.get(0).getBrokerName(), 0);
        Message noWait = new Message(topic, "t", "no-wait", "w".getBytes(StandardCharsets.UTF_8));
        noWait.setWaitStoreMsgOK(false);
        Message withHandle = new Message(topic, "t", "with-pop-ck", "p".getBytes(StandardCharsets.UTF_8));
        MessageAccessor.putProperty(withHandle, "POP_CK", "0 1 2 3 4 5 6 7");
        Check.equal(SendStatus.SEND_OK, producer.send(noWait, first).getSendStatus(), "send without WAIT");
        Check.equal(SendStatus.SEND_OK, producer.send(withHandle, first).getSendStatus(), "send with POP_CK");
        // A send is acknowledged before the broker's dispatcher indexes it (Java and MQDesk alike):
        // read until both are there.
        Check.eventually(Duration.ofSeconds(10), () -> {
            for (MessageExt m : pullAll(puller, first, 0, 32))
                stored.put(m.getKeys(), m);
            return stored.containsKey("no-wait") && stored.containsKey("with-pop-ck");
        }, cluster.kind() + ": both messages readable", stored::keySet);
        outcome.put("WAIT of a message sent with waitStoreMsgOK=false", stored.get("no-wait").getProperty("WAIT"));
        outcome.put("POP_CK of a message sent with one", String.valueOf(stored.get("with-pop-ck").getProperty("POP_CK")));

        // A pull asking for 100 of 80 messages in memory.
        MessageQueue bulk = new MessageQueue(topic, brokers.get(0).getBrokerName(), 1);
        for (int i = 0; i < 80; ++i)
            producer.send(new Message(topic, "t", "bulk" + i, ("bulk " + i).getBytes(StandardCharsets.UTF_8)), bulk);
        Check.eventually(Duration.ofSeconds(10), () -> maxOffsetOf(puller, bulk) == 80,
                         cluster.kind() + ": all 80 indexed", () -> maxOffsetOf(puller, bulk));
        PullResult pulled = puller.pull(bulk, "*", 0, 100);
        outcome.put("messages of a pull asking 100 (80 stored)", String.valueOf(pulled.getMsgFoundList().size()));

        batchQueueOutcomes(env, cluster, admin, producer, puller, outcome);
        StaticTopicOutcomes.collect(env, cluster.kind(), cluster.namesrvAddr(), admin, producer, puller, shutdowns, outcome);

        // A reset naming one queue moves that queue only.
        String resetGroup = env.unique("resetgroup");
        String brokerAddr = brokers.get(0).selectBrokerAddr();
        MessageQueue other = new MessageQueue(topic, brokers.get(0).getBrokerName(), 0);
        SubscriptionGroupConfig groupConfig = new SubscriptionGroupConfig();
        groupConfig.setGroupName(resetGroup);
        admin.createSubscriptionGroup(brokerAddr, groupConfig, 5000); // Java resets a group it has only
        commitOffset(admin, brokerAddr, resetGroup, bulk, 80);
        commitOffset(admin, brokerAddr, resetGroup, other, 2);
        // What `mqadmin resetOffsetByTime -q 1 -o 5` (resetOffsetByQueueId) sends.
        admin.invokeBrokerToResetOffset(brokerAddr, topic, resetGroup, 0, 1, 5L, 5000);
        Check.eventually(Duration.ofSeconds(10), () -> offsetOf(admin, brokerAddr, resetGroup, bulk) == 5,
                         cluster.kind() + ": queue 1 reset to 5", () -> offsetOf(admin, brokerAddr, resetGroup, bulk));
        outcome.put("offsets after resetting queue 1 to 5 (queue 0, queue 1)",
                    offsetOf(admin, brokerAddr, resetGroup, other) + ", " + offsetOf(admin, brokerAddr, resetGroup, bulk));

        // POP over the whole cluster: every broker's messages reach one consumer of the group.
        String popTopic = env.unique("clusterpop");
        List<BrokerData> popBrokers = createOnEveryBroker(admin, cluster, popTopic, 2);
        String popGroup = env.unique("clusterpopgroup");
        for (BrokerData broker : popBrokers) {
            admin.setMessageRequestMode(broker.selectBrokerAddr(), popTopic, popGroup, MessageRequestMode.POP, 8, 5000);
        }
        Set<String> sent = new TreeSet<>();
        for (BrokerData broker : popBrokers) {
            for (int queue = 0; queue < 2; ++queue) {
                for (int i = 0; i < 3; ++i) {
                    String key = broker.getBrokerName() + "-" + queue + "-" + i;
                    producer.send(new Message(popTopic, "t", key, key.getBytes(StandardCharsets.UTF_8)),
                                  new MessageQueue(popTopic, broker.getBrokerName(), queue));
                    sent.add(key);
                }
            }
        }
        Map<String, Integer> popped = new ConcurrentHashMap<>();
        Set<String> withoutHandle = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = PopConsumption.popConsumer(env, cluster.namesrvAddr(), popGroup, popTopic, (msgs, context) -> {
            for (MessageExt m : msgs) {
                popped.merge(m.getKeys(), 1, Integer::sum);
                if (m.getProperty("POP_CK") == null)
                    withoutHandle.add(m.getKeys());
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        shutdowns.add(consumer::shutdown);
        Check.eventually(Duration.ofSeconds(60), () -> popped.keySet().containsAll(sent),
                         cluster.kind() + ": every broker's messages popped", () -> new TreeMap<>(popped));
        Check.that(withoutHandle.isEmpty(), "%s: delivered without a POP_CK handle (not popped): %s", cluster.kind(),
                   withoutHandle);
        outcome.put("messages popped of 18 on three brokers", String.valueOf(popped.size()));
        Log.info("%s: %s", cluster.kind(), outcome);
        return outcome;
    }

    /**
     * Batches of 5 and 3 and one message sent to queue 0 of a queue.type=BatchCQ topic, then read
     * back by pulls from the first offset, from inside the first batch, of 6 messages, and by tag.
     */
    private static void batchQueueOutcomes(Env env, Cluster cluster, MQClientAPIImpl admin, DefaultMQProducer producer,
                                           DefaultMQPullConsumer puller, Map<String, String> outcome) throws Exception {
        String topic = env.unique("batchcq");
        TopicConfig config = new TopicConfig(topic, 1, 1);
        config.setAttributes(Map.of("+queue.type", "BatchCQ"));
        MessageQueue queue = new MessageQueue(topic, createOnEveryBroker(admin, cluster, config).get(0).getBrokerName(), 0);
        List<String> sends = new ArrayList<>();
        int next = 0;
        for (int count : new int[] {5, 3, 1}) {
            List<Message> messages = new ArrayList<>();
            for (int i = next; i < next + count; ++i)
                messages.add(new Message(topic, i % 2 == 0 ? "even" : "odd", "b" + i,
                                         ("batch " + i).getBytes(StandardCharsets.UTF_8)));
            next += count;
            SendResult result = count == 1 ? producer.send(messages.get(0), queue) : producer.send(messages, queue);
            sends.add(result.getSendStatus() + " at " + result.getQueueOffset() + " with "
                      + result.getMsgId().split(",").length + " id(s)");
        }
        outcome.put("BatchCQ: sends of 5, 3 and 1", String.join("; ", sends));
        Check.eventually(Duration.ofSeconds(10), () -> maxOffsetOf(puller, queue) == 9,
                         cluster.kind() + ": BatchCQ max offset 9", () -> maxOffsetOf(puller, queue));
        outcome.put("BatchCQ: pull of 32 from 0", describe(puller.pull(queue, "*", 0, 32)));
        outcome.put("BatchCQ: pull of 32 from 2", describe(puller.pull(queue, "*", 2, 32)));
        outcome.put("BatchCQ: pull of 6 from 0", describe(puller.pull(queue, "*", 0, 6)));
        outcome.put("BatchCQ: pull of 32 from 0 by tag even", describe(puller.pull(queue, "even", 0, 32)));
    }

    /** A pull's status, next offset and each message's key at its queue offset. */
    private static String describe(PullResult result) {
        StringBuilder text = new StringBuilder(result.getPullStatus() + ", next " + result.getNextBeginOffset() + ":");
        if (result.getMsgFoundList() != null) {
            for (MessageExt m : result.getMsgFoundList())
                text.append(' ').append(m.getKeys()).append('@').append(m.getQueueOffset());
        }
        return text.toString();
    }

    /** Creates the topic with `queues` queues on every broker and waits until its route lists all three. */
    private static List<BrokerData> createOnEveryBroker(MQClientAPIImpl admin, Cluster cluster, String topic, int queues)
            throws Exception {
        return createOnEveryBroker(admin, cluster, new TopicConfig(topic, queues, queues));
    }

    private static List<BrokerData> createOnEveryBroker(MQClientAPIImpl admin, Cluster cluster, TopicConfig config)
            throws Exception {
        String topic = config.getTopicName();
        for (String addr : cluster.brokerAddrs())
            admin.createTopic(addr, "TBW102", config, 5000);
        List<BrokerData> brokers = new ArrayList<>();
        Check.eventually(Duration.ofSeconds(60), () -> {
            try {
                brokers.clear();
                brokers.addAll(admin.getTopicRouteInfoFromNameServer(topic, 5000).getBrokerDatas());
                return brokers.size() == 3;
            } catch (Exception e) {
                return false;
            }
        }, cluster.kind() + ": the route of " + topic + " lists three brokers", () -> brokers);
        brokers.sort((x, y) -> x.getBrokerName().compareTo(y.getBrokerName()));
        return brokers;
    }

    /** The messages a pull finds (none when it finds nothing or fails: the caller reads again). */
    private static List<MessageExt> pullAll(DefaultMQPullConsumer puller, MessageQueue queue, long from, int max) {
        try {
            PullResult result = puller.pull(queue, "*", from, max);
            return result.getPullStatus() == PullStatus.FOUND ? result.getMsgFoundList() : List.of();
        } catch (Exception e) {
            Log.info("pull of %s failed: %s", queue, e);
            return List.of();
        }
    }

    private static long maxOffsetOf(DefaultMQPullConsumer puller, MessageQueue queue) {
        try {
            return puller.maxOffset(queue);
        } catch (Exception e) {
            return -1;
        }
    }

    private static void commitOffset(MQClientAPIImpl admin, String brokerAddr, String group, MessageQueue queue, long offset)
            throws Exception {
        UpdateConsumerOffsetRequestHeader header = new UpdateConsumerOffsetRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(queue.getTopic());
        header.setQueueId(queue.getQueueId());
        header.setCommitOffset(offset);
        admin.updateConsumerOffset(brokerAddr, header, 5000);
    }

    /** The group's committed offset of `queue`; -1 when the broker has none, -2 when the query failed. */
    private static long offsetOf(MQClientAPIImpl admin, String brokerAddr, String group, MessageQueue queue) {
        QueryConsumerOffsetRequestHeader header = new QueryConsumerOffsetRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(queue.getTopic());
        header.setQueueId(queue.getQueueId());
        try {
            return admin.queryConsumerOffset(brokerAddr, header, 5000);
        } catch (Exception e) {
            Log.info("query of %s's offset of %s failed: %s", group, queue, e);
            return -2;
        }
    }
}
