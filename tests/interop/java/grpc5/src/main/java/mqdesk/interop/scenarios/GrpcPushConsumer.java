package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.apis.consumer.ConsumeResult;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.producer.Producer;

/**
 * The Java 5.x SDK's PushConsumer over gRPC: concurrently, every message once (a failed one
 * redelivered with attempt 2); on a FIFO topic with an orderly group, each message group in the
 * order it was sent, a failure retried in place.
 */
public class GrpcPushConsumer implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = Grpc5.startBroker(env);
        String normal = Grpc5.topic(env, broker, "NORMAL", 4);
        String fifo = Grpc5.topic(env, broker, "FIFO", 4);
        Producer producer = env.closeLater(Grpc5.PROVIDER.newProducerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setTopics(normal, fifo).build());
        for (int i = 0; i < 20; ++i)
            producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(normal).setTag("n")
                .setBody(("push " + i).getBytes(StandardCharsets.UTF_8)).build());
        List<String> groups = List.of("order-a", "order-b", "order-c");
        for (int i = 0; i < 6; ++i)
            for (String g : groups)
                producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(fifo).setTag("f").setMessageGroup(g)
                    .setBody((g + ":" + i).getBytes(StandardCharsets.UTF_8)).build());

        Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
        Map<String, Integer> done = new ConcurrentHashMap<>();
        env.closeLater(Grpc5.PROVIDER.newPushConsumerBuilder().setClientConfiguration(Grpc5.config(broker))
            .setConsumerGroup(env.unique("grpcPush")).setSubscriptionExpressions(Map.of(normal, FilterExpression.SUB_ALL))
            .setMessageListener(view -> {
                String body = Grpc5.text(view.getBody());
                attempts.computeIfAbsent(body, k -> new CopyOnWriteArrayList<>()).add(view.getDeliveryAttempt());
                if (body.equals("push 5") && view.getDeliveryAttempt() == 1)
                    return ConsumeResult.FAILURE;
                done.merge(body, 1, Integer::sum);
                return ConsumeResult.SUCCESS;
            }).build());

        Map<String, List<Integer>> order = new ConcurrentHashMap<>();
        AtomicBoolean failed = new AtomicBoolean();
        env.closeLater(Grpc5.PROVIDER.newPushConsumerBuilder().setClientConfiguration(Grpc5.config(broker))
            .setConsumerGroup(Grpc5.group(env, broker, true)).setSubscriptionExpressions(Map.of(fifo, FilterExpression.SUB_ALL))
            .setMessageListener(view -> {
                String[] parts = Grpc5.text(view.getBody()).split(":");
                Check.equal(parts[0], view.getMessageGroup().orElse(""), "message group");
                if (parts[0].equals("order-b") && parts[1].equals("2") && !failed.getAndSet(true))
                    return ConsumeResult.FAILURE;
                order.computeIfAbsent(parts[0], k -> new CopyOnWriteArrayList<>()).add(Integer.parseInt(parts[1]));
                return ConsumeResult.SUCCESS;
            }).build());

        Check.eventually(Duration.ofSeconds(60), () -> done.size() == 20, "20 messages consumed", done::keySet);
        Check.eventually(Duration.ofSeconds(60),
            () -> groups.stream().allMatch(g -> order.getOrDefault(g, List.of()).size() >= 6), "FIFO groups consumed",
            () -> order);
        Thread.sleep(2000);
        done.forEach((body, n) -> Check.equal(1, n, "consumed once after success: " + body));
        Check.equal(List.of(1, 2), attempts.get("push 5"), "the failed message's attempts");
        for (String g : groups)
            Check.equal(List.of(0, 1, 2, 3, 4, 5), order.get(g), g + " in order, each once");
    }
}
