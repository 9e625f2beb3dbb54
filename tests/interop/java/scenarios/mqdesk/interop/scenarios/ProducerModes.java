package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * DefaultMQProducer's send modes against mqdesk-broker: sync, async, oneway, batch and a
 * MessageQueueSelector, with keys, tags and user properties; then every message read back (lite pull,
 * from the first offset) equal to what was sent: body, tags, keys, properties, queue of the selector.
 * Also a topic the broker has never seen, auto-created through TBW102 as the Java broker does.
 */
public class ProducerModes implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker();
        DefaultMQProducer producer = Clients.producer(env, broker, env.unique("pg"));
        String topic = env.unique("modes");
        Clients.createTopic(producer, topic, 4);

        Map<String, Message> sent = new HashMap<>();
        int seq = 0;
        for (int i = 0; i < 10; ++i) {
            Message m = message(topic, "sync", ++seq);
            SendResult r = producer.send(m);
            Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "sync send status");
            Check.that(r.getMsgId() != null && r.getOffsetMsgId() != null, "sync send result lacks ids: %s", r);
            sent.put(m.getKeys(), m);
        }
        CountDownLatch asyncDone = new CountDownLatch(10);
        AtomicReference<Throwable> asyncError = new AtomicReference<>();
        for (int i = 0; i < 10; ++i) {
            Message m = message(topic, "async", ++seq);
            sent.put(m.getKeys(), m);
            producer.send(m, new SendCallback() {
                @Override
                public void onSuccess(SendResult result) {
                    asyncDone.countDown();
                }

                @Override
                public void onException(Throwable e) {
                    asyncError.compareAndSet(null, e);
                    asyncDone.countDown();
                }
            });
        }
        Check.that(asyncDone.await(30, TimeUnit.SECONDS), "async sends not all answered");
        Check.that(asyncError.get() == null, "async send failed: %s", asyncError.get());
        for (int i = 0; i < 10; ++i) {
            Message m = message(topic, "oneway", ++seq);
            sent.put(m.getKeys(), m);
            producer.sendOneway(m);
        }
        List<Message> batch = new ArrayList<>();
        for (int i = 0; i < 10; ++i) {
            Message m = message(topic, "batch", ++seq);
            sent.put(m.getKeys(), m);
            batch.add(m);
        }
        SendResult batchResult = producer.send(batch);
        Check.equal(SendStatus.SEND_OK, batchResult.getSendStatus(), "batch send status");
        Check.equal(10, batchResult.getMsgId().split(",").length, "ids in the batch's send result");

        Map<String, Integer> selectedQueue = new HashMap<>();
        for (int i = 0; i < 12; ++i) {
            Message m = message(topic, "selected", ++seq);
            sent.put(m.getKeys(), m);
            SendResult r = producer.send(m, (queues, msg, arg) -> queues.get((Integer) arg % queues.size()), i);
            Check.equal(i % 4, r.getMessageQueue().getQueueId(), "queue chosen by the selector");
            selectedQueue.put(m.getKeys(), i % 4);
        }

        List<MessageExt> read = Clients.readAll(env, broker, topic, sent.size());
        Check.equal(sent.size(), read.size(), "messages read back (duplicates count)");
        for (MessageExt got : read) {
            Message want = sent.get(got.getKeys());
            Check.that(want != null, "read a message nobody sent: keys=%s", got.getKeys());
            Check.equal(new String(want.getBody(), StandardCharsets.UTF_8),
                        new String(got.getBody(), StandardCharsets.UTF_8), "body of " + got.getKeys());
            Check.equal(want.getTags(), got.getTags(), "tags of " + got.getKeys());
            Check.equal(want.getUserProperty("seq"), got.getUserProperty("seq"), "property seq of " + got.getKeys());
            Check.equal(want.getUserProperty("unicode"), got.getUserProperty("unicode"),
                        "property unicode of " + got.getKeys());
            Integer queue = selectedQueue.get(got.getKeys());
            if (queue != null)
                Check.equal(queue, got.getQueueId(), "queue of selector-sent " + got.getKeys());
            Check.that(got.getBornTimestamp() > 0 && got.getStoreTimestamp() >= got.getBornTimestamp() - 5000,
                       "timestamps of %s: born %d stored %d", got.getKeys(), got.getBornTimestamp(),
                       got.getStoreTimestamp());
        }

        // A topic never created: the producer routes it through TBW102 and the broker creates it.
        String autoTopic = env.unique("auto");
        SendResult auto = producer.send(message(autoTopic, "auto", ++seq));
        Check.equal(SendStatus.SEND_OK, auto.getSendStatus(), "send to an auto-created topic");
        Check.equal(1, Clients.readAll(env, broker, autoTopic, 1).size(), "messages of the auto-created topic");
        Log.info("%d messages sent in 5 modes read back equal", sent.size());
    }

    private static Message message(String topic, String mode, int seq) {
        Message m = new Message(topic, mode, mode + "-" + seq,
                                ("body " + mode + " " + seq + " \u00e9\u4e2d").getBytes(StandardCharsets.UTF_8));
        m.putUserProperty("seq", Integer.toString(seq));
        m.putUserProperty("unicode", "\u00fcber-\u6d88\u606f");
        return m;
    }

}
