package mqdesk.interop.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import org.apache.rocketmq.client.consumer.DefaultMQPullConsumer;
import org.apache.rocketmq.client.consumer.PullResult;
import org.apache.rocketmq.client.consumer.PullStatus;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;

/**
 * Lite topics (RocketMQ 5.5) in a store: messages sent to a parent topic with __LITE_TOPIC, which the
 * broker enters in the LMQ {@code %LMQ%$<parent>$<lite>} besides the parent's queue (with
 * {@link #BROKER_CONF}: enableLmq and enableMultiDispatch, off by default on both brokers). Each LMQ
 * is read back with a pull of its queue 0, in the order its messages were sent.
 */
final class PeerLiteTopics {
    static final String[] BROKER_CONF = {"enableLmq=true", "enableMultiDispatch=true"};

    final String parent;
    private final Map<String, List<String>> sent = new TreeMap<>(); // lite topic → bodies, in order

    PeerLiteTopics(String parent) {
        this.parent = parent;
    }

    void sendAll(Env env, String namesrvAddr) throws Exception {
        DefaultMQProducer producer = PeerMessages.producer(env, namesrvAddr);
        new PeerMessages(parent).createTopic(producer);
        for (int i = 0; i < 9; ++i) {
            String lite = "user-" + (i % 3);
            String body = "lite-" + i;
            Message message = new Message(parent, "lite", PeerMessages.bytes(body));
            MessageAccessor.putProperty(message, "__LITE_TOPIC", lite);
            Check.equal(SendStatus.SEND_OK, producer.send(message).getSendStatus(), "send of " + body);
            sent.computeIfAbsent(lite, k -> new ArrayList<>()).add(body);
        }
    }

    void readAndCheck(Env env, String namesrvAddr, String who) throws Exception {
        DefaultMQPullConsumer consumer = new DefaultMQPullConsumer(env.unique("peerlite"));
        consumer.setNamesrvAddr(namesrvAddr);
        consumer.setInstanceName(env.unique("lite"));
        // The parent's route tells the client the broker's address; an LMQ has no route of its own.
        consumer.setRegisterTopics(Set.of(parent));
        consumer.start();
        try {
            String brokerName = consumer.fetchSubscribeMessageQueues(parent).iterator().next().getBrokerName();
            for (Map.Entry<String, List<String>> lite : sent.entrySet()) {
                MessageQueue lmq = new MessageQueue("%LMQ%$" + parent + "$" + lite.getKey(), brokerName, 0);
                final PullResult[] found = new PullResult[1];
                final Exception[] failed = new Exception[1];
                Check.eventually(Duration.ofSeconds(20), () -> {
                    try {
                        found[0] = consumer.pull(lmq, "*", 0, 32, 5000);
                        return found[0].getPullStatus() == PullStatus.FOUND
                            && found[0].getMsgFoundList().size() >= lite.getValue().size();
                    } catch (Exception e) {
                        failed[0] = e;
                        return false;
                    }
                }, who + ": a pull of " + lmq.getTopic() + " finding " + lite.getValue().size() + " messages",
                    () -> found[0] != null ? found[0] : failed[0]);
                List<String> bodies = new ArrayList<>();
                for (MessageExt message : found[0].getMsgFoundList()) {
                    bodies.add(PeerMessages.body(message.getBody()));
                    Check.equal(parent, message.getTopic(), who + ": the topic of " + bodies.get(bodies.size() - 1));
                }
                Check.equal(lite.getValue(), bodies, who + ": the messages of lite topic " + lite.getKey());
            }
            Log.info("%s served lite topics %s of %s from their LMQs", who, sent.keySet(), parent);
        } finally {
            consumer.shutdown();
        }
    }
}
