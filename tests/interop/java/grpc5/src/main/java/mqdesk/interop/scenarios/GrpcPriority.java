package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.JavaPeer;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;

/**
 * Priority messages (RocketMQ 5.4) as the Java SDK 5.2 and the 5.5 remoting client send them, against
 * mqdesk-broker and, side by side, a Java 5.5 broker behind a Java 5.5 proxy. On a PRIORITY topic of
 * four queues a backlog is sent lowest priority first: the priority picks the queue (one above the last
 * queue shares the last), and a SimpleConsumer then receives it highest priority first, each message
 * with the priority it was sent with. Both brokers answer every step alike and deliver the same
 * sequence. A priority message to a NORMAL topic is refused by the SDK on both (the route says NORMAL).
 */
public class GrpcPriority implements Scenario {
    private static final int QUEUES = 4;

    /** One broker as the scenario reaches it. */
    private record Target(String name, ClientConfiguration grpc, String namesrvAddr, String brokerAddr) {}

    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker mqdesk = Grpc5.startBroker(env);
        Target mqdeskTarget = new Target("mqdesk-broker", Grpc5.config(mqdesk), mqdesk.namesrvAddr(), mqdesk.brokerAddr());

        JavaPeer namesrv = env.startJavaNamesrv();
        JavaPeer broker = env.startJavaBroker(namesrv.addr(), env.root().resolve("java-store"));
        JavaPeer proxy = env.closeLater(JavaPeer.proxy(env.root().resolve("java-proxy"), namesrv.addr(),
                                                       JavaPeer.javaBrokerClassPath()).start());
        Target javaTarget = new Target("Java 5.5 broker + proxy", ClientConfiguration.newBuilder()
            .setEndpoints(proxy.addr()).enableSsl(false).setRequestTimeout(Duration.ofSeconds(5)).build(),
            namesrv.addr(), broker.addr());

        List<String> fromMqdesk = backlogReceived(env, mqdeskTarget);
        List<String> fromJava = backlogReceived(env, javaTarget);
        Check.equal(fromJava, fromMqdesk, "the backlog's delivery order on mqdesk-broker as on the Java broker");
    }

    /** Sends the backlog, receives it; answers the bodies in the order they came. */
    private static List<String> backlogReceived(Env env, Target target) throws Exception {
        String topic = env.unique("grpcPriority");
        String normalTopic = env.unique("grpcNormal");
        String group = env.unique("grpcPriorityGroup");
        admin(env, target, "updateTopic", "-t", topic, "-r", Integer.toString(QUEUES), "-w", Integer.toString(QUEUES),
              "-a", "+message.type=PRIORITY");
        admin(env, target, "updateTopic", "-t", normalTopic, "-r", "2", "-w", "2", "-a", "+message.type=NORMAL");
        admin(env, target, "updateSubGroup", "-g", group);

        // Through the SDK: three rounds of priorities 0, 1, 2 and 7 (7 shares queue 3).
        Producer producer = Grpc5.PROVIDER.newProducerBuilder().setClientConfiguration(target.grpc())
            .setTopics(topic, normalTopic).build();
        List<String> sent = new ArrayList<>();
        try {
            for (int round = 0; round < 3; ++round) {
                for (int priority : new int[] {0, 1, 2, 7}) {
                    String body = "sdk-r" + round + "-p" + priority;
                    producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(topic).setTag("prio").setKeys(body)
                        .setPriority(priority).setBody(body.getBytes(StandardCharsets.UTF_8)).build());
                    sent.add(body);
                }
            }
            try {
                producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(normalTopic).setPriority(1)
                    .setBody("refused".getBytes(StandardCharsets.UTF_8)).build());
                Check.that(false, "%s: a priority message to a NORMAL topic was sent", target.name());
            } catch (Exception expected) {
                Log.info("%s: a priority message to a NORMAL topic: %s", target.name(), expected);
            }
        } finally {
            producer.close();
        }

        // Through the remoting client: Message#setPriority; the answer names the queue the broker chose.
        DefaultMQProducer remoting = new DefaultMQProducer(env.unique("prioProducer"));
        remoting.setNamesrvAddr(target.namesrvAddr());
        remoting.setInstanceName(env.unique("prio"));
        remoting.start();
        try {
            for (int priority : new int[] {3, 1}) {
                String body = "remoting-p" + priority;
                Message message = new Message(topic, "prio", body.getBytes(StandardCharsets.UTF_8));
                message.setPriority(priority);
                SendResult result = remoting.send(message, 5000);
                Check.equal(Math.min(priority, QUEUES - 1), result.getMessageQueue().getQueueId(),
                            target.name() + ": the queue of a remoting send of priority " + priority);
                sent.add(body);
            }
        } finally {
            remoting.shutdown();
        }

        try (SimpleConsumer consumer = Grpc5.PROVIDER.newSimpleConsumerBuilder().setClientConfiguration(target.grpc())
                 .setConsumerGroup(group).setSubscriptionExpressions(Map.of(topic, FilterExpression.SUB_ALL))
                 .setAwaitDuration(Duration.ofSeconds(5)).build()) {
            List<MessageView> views = Grpc5.receive(consumer, sent.size(), Duration.ofSeconds(60), true);
            List<String> bodies = new ArrayList<>();
            int lastQueue = Integer.MAX_VALUE;
            for (MessageView view : views) {
                String body = Grpc5.text(view.getBody());
                int priority = Integer.parseInt(body.substring(body.lastIndexOf('p') + 1));
                Check.equal(java.util.Optional.of(priority), view.getPriority(), target.name() + ": " + body + "'s priority");
                int queue = Math.min(priority, QUEUES - 1);
                Check.that(queue <= lastQueue, "%s: %s (priority %d) came after a lower priority: %s", target.name(),
                           body, priority, bodies);
                lastQueue = queue;
                bodies.add(body);
            }
            Check.equal(sent.size(), bodies.size(), target.name() + ": messages received");
            Log.info("%s delivered %s", target.name(), bodies);
            return bodies;
        }
    }

    private static void admin(Env env, Target target, String command, String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of(env.adminBinary().toString(), "-n", target.namesrvAddr(), command,
                                                    "-b", target.brokerAddr()));
        line.addAll(List.of(args));
        var result = env.runTool(line);
        Check.equal(0, result.exitStatus(), target.name() + ": mqdesk-admin " + command + ": " + result.stderr());
    }
}
