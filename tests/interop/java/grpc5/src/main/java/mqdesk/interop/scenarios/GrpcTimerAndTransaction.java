package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.Transaction;
import org.apache.rocketmq.client.apis.producer.TransactionResolution;

/**
 * The Java 5.x SDK over gRPC: a delivery timestamp holds a DELAY topic's message until its time;
 * on a TRANSACTION topic a commit delivers, a rollback never does, and an open transaction is
 * checked back through telemetry and resolved by the producer's TransactionChecker.
 */
public class GrpcTimerAndTransaction implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = Grpc5.startBroker(env, "transactionTimeOut=2000", "transactionCheckInterval=1000");
        String delay = Grpc5.topic(env, broker, "DELAY", 2);
        String tx = Grpc5.topic(env, broker, "TRANSACTION", 2);
        Set<String> checked = ConcurrentHashMap.newKeySet();
        Producer producer = env.closeLater(Grpc5.PROVIDER.newProducerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setTopics(delay, tx)
            .setTransactionChecker(view -> {
                checked.add(Grpc5.text(view.getBody()));
                return "commit".equals(view.getProperties().get("decide")) ? TransactionResolution.COMMIT
                                                                           : TransactionResolution.ROLLBACK;
            }).build());

        SimpleConsumer delayed = env.closeLater(Grpc5.PROVIDER.newSimpleConsumerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setConsumerGroup(env.unique("grpcDelay"))
            .setAwaitDuration(Duration.ofSeconds(5)).setSubscriptionExpressions(Map.of(delay, FilterExpression.SUB_ALL))
            .build());
        long due = System.currentTimeMillis() + 5000;
        producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(delay).setTag("d").setDeliveryTimestamp(due)
            .setBody("due in 5 s".getBytes(StandardCharsets.UTF_8)).build());
        List<MessageView> got = Grpc5.receive(delayed, 1, Duration.ofSeconds(25), true);
        long arrived = System.currentTimeMillis();
        Check.equal(1, got.size(), "the delayed message arrives");
        Check.that(arrived >= due - 200, "arrived %d ms early", due - arrived);
        Check.that(Math.abs(got.get(0).getDeliveryTimestamp().orElse(0L) - due) < 1000, "its delivery timestamp: %s",
                   got.get(0).getDeliveryTimestamp());

        SimpleConsumer txConsumer = env.closeLater(Grpc5.PROVIDER.newSimpleConsumerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setConsumerGroup(env.unique("grpcTx"))
            .setAwaitDuration(Duration.ofSeconds(5)).setSubscriptionExpressions(Map.of(tx, FilterExpression.SUB_ALL))
            .build());
        for (String[] c : new String[][] {{"committed", "commit", "commit"}, {"rolled back", "commit", "rollback"},
                                          {"orphan committed", "commit", ""}, {"orphan rolled back", "rollback", ""}}) {
            Transaction transaction = producer.beginTransaction();
            producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(tx).setTag("t").addProperty("decide", c[1])
                .setBody(c[0].getBytes(StandardCharsets.UTF_8)).build(), transaction);
            if (c[2].equals("commit"))
                transaction.commit();
            else if (c[2].equals("rollback"))
                transaction.rollback();
        }
        List<MessageView> delivered = Grpc5.receive(txConsumer, 2, Duration.ofSeconds(40), true);
        Set<String> bodies = delivered.stream().map(v -> Grpc5.text(v.getBody())).collect(Collectors.toSet());
        Check.equal(Set.of("committed", "orphan committed"), bodies, "committed and check-committed messages");
        Check.eventually(Duration.ofSeconds(20), () -> checked.containsAll(Set.of("orphan committed", "orphan rolled back")),
                         "both orphans checked back", () -> checked);
        Check.equal(0, txConsumer.receive(16, Duration.ofSeconds(10)).size(), "rolled-back messages never come");
        Check.that(!checked.contains("committed") && !checked.contains("rolled back"), "resolved ones not checked: %s",
                   checked);
    }
}
