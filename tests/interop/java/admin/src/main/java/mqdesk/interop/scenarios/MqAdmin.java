package mqdesk.interop.scenarios;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.lite.LiteUtil;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;

/**
 * The operator tool mqadmin (rocketmq-tools, MQAdminStartup) against mqdesk-broker, one command per
 * child JVM (mqadmin ends with System.exit or leaves threads behind). The Java client first sends
 * messages with keys and runs a consumer group, so that every command has something to show; each
 * command must exit 0, print no stack trace (mqadmin catches a failed command, prints it and still
 * exits 0) and show the figures this run knows: the topic's queue count, the offsets the sends got,
 * the broker's name, address and configuration, the consumer's client id. Last, RocketMQ 5.5's
 * LiteTopic commands (getBrokerLiteInfo, getParentTopicInfo, getLiteTopicInfo, getLiteClientInfo,
 * getLiteGroupInfo, triggerLiteDispatch) on a LITE parent topic with messages in two lite topics.
 */
public class MqAdmin implements Scenario {
    private static final int QUEUES = 4;
    private static final int MESSAGES = 40;
    private static final String CLUSTER = "DefaultCluster";
    private static final String BROKER_NAME = "mqdesk-interop";
    /** The lite topics of the LiteTopic commands' parent, and how many messages each is sent. */
    private static final Map<String, Integer> LITE_SENT = Map.of("a", 3, "b", 2);
    /** The lite group's committed offset in lite topic a: its lag is LITE_SENT[a] - this. */
    private static final long LITE_COMMITTED_A = 1;
    /** The parent's lite.topic.expiration (minutes), shown as its TTL. */
    private static final int LITE_TTL = 60;
    /** UtilAll.timeMillisToHumanString2, the time columns of the lite commands. */
    private static final String HUMAN_TIME = "\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},\\d{3}";

    private Env env;
    private String namesrv;

    @Override
    public void run(Env env) throws Exception {
        this.env = env;
        MqdeskBroker broker = env.startBroker("defaultTopicQueueNums=6");
        namesrv = broker.namesrvAddr();
        final String brokerAddr = broker.brokerAddr();

        DefaultMQProducer producer = new DefaultMQProducer(env.unique("pg"));
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(env.unique("producer"));
        producer.setSendMsgTimeout(10_000);
        producer.start();
        env.shutdownLater(producer::shutdown);
        final String topic = env.unique("admin");
        producer.createTopic("TBW102", topic, QUEUES, Map.of());

        long[] maxOffsets = new long[QUEUES];
        List<SendResult> sent = new ArrayList<>();
        for (int i = 0; i < MESSAGES; ++i) {
            Message message = new Message(topic, "TagA", "key-" + i, ("body-" + i).getBytes(StandardCharsets.UTF_8));
            SendResult result = producer.send(message);
            Check.equal(SendStatus.SEND_OK, result.getSendStatus(), "send status of message " + i);
            sent.add(result);
            int q = result.getMessageQueue().getQueueId();
            maxOffsets[q] = Math.max(maxOffsets[q], result.getQueueOffset() + 1);
        }
        Log.info("sent %d messages to %s: max offsets per queue %s", MESSAGES, topic, java.util.Arrays.toString(maxOffsets));

        final String group = env.unique("cg");
        Map<String, AtomicInteger> consumed = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(namesrv);
        consumer.setInstanceName(env.unique("consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(2000);
        consumer.setPersistConsumerOffsetInterval(1000);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs)
                consumed.computeIfAbsent(m.getKeys(), k -> new AtomicInteger()).incrementAndGet();
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        env.shutdownLater(consumer::shutdown);
        Check.eventually(Duration.ofSeconds(40), () -> consumed.size() == MESSAGES, "all messages consumed",
                         consumed::size);
        final String clientId = consumer.getDefaultMQPushConsumerImpl().getmQClientFactory().getClientId();

        // clusterList: the cluster, the broker's name, id 0 and address.
        step("clusterList", () -> {
            String out = mqadmin("clusterList");
            Check.that(Pattern.compile("(?m)^" + CLUSTER + "\\s+" + BROKER_NAME + "\\s+0\\s+" + Pattern.quote(brokerAddr) + "\\s")
                           .matcher(out).find(),
                       "clusterList shows no line '%s %s 0 %s':%n%s", CLUSTER, BROKER_NAME, brokerAddr, out);
            // The runtime figures it prints: queue sizes and waits (not "null"), the broker active.
            Check.that(!out.contains("null"), "clusterList shows runtime figures the broker did not send:%n%s", out);
            Check.that(Pattern.compile("(?m)\\strue\\s*$").matcher(out).find(), "clusterList shows the broker not ACTIVATED:%n%s", out);
        });

        // topicList: the topic, the group's retry topic.
        step("topicList", () -> {
            String out = mqadmin("topicList");
            Check.that(lines(out).contains(topic), "topicList does not list %s:%n%s", topic, out);
            Check.that(lines(out).contains("%RETRY%" + group), "topicList does not list %%RETRY%%%s:%n%s", group, out);
        });

        // topicRoute: the broker and the queue counts.
        step("topicRoute", () -> {
            // (pretty JSON: compared without whitespace)
            String out = mqadmin("topicRoute", "-t", topic).replaceAll("\\s", "");
            Check.that(out.contains("\"" + brokerAddr + "\"") && out.contains("\"brokerName\":\"" + BROKER_NAME + "\"")
                           && out.contains("\"readQueueNums\":" + QUEUES) && out.contains("\"writeQueueNums\":" + QUEUES),
                       "topicRoute of %s does not show broker %s at %s with %d queues:%n%s", topic, BROKER_NAME, brokerAddr,
                       QUEUES, out);
        });

        // topicStatus: one line per queue, min 0 and the max offsets the sends reported.
        step("topicStatus", () -> {
            String out = mqadmin("topicStatus", "-t", topic);
            for (int q = 0; q < QUEUES; ++q) {
                Check.that(Pattern.compile("(?m)^" + BROKER_NAME + "\\s+" + q + "\\s+0\\s+" + maxOffsets[q] + "\\s")
                               .matcher(out).find(),
                           "topicStatus shows no line '%s %d 0 %d':%n%s", BROKER_NAME, q, maxOffsets[q], out);
            }
        });

        // consumerProgress: per queue broker offset = consumer offset = the max offset, diff 0.
        step("consumerProgress", () -> {
            Check.eventually(Duration.ofSeconds(20), () -> {
                String progress = mqadminQuiet("consumerProgress", "-g", group);
                for (int q = 0; q < QUEUES; ++q) {
                    if (!Pattern.compile("(?m)^" + Pattern.quote(topic) + "\\s+" + BROKER_NAME + "\\s+" + q + "\\s+"
                                         + maxOffsets[q] + "\\s+" + maxOffsets[q] + "\\s")
                             .matcher(progress).find())
                        return false;
                }
                // In flight = where the last pull ended - the committed offset: 0 once caught up.
            return progress.contains("Consume Diff Total: 0") && progress.contains("Consume Inflight Total: 0");
            }, "consumerProgress of " + group + " shows every queue caught up, nothing in flight", () -> lastOutput);
        });

        // consumerConnection: the consumer's client id, its subscription and model.
        step("consumerConnection", () -> {
            String out = mqadmin("consumerConnection", "-g", group);
            Check.that(out.contains(clientId), "consumerConnection does not show client %s:%n%s", clientId, out);
            Check.that(Pattern.compile("(?m)^" + Pattern.quote(topic) + "\\s+\\*\\s*$").matcher(out).find(),
                       "consumerConnection does not show the subscription %s *:%n%s", topic, out);
            Check.that(out.contains("ConsumeType: CONSUME_PASSIVELY") && out.contains("MessageModel: CLUSTERING")
                           && out.contains("ConsumeFromWhere: CONSUME_FROM_FIRST_OFFSET"),
                       "consumerConnection does not show the push consumer's type, model and start:%n%s", out);
        });

        // brokerConsumeStats: every group's queues on the broker, caught up (diff 0).
        step("brokerConsumeStats", () -> {
            String out = mqadmin("brokerConsumeStats", "-b", brokerAddr);
            for (int q = 0; q < QUEUES; ++q)
                Check.that(Pattern.compile("(?m)^" + Pattern.quote(topic) + "\\s+" + Pattern.quote(group) + "\\s+"
                                           + BROKER_NAME + "\\s+" + q + "\\s+" + maxOffsets[q] + "\\s+" + maxOffsets[q]
                                           + "\\s+0\\s").matcher(out).find(),
                           "brokerConsumeStats shows no line '%s %s %s %d %d %d 0':%n%s", topic, group, BROKER_NAME, q,
                           maxOffsets[q], maxOffsets[q], out);
        });

        // brokerStatus: runtime info with the version and today's put count.
        step("brokerStatus", () -> {
            String out = mqadmin("brokerStatus", "-b", brokerAddr);
            Map<String, String> status = keyValues(out, ":");
            Check.that(status.containsKey("brokerVersionDesc") && status.containsKey("bootTimestamp"),
                       "brokerStatus lacks brokerVersionDesc or bootTimestamp:%n%s", out);
            Check.that(Long.parseLong(status.getOrDefault("msgPutTotalTodayNow", "-1")) >= MESSAGES,
                       "brokerStatus msgPutTotalTodayNow below the %d messages sent:%n%s", MESSAGES, out);
            // putTps "10s 1min 10min": the sends of the first minute are in the 10-minute figure.
            String[] putTps = status.getOrDefault("putTps", "0 0 0").split(" ");
            Check.that(putTps.length == 3 && Double.parseDouble(putTps[2]) > 0,
                       "brokerStatus putTps shows none of the %d messages sent:%n%s", MESSAGES, out);
        });

        // getBrokerConfig: the broker.conf values this run set and RocketMQ's keys.
        final String[] polling = new String[1];
        step("getBrokerConfig", () -> {
            String out = mqadmin("getBrokerConfig", "-b", brokerAddr);
            Map<String, String> config = keyValues(out, "=");
            Check.equal(BROKER_NAME, config.get("brokerName"), "getBrokerConfig brokerName");
            Check.equal(CLUSTER, config.get("brokerClusterName"), "getBrokerConfig brokerClusterName");
            Check.equal("6", config.get("defaultTopicQueueNums"), "getBrokerConfig defaultTopicQueueNums");
            polling[0] = config.get("shortPollingTimeMills");
            Check.that(polling[0] != null, "getBrokerConfig has no shortPollingTimeMills:%n%s", out);
        });

        // updateBrokerConfig of a live key; getBrokerConfig (by cluster) then shows the new value.
        step("updateBrokerConfig", () -> {
            String newPolling = "1000".equals(polling[0]) ? "1500" : "1000";
            String out = mqadmin("updateBrokerConfig", "-b", brokerAddr, "-k", "shortPollingTimeMills", "-v", newPolling);
            Check.that(out.contains("update broker config success, " + brokerAddr),
                       "updateBrokerConfig did not report success:%n%s", out);
            out = mqadmin("getBrokerConfig", "-c", CLUSTER);
            Check.equal(newPolling, keyValues(out, "=").get("shortPollingTimeMills"),
                        "shortPollingTimeMills after updateBrokerConfig");
        });

        // queryMsgById (the offset message id): the message's fields, body and who consumed it.
        final SendResult probe = sent.get(7);
        step("queryMsgById", () -> {
            String out = mqadmin("queryMsgById", "-t", topic, "-i", probe.getOffsetMsgId(), "-f", "UTF-8");
            checkMessage(out, "queryMsgById " + probe.getOffsetMsgId(), topic, probe, "key-7", "body-7");
            Check.that(out.contains("trackType=CONSUMED") && out.contains(group),
                       "queryMsgById does not show the message consumed by %s:%n%s", group, out);
        });

        // queryMsgByKey: the unique key, queue and offset of the message with the key.
        step("queryMsgByKey", () -> {
            String out = mqadmin("queryMsgByKey", "-t", topic, "-k", "key-7");
            Check.that(Pattern.compile("(?m)^" + probe.getMsgId() + "\\s+" + probe.getMessageQueue().getQueueId() + "\\s+"
                                       + probe.getQueueOffset() + "(\\s|$)").matcher(out).find(),
                       "queryMsgByKey key-7 does not show '%s %d %d':%n%s", probe.getMsgId(),
                       probe.getMessageQueue().getQueueId(), probe.getQueueOffset(), out);
        });

        // queryMsgByUniqueKey: the message's fields by the client's message id.
        step("queryMsgByUniqueKey", () -> {
            String out = mqadmin("queryMsgByUniqueKey", "-t", topic, "-i", probe.getMsgId());
            checkMessage(out, "queryMsgByUniqueKey " + probe.getMsgId(), topic, probe, "key-7", null);
            Check.that(out.contains("trackType=CONSUMED") && out.contains(group),
                       "queryMsgByUniqueKey does not show the message consumed by %s:%n%s", group, out);
        });

        // resetOffsetByTime to before the first message: every queue goes back to 0 and the online
        // consumer gets all messages again.
        step("resetOffsetByTime", () -> {
            consumed.clear();
            String out = mqadmin("resetOffsetByTime", "-g", group, "-t", topic, "-s", "0");
            for (int q = 0; q < QUEUES; ++q)
                Check.that(Pattern.compile("(?m)^" + BROKER_NAME + "\\s+" + q + "\\s+0\\s*$").matcher(out).find(),
                           "resetOffsetByTime shows no line '%s %d 0':%n%s", BROKER_NAME, q, out);
            Check.eventually(Duration.ofSeconds(40), () -> consumed.size() == MESSAGES,
                             "all messages consumed again after resetOffsetByTime", consumed::size);
        });

        // updateSubGroup: a new group with settings of its own, in the broker's subscriptionGroup.json.
        step("updateSubGroup", () -> {
            final String group2 = env.unique("cg");
            String out = mqadmin("updateSubGroup", "-c", CLUSTER, "-g", group2, "-r", "5", "-q", "2", "-s", "false");
            Check.that(out.contains("create subscription group to " + brokerAddr + " success."),
                       "updateSubGroup did not report success:%n%s", out);
            String groups = Files.readString(broker.storeDir().resolve("config").resolve("subscriptionGroup.json"));
            String entry = groupEntry(groups, group2);
            Check.that(!entry.isEmpty(), "subscriptionGroup.json has no %s after updateSubGroup:%n%s", group2, groups);
            Check.that(entry.contains("\"retryMaxTimes\":5") && entry.contains("\"retryQueueNums\":2")
                           && entry.contains("\"consumeEnable\":false"),
                       "subscriptionGroup.json entry of %s lacks the settings given:%n%s", group2, entry);
        });

        // updateTopic -a: a 5.x topic type (message.type) set at creation, stored in topics.json,
        // changed, refused for a value TopicMessageType lacks, then removed (a removal succeeds only
        // for a key the broker holds).
        step("updateTopic -a", () -> {
            final String typed = env.unique("fifo");
            final Path topicsJson = broker.storeDir().resolve("config").resolve("topics.json");
            String out = mqadmin("updateTopic", "-c", CLUSTER, "-t", typed, "-a", "+message.type=FIFO");
            Check.that(out.contains("create topic to " + brokerAddr + " success.") && out.contains("message.type=FIFO"),
                       "updateTopic -a did not report success:%n%s", out);
            Check.that(Files.readString(topicsJson).contains("\"message.type\":\"FIFO\""),
                       "topics.json does not hold message.type FIFO for %s", typed);
            mqadmin("updateTopic", "-c", CLUSTER, "-t", typed, "-a", "+message.type=DELAY");
            Check.that(Files.readString(topicsJson).contains("\"message.type\":\"DELAY\""),
                       "topics.json does not hold message.type DELAY for %s", typed);
            Result bad = run("updateTopic", "-c", CLUSTER, "-t", typed, "-a", "+message.type=ORDERED");
            Check.that((bad.out + bad.err).contains("value is not in set"),
                       "an unknown message type was not refused:%n%s%n%s", bad.out, bad.err);
            mqadmin("updateTopic", "-c", CLUSTER, "-t", typed, "-a", "-message.type");
            Result again = run("updateTopic", "-c", CLUSTER, "-t", typed, "-a", "-message.type");
            Check.that((again.out + again.err).contains("attempt to delete a nonexistent key: message.type"),
                       "removing message.type twice was not refused:%n%s%n%s", again.out, again.err);
        });

        // setConsumeMode: a group switched to POP (RocketMQ 5) for one topic, kept in the broker's
        // messageRequestMode.json; a retry topic is refused.
        step("setConsumeMode", () -> {
            final String popTopic = env.unique("poptopic");
            final String popGroup = env.unique("popgroup");
            mqadmin("updateTopic", "-c", CLUSTER, "-t", popTopic);
            mqadmin("setConsumeMode", "-c", CLUSTER, "-g", popGroup, "-t", popTopic, "-m", "POP", "-q", "8");
            String modes = Files.readString(broker.storeDir().resolve("config").resolve("messageRequestMode.json"))
                               .replaceAll("\\s", "");
            Check.that(modes.contains("\"" + popGroup + "\":{\"consumerGroup\":\"" + popGroup + "\",\"mode\":\"POP\","
                                      + "\"popShareQueueNum\":8,\"topic\":\"" + popTopic + "\"}"),
                       "messageRequestMode.json does not hold POP for %s:%n%s", popGroup, modes);
            // A 5.x push consumer of that group (clientRebalance=false: only then does the client ask the
            // broker) now pops: every message arrives with its POP_CK handle, once.
            Map<String, AtomicInteger> popped = new ConcurrentHashMap<>();
            Map<String, String> handles = new ConcurrentHashMap<>();
            DefaultMQPushConsumer popper = new DefaultMQPushConsumer(popGroup);
            popper.setNamesrvAddr(namesrv);
            popper.setInstanceName(env.unique("popper"));
            popper.setClientRebalance(false);
            popper.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            popper.setPollNameServerInterval(2000);
            popper.subscribe(popTopic, "*");
            popper.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
                for (MessageExt m : msgs) {
                    popped.computeIfAbsent(m.getKeys(), k -> new AtomicInteger()).incrementAndGet();
                    if (m.getProperty("POP_CK") != null)
                        handles.put(m.getKeys(), m.getProperty("POP_CK"));
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            popper.start();
            env.shutdownLater(popper::shutdown);
            for (int i = 0; i < 6; ++i) {
                Message message = new Message(popTopic, "TagP", "pop-" + i, ("pop-" + i).getBytes(StandardCharsets.UTF_8));
                Check.equal(SendStatus.SEND_OK, producer.send(message).getSendStatus(), "send status of pop-" + i);
            }
            Check.eventually(Duration.ofSeconds(60), () -> popped.size() == 6, "all messages popped", popped::keySet);
            Check.equal(6, handles.size(), "messages consumed with a POP_CK handle (popped, not pulled)");
            Thread.sleep(3000);
            for (var e : popped.entrySet())
                Check.equal(1, e.getValue().get(), "deliveries of " + e.getKey());
        });

        // updateTopic: a second topic of 3 queues, seen by topicRoute and topicList.
        final String topic2 = env.unique("admin");
        step("updateTopic", () -> {
            String out = mqadmin("updateTopic", "-c", CLUSTER, "-t", topic2, "-r", "3", "-w", "3");
            Check.that(out.contains("create topic to " + brokerAddr + " success."),
                       "updateTopic did not report success:%n%s", out);
            out = mqadmin("topicRoute", "-t", topic2).replaceAll("\\s", "");
            Check.that(out.contains("\"readQueueNums\":3") && out.contains("\"writeQueueNums\":3"),
                       "topicRoute of %s does not show 3 queues:%n%s", topic2, out);
            out = mqadmin("topicList");
            Check.that(lines(out).contains(topic2), "topicList does not list %s:%n%s", topic2, out);
        });

        // deleteTopic: gone from the broker and the NameServer; topicList no longer shows it.
        step("deleteTopic", () -> {
            String out = mqadmin("deleteTopic", "-c", CLUSTER, "-t", topic2);
            Check.that(out.contains("delete topic [" + topic2 + "] from cluster [" + CLUSTER + "] success.")
                           && out.contains("delete topic [" + topic2 + "] from NameServer success."),
                       "deleteTopic did not report success:%n%s", out);
            out = mqadmin("topicList");
            Check.that(!lines(out).contains(topic2), "topicList still lists %s after deleteTopic:%n%s", topic2, out);
            Check.that(lines(out).contains(topic), "topicList lost %s after deleting %s:%n%s", topic, topic2, out);
        });

        // The LiteTopic commands of RocketMQ 5.5 (admin codes 200074-200079). Set-up: a LITE parent topic
        // with an expiration, a lite group bound to it (both by mqadmin), LITE_SENT messages to two lite
        // topics (the remoting producer, the lite topic in property __LITE_TOPIC) and, as a lite consumer's
        // ack would, the group's offset LITE_COMMITTED_A committed in lite topic a (none in b).
        final String liteParent = env.unique("liteparent");
        final String liteGroup = env.unique("litegroup");
        final long liteSentFrom = System.currentTimeMillis();
        final boolean[] liteReady = {false};
        step("lite set-up (updateTopic, updateSubGroup --attributes)", () -> {
            String out = mqadmin("updateTopic", "-c", CLUSTER, "-t", liteParent, "-a",
                                 "+message.type=LITE,+lite.topic.expiration=" + LITE_TTL);
            Check.that(out.contains("create topic to " + brokerAddr + " success.") && out.contains("message.type=LITE"),
                       "updateTopic of the LITE parent did not report success:%n%s", out);
            out = mqadmin("updateSubGroup", "-c", CLUSTER, "-g", liteGroup, "--attributes", "+lite.bind.topic=" + liteParent);
            Check.that(out.contains("create subscription group to " + brokerAddr + " success."),
                       "updateSubGroup of the lite group did not report success:%n%s", out);
            for (var e : new java.util.TreeMap<>(LITE_SENT).entrySet()) {
                for (int i = 0; i < e.getValue(); ++i) {
                    Message message = new Message(liteParent, "TagL", "lite-" + e.getKey() + "-" + i,
                                                  ("lite-" + e.getKey() + "-" + i).getBytes(StandardCharsets.UTF_8));
                    MessageAccessor.setLiteTopic(message, e.getKey());
                    Check.equal(SendStatus.SEND_OK, producer.send(message).getSendStatus(),
                                "send status of lite-" + e.getKey() + "-" + i);
                }
            }
            UpdateConsumerOffsetRequestHeader commit = new UpdateConsumerOffsetRequestHeader();
            commit.setConsumerGroup(liteGroup);
            commit.setTopic(LiteUtil.toLmqName(liteParent, "a"));
            commit.setQueueId(0);
            commit.setCommitOffset(LITE_COMMITTED_A);
            producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl()
                .updateConsumerOffset(brokerAddr, commit, 10_000);
            liteReady[0] = true;
        });
        if (liteReady[0]) {
            final int sentA = LITE_SENT.get("a");
            final long lagA = sentA - LITE_COMMITTED_A;
            // getBrokerLiteInfo -d: the broker's LMQ count (this run's two lite topics), no lite
            // subscription, and the parent's TTL and lite group.
            step("getBrokerLiteInfo", () -> {
                String out = liteAdmin("getBrokerLiteInfo", "-b", brokerAddr, "-d");
                Check.that(Pattern.compile("(?m)^" + Pattern.quote(brokerAddr) + "\\s+default\\s+\\d+\\s+" + LITE_SENT.size()
                                           + "\\s+0\\s+0\\s+\\d+\\s+\\d+\\s+0\\s*$").matcher(out).find(),
                           "getBrokerLiteInfo shows no line '%s default <max> %d 0 0 <cq> <offsets> 0':%n%s", brokerAddr,
                           LITE_SENT.size(), out);
                Check.that(out.contains("Topic Meta: ") && out.contains("\"" + liteParent + "\":" + LITE_TTL),
                           "getBrokerLiteInfo -d does not show %s's TTL %d:%n%s", liteParent, LITE_TTL, out);
                Check.that(out.contains("Group Meta: ") && out.contains("\"" + liteParent + "\":[\"" + liteGroup + "\"]"),
                           "getBrokerLiteInfo -d does not show %s bound to %s:%n%s", liteGroup, liteParent, out);
            });

            // getParentTopicInfo: TTL, the parent's lite topic count, the broker's LMQ count, the group.
            step("getParentTopicInfo", () -> {
                String out = liteAdmin("getParentTopicInfo", "-p", liteParent);
                Check.that(Pattern.compile("(?m)^" + BROKER_NAME + "\\s+" + LITE_TTL + "\\s+" + LITE_SENT.size() + "\\s+"
                                           + LITE_SENT.size() + "\\s+\\[" + Pattern.quote(liteGroup) + "\\]\\s*$")
                               .matcher(out).find(),
                           "getParentTopicInfo shows no line '%s %d %d %d [%s]':%n%s", BROKER_NAME, LITE_TTL, LITE_SENT.size(),
                           LITE_SENT.size(), liteGroup, out);
            });

            // getLiteTopicInfo: lite topic a's LMQ, offsets 0 to the number sent, the last store time,
            // owned by this broker, no subscriber.
            step("getLiteTopicInfo", () -> {
                String out = liteAdmin("getLiteTopicInfo", "-p", liteParent, "-l", "a");
                Check.that(out.contains("[" + LiteUtil.toLmqName(liteParent, "a") + "]"),
                           "getLiteTopicInfo does not name the LMQ %s:%n%s", LiteUtil.toLmqName(liteParent, "a"), out);
                Check.that(Pattern.compile("(?m)^" + BROKER_NAME + "\\s+0\\s+" + sentA + "\\s+" + HUMAN_TIME
                                           + "\\s+true\\s+0\\s*$").matcher(out).find(),
                           "getLiteTopicInfo shows no line '%s 0 %d <last update> true 0':%n%s", BROKER_NAME, sentA, out);
            });

            // getLiteClientInfo of a client the broker does not know: no count, no access time.
            step("getLiteClientInfo", () -> {
                String out = liteAdmin("getLiteClientInfo", "-p", liteParent, "-g", liteGroup, "-c", "127.0.0.1@unknown");
                Check.that(Pattern.compile("(?m)^" + BROKER_NAME + "\\s+N/A\\s+N/A\\s+N/A\\s*$").matcher(out).find(),
                           "getLiteClientInfo of an unknown client shows no line '%s N/A N/A N/A':%n%s", BROKER_NAME, out);
            });

            // getLiteGroupInfo: the group's lag, all in a (b has no committed offset), since the
            // message at the committed offset; then a's offsets alone (-l).
            step("getLiteGroupInfo", () -> {
                String out = liteAdmin("getLiteGroupInfo", "-p", liteParent, "-g", liteGroup);
                Check.that(out.contains("Total Lag Count: " + lagA), "getLiteGroupInfo does not show the lag %d:%n%s", lagA, out);
                Check.that(Pattern.compile("(?m)^1\\s+a\\s+" + lagA + "\\s+" + HUMAN_TIME + "\\s*$").matcher(out).find()
                               && !Pattern.compile("(?m)^\\d+\\s+b\\s").matcher(out).find(),
                           "getLiteGroupInfo does not list a alone, with lag %d:%n%s", lagA, out);
                // (Java takes the group's earliest unconsumed time from lite pops, none here, so -1 there.)
                long earliest = minUnconsumed(out);
                Check.that(earliest == -1 || (earliest >= liteSentFrom - 1000 && earliest <= System.currentTimeMillis()),
                           "getLiteGroupInfo's earliest unconsumed time is neither -1 nor a store time of this run:%n%s", out);
                out = liteAdmin("getLiteGroupInfo", "-p", liteParent, "-g", liteGroup, "-l", "a");
                Check.that(Pattern.compile("(?m)^" + BROKER_NAME + "\\s+" + sentA + "\\s+" + LITE_COMMITTED_A + "\\s+" + lagA
                                           + "\\s+" + HUMAN_TIME + "\\s*$").matcher(out).find()
                               && out.contains("Total Lag Count: " + lagA),
                           "getLiteGroupInfo -l a shows no line '%s %d %d %d <time>' and lag %d:%n%s", BROKER_NAME, sentA,
                           LITE_COMMITTED_A, lagA, lagA, out);
                // With -l, the store time of a's message at the committed offset.
                long earliestA = minUnconsumed(out);
                Check.that(earliestA >= liteSentFrom - 1000 && earliestA <= System.currentTimeMillis(),
                           "getLiteGroupInfo -l a: the earliest unconsumed time is not a store time of this run:%n%s", out);
            });

            // triggerLiteDispatch: answered SUCCESS (no client to dispatch to).
            step("triggerLiteDispatch", () -> {
                String out = liteAdmin("triggerLiteDispatch", "-p", liteParent, "-g", liteGroup);
                Check.that(Pattern.compile("(?m)^" + BROKER_NAME + "\\s+dispatched\\s*$").matcher(out).find(),
                           "triggerLiteDispatch shows no line '%s dispatched':%n%s", BROKER_NAME, out);
            });
        }

        if (!failures.isEmpty())
            throw new AssertionError(failures.size() + " mqadmin step(s) failed:\n" + String.join("\n\n", failures));
    }

    private static void checkMessage(String out, String what, String topic, SendResult probe, String key, String body) {
        Map<String, String> fields = keyValues(out, ":");
        // queryMsgByUniqueKey prints no OffsetID line.
        if (fields.containsKey("OffsetID") || what.startsWith("queryMsgById"))
            Check.equal(probe.getOffsetMsgId(), fields.get("OffsetID"), what + " OffsetID");
        Check.equal(topic, fields.get("Topic"), what + " Topic");
        Check.equal("[TagA]", fields.get("Tags"), what + " Tags");
        Check.equal("[" + key + "]", fields.get("Keys"), what + " Keys");
        Check.equal(Integer.toString(probe.getMessageQueue().getQueueId()), fields.get("Queue ID"), what + " Queue ID");
        Check.equal(Long.toString(probe.getQueueOffset()), fields.get("Queue Offset"), what + " Queue Offset");
        if (body != null)
            Check.equal(body, fields.get("Message Body"), what + " Message Body");
    }

    /** getLiteGroupInfo's "Min Unconsumed Timestamp: <ms> (<s> s ago)", Long.MIN_VALUE when absent. */
    private static long minUnconsumed(String out) {
        java.util.regex.Matcher m = Pattern.compile("(?m)^Min Unconsumed Timestamp: (-?\\d+) ").matcher(out);
        return m.find() ? Long.parseLong(m.group(1)) : Long.MIN_VALUE;
    }

    /** The JSON object of one group in subscriptionGroup.json, whitespace removed ("" when absent). */
    private static String groupEntry(String json, String group) {
        int at = json.indexOf("\"" + group + "\"");
        if (at < 0)
            return "";
        int open = json.indexOf('{', at);
        int depth = 0;
        for (int i = open; i >= 0 && i < json.length(); ++i) {
            char c = json.charAt(i);
            if (c == '{')
                ++depth;
            else if (c == '}' && --depth == 0)
                return json.substring(open, i + 1).replaceAll("\\s", "");
        }
        return "";
    }

    private static List<String> lines(String out) {
        List<String> result = new ArrayList<>();
        for (String line : out.split("\n"))
            result.add(line.trim());
        return result;
    }

    /** "key SEP value" lines (the first SEP splits), keys and values trimmed. */
    private static Map<String, String> keyValues(String out, String separator) {
        Map<String, String> result = new java.util.LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int at = line.indexOf(separator);
            if (at > 0)
                result.putIfAbsent(line.substring(0, at).trim(), line.substring(at + separator.length()).trim());
        }
        return result;
    }

    private volatile String lastOutput = "";
    private final List<String> failures = new ArrayList<>();

    private interface Step {
        void run() throws Exception;
    }

    /** Runs one command's checks; a failed check is recorded and the next command still runs. */
    private void step(String command, Step body) throws Exception {
        try {
            body.run();
            Log.info("PASS %s", command);
        } catch (AssertionError e) {
            Log.info("FAIL %s: %s", command, e.getMessage());
            failures.add(command + ": " + e.getMessage());
        }
    }

    /** Runs one mqadmin command; requires exit 0 and no stack trace; returns its stdout. */
    private String mqadmin(String command, String... args) throws IOException, InterruptedException {
        Result r = run(command, args);
        Check.that(r.exit == 0, "mqadmin %s exited %d:%n%s%n%s", command, r.exit, r.out, r.err);
        Check.that(!r.failed(), "mqadmin %s failed (exit %d):%n%s%n%s", command, r.exit, r.out, r.err);
        return r.out;
    }

    /**
     * A LiteTopic command: as mqadmin(), and no broker's "[name] error." (the lite commands catch a
     * broker's failed answer, print that line and go on).
     */
    private String liteAdmin(String command, String... args) throws IOException, InterruptedException {
        String out = mqadmin(command, args);
        Check.that(!Pattern.compile("(?m)\\] error\\.$|\\serror\\s*$").matcher(out).find(),
                   "mqadmin %s shows a broker's error:%n%s", command, out);
        return out;
    }

    /** For polling: the output, or "" when the command failed. */
    private String mqadminQuiet(String command, String... args) {
        try {
            Result r = run(command, args);
            lastOutput = r.out + r.err;
            return r.exit == 0 && !r.failed() ? r.out : "";
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    private record Result(int exit, String out, String err) {
        boolean failed() {
            return err.contains("Exception") || out.contains("Exception") || err.contains("\tat org.apache");
        }
    }

    private static final AtomicInteger RUNS = new AtomicInteger();

    private Result run(String command, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Drocketmq.client.logRoot=" + env.root().resolve("mqadmin-logs"),
            "-Drocketmq.client.logLevel=WARN", "-Drocketmq.client.logUseSlf4j=false",
            "-Duser.home=" + env.root().resolve("mqadmin-home"),
            "-cp", System.getProperty("java.class.path"), "org.apache.rocketmq.tools.command.MQAdminStartup", command,
            "-n", namesrv));
        argv.addAll(List.of(args));
        int n = RUNS.incrementAndGet();
        Path outFile = env.root().resolve("mqadmin-" + n + "-" + command + ".out");
        Path errFile = env.root().resolve("mqadmin-" + n + "-" + command + ".err");
        Process process = new ProcessBuilder(argv).redirectOutput(outFile.toFile()).redirectError(errFile.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("mqadmin " + command + " did not finish within 60 s; output:\n"
                                     + Files.readString(outFile) + Files.readString(errFile));
        }
        Result r = new Result(process.exitValue(), Files.readString(outFile), Files.readString(errFile));
        Log.info("mqadmin %s %s: exit %d, %d lines", command, String.join(" ", args), r.exit,
                 r.out.split("\n").length);
        return r;
    }
}
