package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * RocketMQ 5 timer messages from the 5.x remoting client (client5 only: 4.9.8 has no such API):
 * Message#setDeliverTimeMs, #setDelayTimeMs and #setDelayTimeSec reach the consumer on their real
 * topic no earlier than asked, stored in their time order (timerPrecisionMs=100 keeps the wait short), with their properties;
 * a delivery time beyond timerMaxDelaySec is refused with Java's MESSAGE_ILLEGAL remark.
 */
public class DeliverTime implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker("timerPrecisionMs=100", "timerMaxDelaySec=60");
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("timer");
        Clients.createTopic(producer, topic, 2);
        Map<String, Long> arrived = new ConcurrentHashMap<>();
        Map<String, MessageExt> got = new ConcurrentHashMap<>();
        Clients.pushConsumer(env, broker, env.unique("tg"), topic, "*", false,
            (MessageListenerConcurrently) (msgs, context) -> {
                for (MessageExt m : msgs) {
                    arrived.putIfAbsent(m.getKeys(), System.currentTimeMillis());
                    got.putIfAbsent(m.getKeys(), m);
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });

        Map<String, Long> due = new ConcurrentHashMap<>();
        long[] waits = {3000, 1500, 4500};
        for (int i = 0; i < waits.length; ++i) {
            Message m = new Message(topic, "t", "deliver-" + i, ("at +" + waits[i]).getBytes(StandardCharsets.UTF_8));
            long at = System.currentTimeMillis() + waits[i];
            m.setDeliverTimeMs(at);
            m.putUserProperty("wait", Long.toString(waits[i]));
            due.put(m.getKeys(), at);
            Check.equal(SendStatus.SEND_OK, producer.send(m).getSendStatus(), "send of " + m.getKeys());
        }
        Message ms = new Message(topic, "t", "delay-ms", "delay ms".getBytes(StandardCharsets.UTF_8));
        ms.setDelayTimeMs(2000);
        due.put(ms.getKeys(), System.currentTimeMillis() + 2000);
        producer.send(ms);
        Message sec = new Message(topic, "t", "delay-sec", "delay sec".getBytes(StandardCharsets.UTF_8));
        sec.setDelayTimeSec(2);
        due.put(sec.getKeys(), System.currentTimeMillis() + 2000);
        producer.send(sec);

        Message tooFar = new Message(topic, "t", "too-far", "x".getBytes(StandardCharsets.UTF_8));
        tooFar.setDeliverTimeMs(System.currentTimeMillis() + 120_000);
        try {
            producer.send(tooFar);
            Check.that(false, "a delivery 120 s ahead was accepted with timerMaxDelaySec=60");
        } catch (org.apache.rocketmq.client.exception.MQBrokerException e) {
            Check.equal(13, e.getResponseCode(), "response code of the over-long delay");
            Check.that(e.getErrorMessage().contains("timer message illegal, the delay time should not be bigger than "
                + "the max delay 60000ms"), "remark of the over-long delay: %s", e.getErrorMessage());
        }

        Check.eventually(Duration.ofSeconds(60), () -> arrived.size() == 5, "all 5 timer messages arrived",
                         arrived::keySet);
        for (var e : arrived.entrySet()) {
            Check.that(e.getValue() >= due.get(e.getKey()), "%s arrived %d ms before its time", e.getKey(),
                       due.get(e.getKey()) - e.getValue());
            MessageExt m = got.get(e.getKey());
            Check.equal(topic, m.getTopic(), "topic of delivered " + e.getKey());
            Check.equal("t", m.getTags(), "tags of delivered " + e.getKey());
        }
        // The three deliver-time messages, 1.5 s apart, are stored in their time order. (Their
        // store times, which the broker sets, not their arrival: the client's two queues are
        // pulled independently, and under load one pull may come back seconds after the other.)
        List<String> delivers = got.keySet().stream().filter(k -> k.startsWith("deliver-"))
            .sorted(java.util.Comparator.comparingLong((String k) -> got.get(k).getStoreTimestamp())).toList();
        Check.equal(List.of("deliver-1", "deliver-0", "deliver-2"), delivers,
                    "order of the deliver-time messages' store times");
        Check.equal("1500", got.get("deliver-1").getUserProperty("wait"), "user property of deliver-1");
    }
}
