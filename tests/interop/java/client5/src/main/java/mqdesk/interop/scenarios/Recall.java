package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * RocketMQ 5.3's recall from the 5.x remoting client (client5 only): a timer message's SendResult
 * carries a recall handle (a message for now has none); DefaultMQProducer#recallMessage with it
 * answers the message's id, and that message is never delivered while the one sent beside it for
 * the same time arrives; recalling it again after the time has passed is refused with Java's
 * ILLEGAL_OPERATION remark.
 */
public class Recall implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker("timerPrecisionMs=100");
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("recall");
        Clients.createTopic(producer, topic, 2);
        Map<String, MessageExt> arrived = new ConcurrentHashMap<>();
        Clients.pushConsumer(env, broker, env.unique("rg"), topic, "*", false,
            (MessageListenerConcurrently) (msgs, context) -> {
                for (MessageExt m : msgs)
                    arrived.putIfAbsent(m.getKeys(), m);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });

        long at = System.currentTimeMillis() + 3000;
        SendResult kept = producer.send(timed(topic, "kept", at));
        SendResult recalled = producer.send(timed(topic, "recalled", at));
        SendResult now = producer.send(new Message(topic, "t", "now", "now".getBytes(StandardCharsets.UTF_8)));
        Check.that(kept.getRecallHandle() != null && recalled.getRecallHandle() != null,
                   "timer sends carry recall handles: %s / %s", kept, recalled);
        Check.that(now.getRecallHandle() == null, "a message for now has no recall handle: %s", now);

        String id = producer.recallMessage(topic, recalled.getRecallHandle());
        Check.equal(recalled.getMsgId(), id, "message id answered by recallMessage");

        Check.eventually(Duration.ofSeconds(30), () -> arrived.containsKey("kept") && arrived.containsKey("now"),
                         "the kept timer message and the one for now arrived", arrived::keySet);
        Thread.sleep(1500);
        Check.that(!arrived.containsKey("recalled"), "the recalled message was delivered: %s", arrived.keySet());
        try {
            producer.recallMessage(topic, kept.getRecallHandle());
            Check.that(false, "recalling a message after its time was accepted");
        } catch (MQBrokerException e) {
            Check.equal(604, e.getResponseCode(), "response code of a late recall (ILLEGAL_OPERATION)");
            Check.that(e.getErrorMessage().contains("recall failed, timestamp invalid"), "remark of a late recall: %s",
                       e.getErrorMessage());
        }
    }

    private static Message timed(String topic, String keys, long at) {
        Message m = new Message(topic, "t", keys, keys.getBytes(StandardCharsets.UTF_8));
        m.setDeliverTimeMs(at);
        return m;
    }
}
