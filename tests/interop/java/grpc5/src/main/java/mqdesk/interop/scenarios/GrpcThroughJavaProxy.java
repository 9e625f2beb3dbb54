package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.JavaPeer;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * The Java SDK 5.x through a Java RocketMQ Proxy 5.5 (cluster mode) in front of mqdesk-broker, as a
 * 5.x deployment runs: messages sent and popped through the proxy land in and come from MQDesk's
 * store, and the group's lag at the broker is what the operators' tools read for any group (what was
 * popped moves the offset). In cluster mode the proxy keeps its clients to itself (it sends brokers
 * no heartbeat for them; HeartbeatSyncer shares them among proxies), so the broker lists no
 * connection for the group. The group is created first: for a group the broker does not have, the
 * SimpleConsumer's startup timed out (its settings never completed).
 */
public class GrpcThroughJavaProxy implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = Grpc5.startBroker(env);
        String topic = Grpc5.topic(env, broker, "NORMAL", 2);
        JavaPeer proxy = env.closeLater(JavaPeer.proxy(env.root().resolve("java-proxy"), broker.namesrvAddr(),
                                                       JavaPeer.javaBrokerClassPath()).start());
        ClientConfiguration viaProxy = ClientConfiguration.newBuilder().setEndpoints(proxy.addr()).enableSsl(false)
            .setRequestTimeout(Duration.ofSeconds(5)).build();

        Producer producer = env.closeLater(Grpc5.PROVIDER.newProducerBuilder().setClientConfiguration(viaProxy)
            .setTopics(topic).build());
        for (int i = 0; i < 10; ++i)
            producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(topic).setTag("p")
                .setBody(("proxied " + i).getBytes(StandardCharsets.UTF_8)).build());

        String group = Grpc5.group(env, broker, false);
        SimpleConsumer consumer = env.closeLater(Grpc5.PROVIDER.newSimpleConsumerBuilder()
            .setClientConfiguration(viaProxy).setConsumerGroup(group)
            .setSubscriptionExpressions(Map.of(topic, FilterExpression.SUB_ALL))
            .setAwaitDuration(Duration.ofSeconds(5)).build());
        List<MessageView> first = consumer.receive(4, Duration.ofSeconds(30));
        Check.that(!first.isEmpty() && first.size() <= 4, "a first receive of at most 4 through the proxy: %s", first);
        for (MessageView view : first)
            consumer.ack(view);

        DefaultMQAdminExt admin = new DefaultMQAdminExt(5000);
        admin.setNamesrvAddr(broker.namesrvAddr());
        admin.setInstanceName(env.unique("admin"));
        admin.start();
        try {
            // The broker's own figures for the group: what was popped is consumed, the rest lags.
            long lag = -1;
            for (int attempt = 0; attempt < 50; ++attempt) {
                ConsumeStats stats = admin.examineConsumeStats(group, topic);
                lag = stats.computeTotalDiff();
                if (lag == 10 - first.size())
                    break;
                Thread.sleep(200);
            }
            Check.equal(10L - first.size(), lag, "the group's lag at mqdesk-broker after " + first.size() + " popped");

            // The rest, consumed through the proxy: no lag left.
            int rest = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (rest < 10 - first.size() && System.nanoTime() < deadline) {
                for (MessageView view : consumer.receive(16, Duration.ofSeconds(30))) {
                    consumer.ack(view);
                    ++rest;
                }
            }
            Check.equal(10 - first.size(), rest, "the rest received through the proxy");
            Check.equal(0L, admin.examineConsumeStats(group, topic).computeTotalDiff(), "no lag once all was popped");
        } finally {
            admin.shutdown();
        }
    }
}
