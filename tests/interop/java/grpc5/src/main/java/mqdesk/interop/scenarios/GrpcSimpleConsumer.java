package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.FilterExpressionType;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.Message;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.apis.producer.SendReceipt;

/**
 * The Java 5.x SDK over gRPC: a producer's normal messages (tag, keys, properties) reach a
 * SimpleConsumer with a tag filter whole and exactly once after ack; a message left un-acked comes
 * back after its invisible duration with delivery attempt 2; changeInvisibleDuration brings one
 * back sooner.
 */
public class GrpcSimpleConsumer implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = Grpc5.startBroker(env);
        String topic = Grpc5.topic(env, broker, "NORMAL", 4);
        Producer producer = env.closeLater(Grpc5.PROVIDER.newProducerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setTopics(topic).build());
        Map<String, Integer> sentIndex = new HashMap<>();
        for (int i = 0; i < 10; ++i) {
            Message m = Grpc5.PROVIDER.newMessageBuilder().setTopic(topic).setTag(i % 2 == 0 ? "TagA" : "TagB")
                .setKeys("key-" + i).addProperty("index", Integer.toString(i))
                .setBody(("java sdk " + i).getBytes(StandardCharsets.UTF_8)).build();
            SendReceipt receipt = producer.send(m);
            sentIndex.put(receipt.getMessageId().toString(), i);
        }

        SimpleConsumer tagged = env.closeLater(Grpc5.PROVIDER.newSimpleConsumerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setConsumerGroup(env.unique("grpcA"))
            .setAwaitDuration(Duration.ofSeconds(5))
            .setSubscriptionExpressions(Map.of(topic, new FilterExpression("TagA", FilterExpressionType.TAG))).build());
        List<MessageView> onlyA = Grpc5.receive(tagged, 5, Duration.ofSeconds(30), true);
        Check.equal(5, onlyA.size(), "TagA messages received");
        for (MessageView view : onlyA) {
            Integer i = sentIndex.get(view.getMessageId().toString());
            Check.that(i != null && i % 2 == 0, "a TagA message: %s", view);
            Check.equal("TagA", view.getTag().orElse(""), "tag");
            Check.equal(List.of("key-" + i), List.copyOf(view.getKeys()), "keys");
            Check.equal(Integer.toString(i), view.getProperties().get("index"), "user property");
            Check.equal("java sdk " + i, Grpc5.text(view.getBody()), "body");
            Check.equal(1, view.getDeliveryAttempt(), "first delivery");
        }
        Check.equal(0, tagged.receive(16, Duration.ofSeconds(15)).size(), "nothing more for TagA after the acks");

        SimpleConsumer all = env.closeLater(Grpc5.PROVIDER.newSimpleConsumerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setConsumerGroup(env.unique("grpcAll"))
            .setAwaitDuration(Duration.ofSeconds(5))
            .setSubscriptionExpressions(Map.of(topic, FilterExpression.SUB_ALL)).build());
        List<MessageView> first = Grpc5.receive(all, 10, Duration.ofSeconds(30), false);
        Check.equal(10, first.size(), "every message for the second group");
        MessageView sooner = first.get(0);
        all.changeInvisibleDuration(sooner, Duration.ofSeconds(1));
        for (int i = 2; i < first.size(); ++i)
            all.ack(first.get(i));
        // first.get(1) is left un-acked: it returns after its 15 s; first.get(0) after 1 s.
        List<MessageView> again = Grpc5.receive(all, 2, Duration.ofSeconds(45), true);
        Check.equal(2, again.size(), "the two not acked came back");
        for (MessageView view : again) {
            Check.that(view.getMessageId().equals(sooner.getMessageId())
                           || view.getMessageId().equals(first.get(1).getMessageId()),
                       "only the un-acked ones come back: %s", view.getMessageId());
            Check.equal(2, view.getDeliveryAttempt(), "a redelivery says attempt 2");
        }
        Check.equal(sooner.getMessageId(), again.get(0).getMessageId(), "the one made visible in 1 s comes first");
        Check.equal(0, all.receive(16, Duration.ofSeconds(12)).size(), "all acked now");
    }
}
