package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.apis.consumer.ConsumeResult;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.remoting.protocol.body.CMResult;
import org.apache.rocketmq.remoting.protocol.body.ConsumeMessageDirectlyResult;
import org.apache.rocketmq.remoting.protocol.body.ConsumerConnection;
import org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo;
import org.apache.rocketmq.remoting.protocol.heartbeat.SubscriptionData;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;

/**
 * What operators' tools ask of a 5.x SDK's client through the broker, as the Java proxy relays it:
 * the consumer's running info with its thread stacks (GET_CONSUMER_RUNNING_INFO, a telemetry
 * PrintThreadStackTraceCommand) and a stored message consumed again by the client's listener
 * (CONSUME_MESSAGE_DIRECTLY, a VerifyMessageCommand), asked by rocketmq-tools 5.5's admin client.
 */
public class GrpcClientCalls implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = Grpc5.startBroker(env);
        String topic = Grpc5.topic(env, broker, "NORMAL", 2);
        Producer producer = env.closeLater(Grpc5.PROVIDER.newProducerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setTopics(topic).build());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; ++i)
            ids.add(producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(topic).setTag("t")
                .setBody(("call " + i).getBytes(StandardCharsets.UTF_8)).build()).getMessageId().toString());

        Map<String, Integer> seen = new ConcurrentHashMap<>();
        AtomicBoolean refuse = new AtomicBoolean();
        String group = env.unique("grpcCalls");
        env.closeLater(Grpc5.PROVIDER.newPushConsumerBuilder().setClientConfiguration(Grpc5.config(broker))
            .setConsumerGroup(group).setSubscriptionExpressions(Map.of(topic, new FilterExpression("t")))
            .setMessageListener(view -> {
                seen.merge(Grpc5.text(view.getBody()), 1, Integer::sum);
                return refuse.get() ? ConsumeResult.FAILURE : ConsumeResult.SUCCESS;
            }).build());
        Check.eventually(Duration.ofSeconds(30), () -> seen.size() == 3, "3 messages consumed", seen::keySet);

        String simpleGroup = env.unique("grpcCallsSimple");
        env.closeLater(Grpc5.PROVIDER.newSimpleConsumerBuilder().setClientConfiguration(Grpc5.config(broker))
            .setConsumerGroup(simpleGroup).setSubscriptionExpressions(Map.of(topic, FilterExpression.SUB_ALL))
            .setAwaitDuration(Duration.ofSeconds(1)).build());

        DefaultMQAdminExt admin = new DefaultMQAdminExt(5000);
        admin.setNamesrvAddr(broker.namesrvAddr());
        admin.setInstanceName(env.unique("admin"));
        admin.start();
        try {
            String clientId = onlyClient(admin, group);

            // Without the jstack: what the broker knows of the client, at once.
            ConsumerRunningInfo plain = admin.getConsumerRunningInfo(group, clientId, false);
            Check.equal("CONSUME_PASSIVELY", plain.getProperties().getProperty(ConsumerRunningInfo.PROP_CONSUME_TYPE),
                "the push consumer's consume type");
            Check.that(plain.getJstack() == null || plain.getJstack().isEmpty(), "no jstack unless asked");
            Check.equal(1, plain.getSubscriptionSet().size(), "one subscription: " + plain.getSubscriptionSet());
            SubscriptionData subscription = plain.getSubscriptionSet().first();
            Check.equal(topic, subscription.getTopic(), "the subscription's topic");
            Check.equal("t", subscription.getSubString(), "the subscription's expression");

            // With it: the client's own thread stacks, through its telemetry stream.
            ConsumerRunningInfo withStacks = admin.getConsumerRunningInfo(group, clientId, true);
            Check.that(withStacks.getJstack() != null && withStacks.getJstack().contains("java."),
                "the client's thread stacks: %s", withStacks.getJstack());
            Check.equal("CONSUME_PASSIVELY",
                withStacks.getProperties().getProperty(ConsumerRunningInfo.PROP_CONSUME_TYPE), "consume type with jstack");

            // mqadmin consumerStatus -g reads every client's info so: it must not throw.
            TreeMap<String, ConsumerRunningInfo> table = new TreeMap<>();
            table.put(clientId, plain);
            Check.that(ConsumerRunningInfo.analyzeSubscription(table), "analyzeSubscription over the client's info");
            ConsumerRunningInfo.analyzeProcessQueue(clientId, plain);

            // The stored message consumed again by the client's listener.
            ConsumeMessageDirectlyResult ok = admin.consumeMessageDirectly(group, clientId, topic, ids.get(1));
            Check.equal(CMResult.CR_SUCCESS, ok.getConsumeResult(), "consumed directly: " + ok);
            Check.equal(2, seen.get("call 1"), "the listener saw 'call 1' again");
            refuse.set(true);
            ConsumeMessageDirectlyResult later = admin.consumeMessageDirectly(group, clientId, topic, ids.get(2));
            Check.equal(CMResult.CR_LATER, later.getConsumeResult(), "a failing listener: " + later);
            refuse.set(false);

            // A SimpleConsumer has no listener: the SDK says so, and the tool hears it.
            String simpleId = onlyClient(admin, simpleGroup);
            ConsumeMessageDirectlyResult none = admin.consumeMessageDirectly(simpleGroup, simpleId, topic, ids.get(0));
            Check.that(none.getConsumeResult() != CMResult.CR_SUCCESS && none.getRemark().contains("from gRPC client"),
                "a simple consumer cannot consume directly: %s", none);
            Check.equal("CONSUME_ACTIVELY", admin.getConsumerRunningInfo(simpleGroup, simpleId, false).getProperties()
                .getProperty(ConsumerRunningInfo.PROP_CONSUME_TYPE), "the simple consumer's consume type");
        } finally {
            admin.shutdown();
        }
    }

    private static String onlyClient(DefaultMQAdminExt admin, String group) throws Exception {
        ConsumerConnection connection = admin.examineConsumerConnectionInfo(group);
        Check.equal(1, connection.getConnectionSet().size(), group + "'s connections: " + connection.getConnectionSet());
        return connection.getConnectionSet().iterator().next().getClientId();
    }
}
