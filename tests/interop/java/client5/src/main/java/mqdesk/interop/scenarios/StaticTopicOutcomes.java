package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.impl.MQClientAPIImpl;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;
import org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.remoting.protocol.admin.TopicOffset;
import org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable;
import org.apache.rocketmq.remoting.protocol.statictopic.LogicQueueMappingItem;
import org.apache.rocketmq.remoting.protocol.statictopic.TopicConfigAndQueueMapping;
import org.apache.rocketmq.remoting.protocol.statictopic.TopicQueueMappingDetail;
import org.apache.rocketmq.remoting.protocol.statictopic.TopicRemappingDetailWrapper;
import org.apache.rocketmq.remoting.protocol.statictopic.TopicQueueMappingInfo;
import org.apache.rocketmq.remoting.protocol.statictopic.TopicQueueMappingUtils;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;

/**
 * A static topic (logical queues across brokers) as {@code mqadmin updateStaticTopic} makes it and
 * clients use it, each step's outcome as text for ClusterBehaviour to compare between a Java and
 * an MQDesk cluster: the mapping each broker answers and registers, sends and pulls through the
 * mock broker {@code __syslo__global__}, offsets of logical queues, a push consumer, a send to a
 * broker that does not lead the queue, the topic grown from 6 to 9 logical queues, and remapped
 * from three brokers to two, its old messages then read through the new leaders.
 */
final class StaticTopicOutcomes {
    private StaticTopicOutcomes() {}

    static void collect(Env env, String kind, String namesrvAddr, MQClientAPIImpl admin, DefaultMQProducer producer,
                        DefaultMQPullConsumer puller, List<Runnable> shutdowns, Map<String, String> outcome)
            throws Exception {
        String topic = env.unique("static");
        ClusterInfo cluster = admin.getBrokerClusterInfo(5000);
        Map<String, String> addrs = new TreeMap<>();
        for (BrokerData broker : cluster.getBrokerAddrTable().values())
            addrs.put(broker.getBrokerName(), broker.selectBrokerAddr());

        Map<String, TopicConfigAndQueueMapping> configs = new HashMap<>();
        List<String> before = new ArrayList<>();
        for (String addr : addrs.values()) {
            try {
                admin.getTopicConfig(addr, topic, 5000);
                before.add("found");
            } catch (MQBrokerException e) {
                before.add(String.valueOf(e.getResponseCode()));
            }
        }
        outcome.put("static: GET_TOPIC_CONFIG of each broker before creation", String.join(", ", before));

        updateStaticTopic(admin, topic, 6, addrs, configs);
        TopicRouteData route = waitForMapping(admin, kind, topic, 6);
        outcome.put("static: route after creating 6 logical queues", describeMapping(route));
        List<String> shown = new ArrayList<>();
        for (Map.Entry<String, String> broker : addrs.entrySet()) {
            TopicConfigAndQueueMapping answered = admin.getTopicConfig(broker.getValue(), topic, 5000);
            TopicConfigAndQueueMapping sent = configs.get(broker.getKey());
            shown.add(answered.getReadQueueNums() + "/" + answered.getWriteQueueNums() + " queues, mapping "
                      + (sent.getMappingDetail().equals(answered.getMappingDetail()) ? "as sent" : answered.getMappingDetail()));
        }
        outcome.put("static: GET_TOPIC_CONFIG (lo) of each broker", String.join("; ", shown));

        // Each result names the logical queue, the broker that stored it (its leader) and the offset.
        Map<Integer, String> leaderOf = leaders(route);
        Map<Integer, String> sends = new TreeMap<>();
        for (int i = 0; i < 12; ++i) {
            SendResult result = producer.send(new Message(topic, "t", "s" + i, ("static " + i).getBytes(StandardCharsets.UTF_8)));
            MessageQueue queue = result.getMessageQueue();
            String broker = queue.getBrokerName().equals(leaderOf.get(queue.getQueueId())) ? "leader" : queue.getBrokerName();
            sends.merge(queue.getQueueId(), broker + "@" + result.getQueueOffset(), (a, b) -> a + "," + b);
        }
        outcome.put("static: 12 sends by logical queue", sends.toString());

        Set<MessageQueue> queues = new TreeSet<>(puller.fetchSubscribeMessageQueues(topic));
        List<String> pulls = new ArrayList<>();
        for (MessageQueue queue : queues) {
            Check.eventually(Duration.ofSeconds(10), () -> maxOffset(puller, queue) == 2, kind + ": 2 messages in " + queue,
                             () -> maxOffset(puller, queue));
            PullResult pulled = puller.pull(queue, "*", 0, 32);
            StringBuilder text = new StringBuilder(queue.getBrokerName() + "/" + queue.getQueueId() + " "
                                                   + pulled.getPullStatus() + " next " + pulled.getNextBeginOffset()
                                                   + " min " + pulled.getMinOffset() + " max " + pulled.getMaxOffset() + ":");
            for (MessageExt m : pulled.getMsgFoundList())
                text.append(' ').append(m.getQueueId()).append('@').append(m.getQueueOffset());
            text.append("; min ").append(puller.minOffset(queue)).append(", by time ")
                .append(puller.searchOffset(queue, System.currentTimeMillis() + 3_600_000L));
            PullResult beyond = puller.pull(queue, "*", 5, 32);
            text.append("; from 5: ").append(beyond.getPullStatus()).append(" next ").append(beyond.getNextBeginOffset());
            pulls.add(text.toString());
        }
        outcome.put("static: pulls of each logical queue", String.join(" | ", pulls));

        // A group's offsets of logical queues, committed to and read from each queue's leader.
        String group = env.unique("staticgroup");
        SubscriptionGroupConfig groupConfig = new SubscriptionGroupConfig();
        groupConfig.setGroupName(group);
        for (String addr : addrs.values())
            admin.createSubscriptionGroup(addr, groupConfig, 5000); // Java commits offsets of known groups only
        List<String> offsets = new ArrayList<>();
        for (Map.Entry<Integer, String> leader : leaders(route).entrySet()) {
            String addr = addrs.get(leader.getValue());
            commit(admin, addr, group, topic, leader.getKey(), 1);
            offsets.add(leader.getKey() + "=" + query(admin, addr, group, topic, leader.getKey()));
        }
        outcome.put("static: committed then queried offsets", String.join(", ", offsets));

        // A send naming a logical queue to a broker that does not lead it (the client itself never
        // sends one: it routes by the mapping), as a raw SEND_MESSAGE.
        Map.Entry<Integer, String> first = leaders(route).entrySet().iterator().next();
        String other = addrs.keySet().stream().filter(name -> !name.equals(first.getValue())).findFirst().orElseThrow();
        SendMessageRequestHeader header = new SendMessageRequestHeader();
        header.setProducerGroup("PG");
        header.setTopic(topic);
        header.setDefaultTopic("TBW102");
        header.setDefaultTopicQueueNums(4);
        header.setQueueId(first.getKey());
        header.setSysFlag(0);
        header.setBornTimestamp(System.currentTimeMillis());
        header.setFlag(0);
        header.setProperties("");
        header.setReconsumeTimes(0);
        header.setUnitMode(false);
        header.setBatch(false);
        RemotingCommand send = RemotingCommand.createRequestCommand(RequestCode.SEND_MESSAGE, header);
        send.setBody("w".getBytes(StandardCharsets.UTF_8));
        RemotingCommand refused = admin.getRemotingClient().invokeSync(addrs.get(other), send, 5000);
        outcome.put("static: send to a broker not leading the queue", String.valueOf(refused.getCode()));

        // A push consumer of the group reads all twelve.
        Map<String, Integer> consumed = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(env.unique("staticpush"));
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(env.unique("staticpush"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs)
                consumed.merge(m.getKeys(), 1, Integer::sum);
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        shutdowns.add(consumer::shutdown);
        Check.eventually(Duration.ofSeconds(60), () -> consumed.size() >= 12, kind + ": push consumer got the 12",
                         () -> new TreeMap<>(consumed));
        outcome.put("static: push consumer's messages", new TreeMap<>(consumed).toString());

        // Grown to 9 logical queues: the new ones start empty, the old keep their offsets.
        updateStaticTopic(admin, topic, 9, addrs, configs);
        TopicRouteData grown = waitForMapping(admin, kind, topic, 9);
        outcome.put("static: route after growing to 9", describeMapping(grown));
        // A pull consumer keeps the queues of a topic it pulled as its last 30-second route update
        // saw them (fetchSubscribeMessageQueues answers from there): a new one asks the NameServer.
        DefaultMQPullConsumer grownReader = newPullConsumer(env, namesrvAddr, "staticgrown", shutdowns);
        List<String> grownQueues = new ArrayList<>();
        for (MessageQueue queue : new TreeSet<>(grownReader.fetchSubscribeMessageQueues(topic)))
            grownQueues.add(queue.getQueueId() + ":" + maxOffset(grownReader, queue));
        outcome.put("static: max offsets after growing", String.join(", ", grownQueues));

        // Remapped onto two of the three brokers (mqadmin remappingStaticTopic): the third's queues
        // move; their old messages are read through the new leaders, which ask the old broker.
        List<String> targets = new ArrayList<>(addrs.keySet()).subList(0, 2);
        remapStaticTopic(admin, topic, new TreeSet<>(targets), addrs, configs);
        Check.eventually(Duration.ofSeconds(60), () -> {
            try {
                TopicRouteData now = admin.getTopicRouteInfoFromNameServer(topic, 5000);
                return new TreeSet<>(leaders(now).values()).equals(new TreeSet<>(targets));
            } catch (Exception e) {
                return false;
            }
        }, kind + ": the route of " + topic + " leads from two brokers");
        TopicRouteData remapped = admin.getTopicRouteInfoFromNameServer(topic, 5000);
        outcome.put("static: route after remapping to two brokers", describeMapping(remapped));
        // A new producer and reader: the first ones' routes are up to 30 s old, and a request to a
        // queue's old leader is refused (NOT_LEADER_FOR_QUEUE), by Java and MQDesk alike.
        DefaultMQProducer after = new DefaultMQProducer(env.unique("staticpg"));
        after.setNamesrvAddr(namesrvAddr);
        after.setInstanceName(env.unique("staticproducer"));
        after.start();
        shutdowns.add(after::shutdown);
        for (int i = 12; i < 21; ++i)
            after.send(new Message(topic, "t", "s" + i, ("static " + i).getBytes(StandardCharsets.UTF_8)));
        DefaultMQPullConsumer reader = newPullConsumer(env, namesrvAddr, "staticreader", shutdowns);
        List<String> reads = new ArrayList<>();
        for (MessageQueue queue : new TreeSet<>(reader.fetchSubscribeMessageQueues(topic))) {
            // Which logical queues moved, and which messages each got, depend on the brokers' names
            // and the producer's first queue: each queue is told by its offsets, the list sorted.
            StringBuilder text = new StringBuilder();
            long offset = reader.minOffset(queue);
            text.append("min ").append(offset).append(" max ").append(maxOffset(reader, queue)).append(';');
            for (int round = 0; round < 6; ++round) {
                PullResult pulled = reader.pull(queue, "*", offset, 32);
                text.append(' ').append(pulled.getPullStatus()).append("->").append(pulled.getNextBeginOffset());
                if (pulled.getMsgFoundList() != null) {
                    for (MessageExt m : pulled.getMsgFoundList())
                        text.append(" @").append(m.getQueueOffset());
                }
                if (pulled.getNextBeginOffset() == offset)
                    break;
                offset = pulled.getNextBeginOffset();
            }
            reads.add(text.toString());
        }
        reads.sort(null);
        outcome.put("static: reads of the logical queues after remapping", String.join(" | ", reads));
        Log.info("%s static topic: %s", kind, outcome);
    }

    /** What mqadmin updateStaticTopic -c sends: the existing mappings, the new one, each broker its part. */
    private static void updateStaticTopic(MQClientAPIImpl admin, String topic, int queues, Map<String, String> addrs,
                                          Map<String, TopicConfigAndQueueMapping> configs) throws Exception {
        configs.clear();
        for (Map.Entry<String, String> broker : addrs.entrySet()) {
            try {
                configs.put(broker.getKey(), admin.getTopicConfig(broker.getValue(), topic, 5000));
            } catch (MQBrokerException e) {
                Check.equal(17, e.getResponseCode(), "GET_TOPIC_CONFIG of a broker without the topic");
            }
        }
        TopicQueueMappingUtils.createTopicConfigMapping(topic, queues, addrs.keySet(), configs);
        for (Map.Entry<String, TopicConfigAndQueueMapping> entry : configs.entrySet()) {
            TopicConfigAndQueueMapping config = entry.getValue();
            admin.createStaticTopic(addrs.get(entry.getKey()), "TBW102", config, config.getMappingDetail(), false, 5000);
        }
    }

    /**
     * What mqadmin remappingStaticTopic sends (MQAdminUtils.remappingStaticTopic): the new leaders
     * first without a logical offset, then the old ones, then the new leaders again with the
     * logical offset rounded up past the old queue's end (read from the old broker's topic stats).
     */
    private static void remapStaticTopic(MQClientAPIImpl admin, String topic, Set<String> targets, Map<String, String> addrs,
                                         Map<String, TopicConfigAndQueueMapping> configs) throws Exception {
        configs.clear();
        for (Map.Entry<String, String> broker : addrs.entrySet())
            configs.put(broker.getKey(), admin.getTopicConfig(broker.getValue(), topic, 5000));
        TopicRemappingDetailWrapper wrapper = TopicQueueMappingUtils.remappingStaticTopic(topic, configs, targets);
        Map<String, TopicConfigAndQueueMapping> remapped = wrapper.getBrokerConfigMap();
        for (String broker : wrapper.getBrokerToMapIn())
            createStatic(admin, addrs.get(broker), remapped.get(broker));
        for (String broker : wrapper.getBrokerToMapOut())
            createStatic(admin, addrs.get(broker), remapped.get(broker));
        for (String broker : wrapper.getBrokerToMapOut()) {
            TopicStatsTable stats = admin.getTopicStatsInfo(addrs.get(broker), topic, 5000);
            for (Map.Entry<Integer, List<LogicQueueMappingItem>> entry : remapped.get(broker).getMappingDetail().getHostedQueues().entrySet()) {
                List<LogicQueueMappingItem> items = entry.getValue();
                if (items.size() < 2 || items.get(items.size() - 1).getLogicOffset() > 0)
                    continue;
                LogicQueueMappingItem newLeader = items.get(items.size() - 1);
                LogicQueueMappingItem oldLeader = items.get(items.size() - 2);
                TopicOffset offset = stats.getOffsetTable().get(new MessageQueue(topic, oldLeader.getBname(), oldLeader.getQueueId()));
                newLeader.setLogicOffset(TopicQueueMappingUtils.blockSeqRoundUp(
                    oldLeader.computeStaticQueueOffsetStrictly(offset.getMaxOffset()), 10000));
                TopicQueueMappingDetail.putMappingInfo(remapped.get(newLeader.getBname()).getMappingDetail(), entry.getKey(), items);
            }
        }
        for (String broker : wrapper.getBrokerToMapIn())
            createStatic(admin, addrs.get(broker), remapped.get(broker));
        for (String broker : remapped.keySet()) {
            if (!wrapper.getBrokerToMapIn().contains(broker) && !wrapper.getBrokerToMapOut().contains(broker))
                createStatic(admin, addrs.get(broker), remapped.get(broker));
        }
    }

    /** A started pull consumer of its own (a fresh route), shut down with the scenario. */
    private static DefaultMQPullConsumer newPullConsumer(Env env, String namesrvAddr, String prefix,
                                                         List<Runnable> shutdowns) throws Exception {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(env.unique(prefix));
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(env.unique(prefix));
        consumer.start();
        shutdowns.add(consumer::shutdown);
        return consumer;
    }

    private static void createStatic(MQClientAPIImpl admin, String addr, TopicConfigAndQueueMapping config) throws Exception {
        admin.createStaticTopic(addr, "TBW102", config, config.getMappingDetail(), false, 5000);
    }

    private static TopicRouteData waitForMapping(MQClientAPIImpl admin, String kind, String topic, int queues)
            throws InterruptedException {
        TopicRouteData[] route = new TopicRouteData[1];
        Check.eventually(Duration.ofSeconds(60), () -> {
            try {
                route[0] = admin.getTopicRouteInfoFromNameServer(topic, 5000);
                return route[0].getTopicQueueMappingByBroker() != null && leaders(route[0]).size() == queues
                       && route[0].getTopicQueueMappingByBroker().values().stream().allMatch(i -> i.getTotalQueues() == queues);
            } catch (Exception e) {
                return false;
            }
        }, kind + ": the route of " + topic + " maps " + queues + " logical queues",
                           () -> route[0] == null ? null : route[0].getTopicQueueMappingByBroker());
        return route[0];
    }

    /** Logical queue id → the broker leading it, from the route's mappings. */
    private static Map<Integer, String> leaders(TopicRouteData route) {
        Map<Integer, String> leaders = new TreeMap<>();
        for (TopicQueueMappingInfo info : route.getTopicQueueMappingByBroker().values()) {
            for (Integer id : info.getCurrIdMap().keySet())
                leaders.put(id, info.getBname());
        }
        return leaders;
    }

    /**
     * Per broker: total queues, scope and the physical ids of the queues it leads, sorted (which
     * broker gets which depends on the brokers' names).
     */
    private static String describeMapping(TopicRouteData route) {
        List<String> brokers = new ArrayList<>();
        for (TopicQueueMappingInfo info : route.getTopicQueueMappingByBroker().values())
            brokers.add(info.getTotalQueues() + " total, " + info.getScope() + ", leads "
                        + new TreeSet<>(info.getCurrIdMap().values()) + (info.isDirty() ? " dirty" : ""));
        brokers.sort(null);
        return String.join("; ", brokers) + "; queue data " + route.getQueueDatas().size();
    }

    private static long maxOffset(DefaultMQPullConsumer puller, MessageQueue queue) {
        try {
            return puller.maxOffset(queue);
        } catch (Exception e) {
            return -1;
        }
    }

    private static void commit(MQClientAPIImpl admin, String addr, String group, String topic, int queueId, long offset)
            throws Exception {
        UpdateConsumerOffsetRequestHeader header = new UpdateConsumerOffsetRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(topic);
        header.setQueueId(queueId);
        header.setCommitOffset(offset);
        admin.updateConsumerOffset(addr, header, 5000);
    }

    private static String query(MQClientAPIImpl admin, String addr, String group, String topic, int queueId) {
        QueryConsumerOffsetRequestHeader header = new QueryConsumerOffsetRequestHeader();
        header.setConsumerGroup(group);
        header.setTopic(topic);
        header.setQueueId(queueId);
        try {
            return String.valueOf(admin.queryConsumerOffset(addr, header, 5000));
        } catch (MQBrokerException e) {
            return "code " + e.getResponseCode();
        } catch (Exception e) {
            return e.getClass().getSimpleName();
        }
    }
}
