package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * RECONSUME_LATER: a message that fails is redelivered through %RETRY%group with its reconsume
 * count growing (CONSUMER_SEND_MSG_BACK, the delay levels), and after maxReconsumeTimes it lands in
 * %DLQ%group, where a reader finds it with its original topic and keys. A message that succeeds on
 * its second attempt is not redelivered again.
 */
public class RetryAndDeadLetter implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        // Retry delays are delay levels 3, 4, … : keep them short.
        MqdeskBroker broker = env.startBroker("messageDelayLevel=1s 1s 1s 1s 1s 1s 1s 1s");
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("retry");
        Clients.createTopic(producer, topic, 2);
        String group = env.unique("rg");
        Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        Map<String, Integer> lastReconsumeTimes = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = Clients.pushConsumer(env, broker, group, topic, "*", false,
            (MessageListenerConcurrently) (msgs, context) -> {
                MessageExt m = msgs.get(0);
                int attempt = attempts.computeIfAbsent(m.getKeys(), k -> new AtomicInteger()).incrementAndGet();
                lastReconsumeTimes.put(m.getKeys(), m.getReconsumeTimes());
                if (m.getKeys().startsWith("always-fails"))
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                if (m.getKeys().startsWith("fails-once") && attempt == 1)
                    return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
        consumer.setMaxReconsumeTimes(2);
        producer.send(new Message(topic, "t", "fails-once", "x".getBytes(StandardCharsets.UTF_8)));
        producer.send(new Message(topic, "t", "always-fails", "poison".getBytes(StandardCharsets.UTF_8)));
        producer.send(new Message(topic, "t", "ok", "fine".getBytes(StandardCharsets.UTF_8)));

        Check.eventually(Duration.ofSeconds(40), () -> attempts.containsKey("fails-once")
                             && attempts.get("fails-once").get() == 2,
                         "fails-once redelivered once", () -> attempts);
        Check.equal(1, lastReconsumeTimes.get("fails-once"), "reconsumeTimes of the redelivery");
        // maxReconsumeTimes 2: the first delivery and two retries, then the dead-letter queue.
        Check.eventually(Duration.ofSeconds(40), () -> attempts.containsKey("always-fails")
                             && attempts.get("always-fails").get() == 3,
                         "always-fails delivered 3 times", () -> attempts);
        List<MessageExt> dead = Clients.readAll(env, broker, "%DLQ%" + group, 1);
        Check.equal(1, dead.size(), "messages in the dead-letter queue");
        Check.equal("always-fails", dead.get(0).getKeys(), "keys of the dead letter");
        Check.equal("poison", new String(dead.get(0).getBody(), StandardCharsets.UTF_8), "body of the dead letter");
        Check.equal(topic, dead.get(0).getProperty("RETRY_TOPIC"), "RETRY_TOPIC (original topic) of the dead letter");
        Thread.sleep(3000);
        Check.equal(1, attempts.get("ok").get(), "deliveries of a message consumed fine");
        Check.equal(2, attempts.get("fails-once").get(), "deliveries of fails-once");
        Check.equal(3, attempts.get("always-fails").get(), "deliveries of always-fails after the DLQ");
    }
}
