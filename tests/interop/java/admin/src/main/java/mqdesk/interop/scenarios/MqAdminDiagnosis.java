package mqdesk.interop.scenarios;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.JavaPeer;
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
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * mqadmin 5.x's consumer-diagnosis commands against mqdesk-broker, each compared with the same command
 * against a Java 5.x broker (and Java NameServer) started in the same run.
 *
 * On each side the Java client (rocketmq-client 5.x) creates a topic, runs a push consumer in group G,
 * sends MESSAGES messages with keys, and leaves a second group G2 lagging LAG messages behind (G2
 * consumed the first MESSAGES, committed, went offline; then LAG more were sent, which only G
 * consumes). Then each command runs in a child JVM (MQAdminStartup, as MqAdmin does) against both
 * sides at once, and the two outputs are compared by meaning: the same command succeeds on both and
 * shows the same facts (the one client, its subscription and queues, the offsets, the 24-hour
 * message counts, CR_SUCCESS, SEND_OK). A failed comparison is recorded and the next command still
 * runs; the scenario fails at the end listing every failed command with both outputs.
 *
 * Where the two legitimately differ, nothing is compared:
 *  - statsAll lists every topic of the broker: the Java broker has more system topics
 *    (rmq_sys_SYNC_BROKER_MEMBER_<broker>, RMQ_SYS_TRANS_HALF_TOPIC, RMQ_SYS_ROCKSDB_*, BenchmarkTest, ...);
 *    only the rows of this run's topic are compared. Its InTPS/OutTPS are rates over different windows
 *    (Java: the minute's 10-s samples; mqdesk: its own), so only the counts and the accumulation are.
 *  - The retry queue %RETRY%G (one queue, empty): whether consumerProgress lists it and whether the
 *    client's running info shows its offset as 0 or -1 depends on whether the client's first pull of
 *    it has been answered yet (Java holds it up to the long-polling suspend time); not compared.
 *  - The versions these commands print are the client's (V5_5_0 on both); no broker version shows.
 *  - The broker names differ (mqdesk-interop / java-broker-N): sendMsgStatus's topic is each one's.
 *
 * The Java NameServer and broker run on the javabroker module's classpath (target/classpath.txt,
 * rocketmq-namesrv + rocketmq-broker; Env picks it), so this module's classpath stays as it is.
 * The mqadmin children keep this module's classpath.
 */
public class MqAdminDiagnosis implements Scenario {
    private static final int QUEUES = 4;
    private static final int MESSAGES = 20;
    private static final int LAG = 10;
    private static final int SEND_STATUS_COUNT = 5;
    private static final String MQDESK_BROKER_NAME = "mqdesk-interop";

    /** One broker under test with what the setup made on it. */
    private static final class Side {
        final String label;
        String namesrv;
        String brokerAddr;
        String brokerName;
        String topic;
        String group;
        String group2;
        String clientId;
        SendResult probe;
        long lastSendNanos;
        final Map<String, AtomicInteger> consumed = new ConcurrentHashMap<>();
        Path cwd;

        Side(String label) {
            this.label = label;
        }
    }

    private Env env;
    private String adminClassPath;
    private final List<String> failures = new ArrayList<>();
    private final List<String> summary = new ArrayList<>();
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @Override
    public void run(Env env) throws Exception {
        this.env = env;
        this.adminClassPath = System.getProperty("java.class.path");
        env.closeLater(pool::shutdownNow);

        final Side mq = new Side("mqdesk");
        final Side java = new Side("java");

        // The Java side boots (~10-20 s) while the mqdesk side is set up.
        Future<?> javaSetup = pool.submit(() -> {
            startJavaPeers(java);
            setUp(java);
            return null;
        });
        MqdeskBroker broker = env.startBroker();
        mq.namesrv = broker.namesrvAddr();
        mq.brokerAddr = broker.brokerAddr();
        mq.brokerName = MQDESK_BROKER_NAME;
        setUp(mq);
        javaSetup.get(150, TimeUnit.SECONDS);

        // Java's stats items (BrokerStatsManager) are sampled every 10 s: the minute figures, hence
        // statsAll's 24-hour sums, include a put only after the next sample. Same wait for both.
        long sinceLastSend = TimeUnit.NANOSECONDS.toMillis(System.nanoTime()
                                                           - Math.max(mq.lastSendNanos, java.lastSendNanos));
        if (sinceLastSend < 12_000)
            Thread.sleep(12_000 - sinceLastSend);

        // statsAll first: Java keeps a minute's samples only, and its 24-hour figure falls back to the
        // minute's sum while the hour and day have no sample yet (StatsAllSubCommand#compute24HourSum).
        step("statsAll", both(mq, java, s -> mqadmin(s, "statsAll"), (s, out) -> {
            List<String[]> rows = statsRows(out, s.topic);
            Check.that(!rows.isEmpty(), "no row for %s", s.topic);
            String[] g = rowOf(rows, s.group);
            String[] g2 = rowOf(rows, s.group2);
            Check.that(g != null && g2 != null, "rows for %s do not show both %s and %s", s.topic, s.group, s.group2);
            // columns: topic group accumulation inTPS outTPS inMsg24h outMsg24h
            long inMsg = Long.parseLong(g[5]);
            Check.that(inMsg >= MESSAGES + LAG, "InMsg24Hour of %s is %d, fewer than the %d messages sent", s.topic, inMsg,
                       MESSAGES + LAG);
            Check.that(Long.parseLong(g[6]) >= MESSAGES + LAG, "OutMsg24Hour of %s is %s, fewer than the %d it consumed",
                       s.group, g[6], MESSAGES + LAG);
            Check.that(Long.parseLong(g2[6]) >= MESSAGES, "OutMsg24Hour of %s is %s, fewer than the %d it consumed",
                       s.group2, g2[6], MESSAGES);
            Check.equal("0", g[2], "Accumulation of " + s.group);
            Check.equal(Integer.toString(LAG), g2[2], "Accumulation of " + s.group2);
            return String.format("%s: Accumulation %s, InTPS %s, OutTPS %s, InMsg24Hour %s, OutMsg24Hour %s; %s: Accumulation %s, OutMsg24Hour %s",
                                 "G", g[2], g[3], g[4], g[5], g[6], "G2", g2[2], g2[6]);
        }));

        // consumerConnection: the one client, its subscription, push/clustering.
        step("consumerConnection -g G", both(mq, java, s -> mqadmin(s, "consumerConnection", "-g", s.group), (s, out) -> {
            Check.equal(List.of(s.clientId), clientIds(out, s), "clients of " + s.group);
            Check.that(Pattern.compile("(?m)^" + Pattern.quote(s.topic) + "\\s+\\*\\s*$").matcher(out).find(),
                       "no subscription line '%s *'", s.topic);
            Check.that(out.contains("ConsumeType: CONSUME_PASSIVELY") && out.contains("MessageModel: CLUSTERING"),
                       "not shown as a clustering push consumer");
            return "client " + s.clientId + " " + versionOf(out) + ", subscription " + s.topic + " *";
        }));

        // consumerStatus -g G: GET_CONSUMER_RUNNING_INFO through the broker to every client; mqadmin
        // writes each client's running info to <now>/<clientId> under its working directory.
        step("consumerStatus -g G", both(mq, java, s -> mqadmin(s, "consumerStatus", "-g", s.group), (s, out) -> {
            // "%-10d %-40s %-20s %s": index, client id, version, file
            Matcher m = Pattern.compile("(?m)^(\\d+)\\s+(\\S+@\\S+)\\s+(\\S+)\\s+(\\S+)\\s*$").matcher(out);
            List<String> clients = new ArrayList<>();
            String file = null;
            String version = null;
            while (m.find()) {
                clients.add(m.group(2));
                version = m.group(3);
                file = m.group(4);
            }
            Check.equal(List.of(s.clientId), clients, "clients listed");
            Check.that(out.contains("Same subscription in the same group of consumer") && out.contains("Rebalance OK"),
                       "no 'Same subscription' / 'Rebalance OK'");
            String info = Files.readString(s.cwd.resolve(file));
            checkRunningInfo(s, info, false);
            return "client " + s.clientId + " " + version + ", Rebalance OK, running info file: subscription + "
                   + QUEUES + " queues";
        }));

        // consumerStatus -g G -i <clientId> -s: the same running info on stdout, with the client's jstack.
        step("consumerStatus -g G -i <clientId> -s", both(mq, java,
            s -> mqadmin(s, "consumerStatus", "-g", s.group, "-i", s.clientId, "-s"), (s, out) -> {
                checkRunningInfo(s, out, true);
                return "running info " + out.length() + " chars: subscription, " + QUEUES + " queues, jstack "
                       + (out.length() - out.indexOf("#Consumer jstack#")) + " chars";
            }));

        // consumerProgress -g G: caught up on every queue.
        step("consumerProgress -g G", both(mq, java, s -> mqadmin(s, "consumerProgress", "-g", s.group), (s, out) -> {
            long[] totals = progress(s, out, false);
            Check.equal(0L, totals[1], "diff total of " + s.group);
            Check.that(out.contains("Diff Total: 0"), "no 'Diff Total: 0'");
            return "broker offsets total " + totals[0] + ", diff 0";
        }));

        // consumerProgress -g G -s: the client column (the client's address the broker saw, from the
        // running info's queue table).
        step("consumerProgress -g G -s", both(mq, java, s -> mqadmin(s, "consumerProgress", "-g", s.group, "-s", "true"),
            (s, out) -> {
                long[] totals = progress(s, out, true);
                Check.equal(0L, totals[1], "diff total of " + s.group);
                return "broker offsets total " + totals[0] + ", diff 0, every queue with client " + clientColumn;
            }));

        // consumerProgress -g G2: the offline group LAG behind.
        step("consumerProgress -g G2", both(mq, java, s -> mqadmin(s, "consumerProgress", "-g", s.group2), (s, out) -> {
            long[] totals = progress(s, out, false);
            Check.equal((long) LAG, totals[1], "diff total of " + s.group2);
            Check.that(out.contains("Diff Total: " + LAG), "no 'Diff Total: %d'", LAG);
            return "broker offsets total " + totals[0] + ", diff " + totals[1];
        }));

        // queryMsgById -g G -d <clientId>: CONSUME_MESSAGE_DIRECTLY through the broker to the client.
        step("queryMsgById -g G -d <clientId> -i <offsetMsgId>", both(mq, java,
            s -> mqadmin(s, "queryMsgById", "-t", s.topic, "-g", s.group, "-d", s.clientId, "-i", s.probe.getOffsetMsgId()),
            (s, out) -> {
                Matcher m = Pattern.compile("ConsumeMessageDirectlyResult \\[order=(\\w+), autoCommit=(\\w+), consumeResult=(\\w+)")
                                   .matcher(out);
                Check.that(m.find(), "no ConsumeMessageDirectlyResult");
                Check.equal("CR_SUCCESS", m.group(3), "consumeResult");
                Check.equal("false", m.group(1), "order");
                Check.equal("true", m.group(2), "autoCommit");
                return m.group(0) + "...]";
            }));

        // sendMsgStatus -b <brokerName>: sends to the topic named like the broker (Java creates it,
        // brokerTopicEnable; so does mqdesk-broker), one warm-up message then -c more.
        step("sendMsgStatus -b <brokerName>", both(mq, java,
            s -> mqadmin(s, "sendMsgStatus", "-b", s.brokerName, "-c", Integer.toString(SEND_STATUS_COUNT)), (s, out) -> {
                Matcher m = Pattern.compile("SendResult \\[sendStatus=(\\w+), msgId=\\w+, offsetMsgId=\\w+, messageQueue=MessageQueue \\[topic=([^,]+), brokerName=([^,]+),")
                                   .matcher(out);
                int ok = 0;
                while (m.find()) {
                    Check.equal("SEND_OK", m.group(1), "send status");
                    Check.equal(s.brokerName, m.group(2), "topic");
                    Check.equal(s.brokerName, m.group(3), "broker name");
                    ++ok;
                }
                Check.equal(SEND_STATUS_COUNT, ok, "SendResult ... SEND_OK lines");
                return ok + " x SendResult [sendStatus=SEND_OK, topic=" + s.brokerName + "]";
            }));

        Log.info("summary (mqdesk vs Java 5.x broker):\n  %s", String.join("\n  ", summary));
        if (!failures.isEmpty())
            throw new AssertionError(failures.size() + " command(s) differed:\n" + String.join("\n\n", failures));
    }

    // ---- setup ----

    /** A Java NameServer and broker on the javabroker module's classpath (see the class comment). */
    private void startJavaPeers(Side java) throws Exception {
        // On the javabroker module's class path (Env finds it: this module has no rocketmq-namesrv).
        JavaPeer namesrv = env.startJavaNamesrv();
        JavaPeer broker = env.startJavaBroker(namesrv.addr(), env.root().resolve("java-store"));
        java.namesrv = namesrv.addr();
        java.brokerAddr = broker.addr();
        // JavaPeer names the broker after its folder: java-broker-<n>.
        java.brokerName = broker.root().getFileName().toString();
    }

    private void setUp(Side s) throws Exception {
        s.cwd = Files.createDirectories(env.root().resolve("mqadmin-" + s.label));
        s.topic = env.unique("diag");
        s.group = env.unique("G");
        s.group2 = env.unique("G2");

        DefaultMQProducer producer = new DefaultMQProducer(env.unique("pg"));
        producer.setNamesrvAddr(s.namesrv);
        producer.setInstanceName(env.unique("producer-" + s.label));
        producer.setSendMsgTimeout(10_000);
        producer.start();
        env.shutdownLater(producer::shutdown);

        DefaultMQAdminExt admin = new DefaultMQAdminExt();
        admin.setNamesrvAddr(s.namesrv);
        admin.setInstanceName(env.unique("admin-" + s.label));
        admin.start();
        env.shutdownLater(admin::shutdown);

        // The Java broker prints "boot success" before its first registration with the NameServer has
        // landed: wait until the NameServer routes TBW102 (createTopic's key) to it.
        Check.eventually(Duration.ofSeconds(30), () -> {
            try {
                return !admin.examineTopicRouteInfo("TBW102").getBrokerDatas().isEmpty();
            } catch (Exception e) {
                return false;
            }
        }, s.label + ": the NameServer routes TBW102");
        producer.createTopic("TBW102", s.topic, QUEUES, Map.of());

        DefaultMQPushConsumer consumer = consumer(s, s.group, s.consumed);
        Map<String, AtomicInteger> consumed2 = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer2 = consumer(s, s.group2, consumed2);

        for (int i = 0; i < MESSAGES; ++i) {
            SendResult r = send(producer, s.topic, "key-" + i);
            if (i == 7)
                s.probe = r;
        }
        Check.eventually(Duration.ofSeconds(60), () -> s.consumed.size() == MESSAGES && consumed2.size() == MESSAGES,
                         s.label + ": both groups consumed every message",
                         () -> s.consumed.size() + " / " + consumed2.size());
        // G2's offsets reach the broker (persisted every second), then G2 goes offline.
        Check.eventually(Duration.ofSeconds(30), () -> committed(admin, s.group2) == MESSAGES,
                         s.label + ": " + s.group2 + " committed every message", () -> committed(admin, s.group2));
        consumer2.shutdown();
        for (int i = 0; i < LAG; ++i)
            send(producer, s.topic, "lag-" + i);
        s.lastSendNanos = System.nanoTime();
        Check.eventually(Duration.ofSeconds(60), () -> s.consumed.size() == MESSAGES + LAG,
                         s.label + ": " + s.group + " consumed the later messages", s.consumed::size);
        Check.eventually(Duration.ofSeconds(30), () -> committed(admin, s.group) == MESSAGES + LAG,
                         s.label + ": " + s.group + " committed every message", () -> committed(admin, s.group));
        s.clientId = consumer.getDefaultMQPushConsumerImpl().getmQClientFactory().getClientId();
        Log.info("%s side ready: topic %s, %s (client %s) caught up, %s %d behind", s.label, s.topic, s.group, s.clientId,
                 s.group2, LAG);
    }

    private DefaultMQPushConsumer consumer(Side s, String group, Map<String, AtomicInteger> consumed) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(s.namesrv);
        consumer.setInstanceName(env.unique("consumer-" + s.label));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1000);
        consumer.setPersistConsumerOffsetInterval(1000);
        consumer.subscribe(s.topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs)
                consumed.computeIfAbsent(m.getKeys(), k -> new AtomicInteger()).incrementAndGet();
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        env.shutdownLater(consumer::shutdown);
        return consumer;
    }

    private static SendResult send(DefaultMQProducer producer, String topic, String key) throws Exception {
        Message message = new Message(topic, "TagA", key, ("body-" + key).getBytes(StandardCharsets.UTF_8));
        SendResult r = producer.send(message);
        Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "send status of " + key);
        return r;
    }

    /** The group's committed offsets summed over its queues (-1 when the broker cannot say). */
    private static long committed(DefaultMQAdminExt admin, String group) {
        try {
            ConsumeStats stats = admin.examineConsumeStats(group);
            return stats.getOffsetTable().values().stream().mapToLong(w -> w.getConsumerOffset()).sum();
        } catch (Exception e) {
            return -1;
        }
    }

    // ---- checks ----

    /** ConsumerRunningInfo#formatString: properties, the subscription, the queue table (and jstack). */
    private static void checkRunningInfo(Side s, String info, boolean jstack) {
        Check.that(info.contains("#Consumer Properties#") && info.contains("#Consumer Subscription#")
                       && info.contains("#Consumer Offset#") && info.contains("#Consumer MQ Detail#"),
                   "running info lacks a section:%n%s", head(info));
        Check.that(Pattern.compile("(?m)^PROP_CONSUMER_START_TIMESTAMP\\s*:\\s*\\d+").matcher(info).find(),
                   "running info has no PROP_CONSUMER_START_TIMESTAMP");
        Check.that(info.contains("consumerGroup") && info.contains(s.group), "running info does not name %s", s.group);
        // "%03d Topic: %-40s ClassFilter: %-8s SubExpression: %s"
        Check.that(Pattern.compile("(?m)^\\d{3}\\s+Topic:\\s+" + Pattern.quote(s.topic) + "\\s+ClassFilter:\\s+false\\s+SubExpression:\\s+\\*")
                       .matcher(info).find(),
                   "running info does not show the subscription %s *", s.topic);
        // The queue table (#Consumer MQ Detail#): "topic brokerName qid ProcessQueueInfo [commitOffset=N, ...]",
        // every queue of the topic held by this client, committed up to the end.
        TreeSet<Integer> queues = new TreeSet<>();
        long committed = 0;
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(s.topic) + "\\s+" + Pattern.quote(s.brokerName)
                                    + "\\s+(\\d+)\\s+ProcessQueueInfo \\[commitOffset=(-?\\d+),").matcher(info);
        while (m.find()) {
            queues.add(Integer.parseInt(m.group(1)));
            committed += Long.parseLong(m.group(2));
        }
        Check.equal(new TreeSet<>(List.of(0, 1, 2, 3)), queues, "queues of " + s.topic + " in the running info's MQ detail");
        Check.equal((long) MESSAGES + LAG, committed, "commitOffset of " + s.topic + "'s queues summed (running info)");
        Check.equal(jstack, info.contains("#Consumer jstack#"), "a jstack section");
        if (jstack)
            Check.that(info.substring(info.indexOf("#Consumer jstack#")).contains("ConsumeMessageThread"),
                       "the jstack does not show the consume threads");
    }

    private String clientColumn = "";

    /**
     * consumerProgress's queue lines of s.topic ({topic broker qid brokerOffset consumerOffset [client]
     * diff ...}), each checked; returns {sum of broker offsets, sum of diffs}.
     */
    private long[] progress(Side s, String out, boolean clientIp) {
        Check.that(!clientIp || out.contains("#Client IP"), "no #Client IP column");
        long brokerTotal = 0;
        long diffTotal = 0;
        TreeSet<Integer> queues = new TreeSet<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 6 || !f[0].equals(s.topic))
                continue;
            Check.equal(s.brokerName, f[1], "broker name in " + line);
            queues.add(Integer.parseInt(f[2]));
            long brokerOffset = Long.parseLong(f[3]);
            long consumerOffset = Long.parseLong(f[4]);
            brokerTotal += brokerOffset;
            diffTotal += brokerOffset - consumerOffset;
            if (clientIp) {
                String ip = s.clientId.substring(0, s.clientId.indexOf('@'));
                Check.that(f[5].equals(ip) || f[5].equals("127.0.0.1"), "client column of %s is %s, not the client's address",
                           line.trim(), f[5]);
                clientColumn = f[5];
            }
        }
        Check.equal(new TreeSet<>(List.of(0, 1, 2, 3)), queues, "queues of " + s.topic);
        Check.equal((long) MESSAGES + LAG, brokerTotal, "broker offsets of " + s.topic + " summed");
        return new long[] {brokerTotal, diffTotal};
    }

    /** statsAll rows (whitespace-split) of one topic. */
    private static List<String[]> statsRows(String out, String topic) {
        List<String[]> rows = new ArrayList<>();
        for (String line : out.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 7 && f[0].equals(topic))
                rows.add(f);
        }
        return rows;
    }

    private static String[] rowOf(List<String[]> rows, String group) {
        for (String[] r : rows)
            if (r[1].equals(group))
                return r;
        return null;
    }

    /** consumerConnection's client lines: "clientId  clientAddr  language  version". */
    private static List<String> clientIds(String out, Side s) {
        List<String> ids = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^(\\S+@\\S+)\\s+\\S+\\s+\\S+\\s+V\\S+\\s*$").matcher(out);
        while (m.find())
            ids.add(m.group(1));
        return ids;
    }

    private static String versionOf(String out) {
        Matcher m = Pattern.compile("(V\\d+_\\d+_\\d+\\S*)").matcher(out);
        return m.find() ? m.group(1) : "(no version)";
    }

    private static String head(String s) {
        String[] lines = s.split("\n");
        return String.join("\n", java.util.Arrays.copyOf(lines, Math.min(lines.length, 40)));
    }

    // ---- running both sides ----

    private interface Command {
        String run(Side s) throws Exception;
    }

    private interface Compare {
        /** Checks one side's output; returns a one-line summary of what it showed. */
        String check(Side s, String out) throws Exception;
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs the command against both sides at once, then checks each output. */
    private Step both(Side mq, Side java, Command command, Compare compare) {
        return () -> {
            Future<String> onJava = pool.submit((Callable<String>) () -> command.run(java));
            String mqOut = null;
            Throwable mqError = null;
            try {
                mqOut = command.run(mq);
            } catch (AssertionError e) {
                mqError = e;
            }
            String javaOut = null;
            Throwable javaError = null;
            try {
                javaOut = onJava.get(90, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                javaError = e.getCause();
            }
            String mqSummary = null;
            String javaSummary = null;
            List<String> errors = new ArrayList<>();
            if (mqError == null) {
                try {
                    mqSummary = compare.check(mq, mqOut);
                } catch (AssertionError e) {
                    mqError = e;
                }
            }
            if (javaError == null) {
                try {
                    javaSummary = compare.check(java, javaOut);
                } catch (AssertionError e) {
                    javaError = e;
                }
            }
            summary.add(String.format("%s%n      mqdesk: %s%n      java:   %s", currentStep,
                                      mqError == null ? mqSummary : "FAILED " + firstLine(mqError.getMessage()),
                                      javaError == null ? javaSummary : "FAILED " + firstLine(javaError.getMessage())));
            if (mqError != null)
                errors.add("against mqdesk-broker: " + mqError.getMessage() + "\n-- mqdesk output:\n" + orNone(mqOut));
            if (javaError != null)
                errors.add("against the Java broker: " + javaError.getMessage() + "\n-- java output:\n" + orNone(javaOut));
            if (mqError != null || javaError != null) {
                if (mqError == null)
                    errors.add("(passed against mqdesk-broker; its output:)\n" + orNone(mqOut));
                if (javaError == null)
                    errors.add("(passed against the Java broker; its output:)\n" + orNone(javaOut));
                throw new AssertionError(String.join("\n", errors));
            }
        };
    }

    private static String firstLine(String s) {
        int at = s == null ? -1 : s.indexOf('\n');
        return at < 0 ? String.valueOf(s) : s.substring(0, at);
    }

    private static String orNone(String s) {
        return s == null ? "(none)" : s;
    }

    private String currentStep = "";

    private void step(String command, Step body) throws Exception {
        currentStep = command;
        try {
            body.run();
            Log.info("PASS %s", command);
        } catch (AssertionError e) {
            Log.info("FAIL %s: %s", command, e.getMessage());
            failures.add(command + ": " + e.getMessage());
        }
    }

    private static final AtomicInteger RUNS = new AtomicInteger();

    /**
     * Runs one mqadmin command against one side in a child JVM (working directory s.cwd: consumerStatus
     * writes files there); requires exit 0 and no exception; returns its stdout.
     */
    private String mqadmin(Side s, String command, String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Xss512k", "-Drocketmq.client.logRoot=" + env.root().resolve("mqadmin-logs"),
            "-Drocketmq.client.logLevel=WARN", "-Drocketmq.client.logUseSlf4j=false",
            "-Duser.home=" + env.root().resolve("mqadmin-home"),
            "-cp", adminClassPath, "org.apache.rocketmq.tools.command.MQAdminStartup", command, "-n", s.namesrv));
        argv.addAll(List.of(args));
        int n = RUNS.incrementAndGet();
        Path outFile = s.cwd.resolve(n + "-" + command + ".out");
        Path errFile = s.cwd.resolve(n + "-" + command + ".err");
        long start = System.nanoTime();
        Process process = new ProcessBuilder(argv).directory(s.cwd.toFile()).redirectOutput(outFile.toFile())
                                                  .redirectError(errFile.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("mqadmin " + command + " did not finish within 60 s; output:\n"
                                     + Files.readString(outFile) + Files.readString(errFile));
        }
        String out = Files.readString(outFile);
        String err = Files.readString(errFile);
        Log.info("[%s] mqadmin %s %s: exit %d, %d lines, %d ms", s.label, command, String.join(" ", args),
                 process.exitValue(), out.split("\n").length, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        Check.that(process.exitValue() == 0, "mqadmin %s exited %d:%n%s%n%s", command, process.exitValue(), out, err);
        // mqadmin catches a failed command, prints the stack trace (stderr) and still exits 0. stdout
        // is checked for an exception line only: consumerStatus -s prints the client's jstack there.
        Check.that(!(err.contains("Exception") || err.contains("\tat ")
                     || Pattern.compile("(?m)^[\\w.$]+(Exception|Error)(: |\\s*$)").matcher(out).find()),
                   "mqadmin %s failed:%n%s%n%s", command, out, err);
        return out;
    }
}
