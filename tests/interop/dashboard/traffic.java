// Real traffic for the dashboard harness, with the RocketMQ 5.3.3 Java client that the dashboard
// itself bundles (build.sh extracts it to OUTDIR/lib):
//
//   java -Xmx256m -cp "OUTDIR/lib/*" traffic.java NAMESRV TOPIC GROUP PRODUCER_GROUP DLQ_GROUP KEY \
//        COUNT OUT.json [HOLD_SECONDS]
//
// 1. starts a push consumer GROUP on TOPIC that acknowledges everything (message trace on), a
//    push consumer DLQ_GROUP on TOPIC that fails everything with maxReconsumeTimes 0 and delay
//    level -1, so every message lands in %DLQ%DLQ_GROUP, and a push consumer GROUP_LAG on TOPIC
//    that consumes one message and then holds its only consume thread: a group online and lagging;
// 2. sends COUNT messages with tag TagA and key KEY from PRODUCER_GROUP (message trace on: the
//    client writes trace records to RMQ_SYS_TRACE_TOPIC), then one transactional message (tag
//    TagTx, key KEY) from PRODUCER_GROUP_TX, committed by its local transaction;
// 3. waits until GROUP consumed them all, DLQ_GROUP sent them all back and GROUP_LAG consumed its
//    one and committed its offset at the broker (at most 60 s), writes OUT.json (names, msgIds, offsetMsgIds, the transaction's msgId and
//    transactionId, counts) and prints "traffic ready";
// 4. keeps the producer and both consumers online HOLD_SECONDS (default 600) or until killed, so
//    the dashboard sees live connections (producerConnection, consumerConnection,
//    consumerRunningInfo, consumeMessageDirectly).
// Exit status: 0 after the hold, 1 when sending failed or the consumers fell short (OUT.json is
// still written, with "complete": false).

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.store.ReadOffsetType;
import org.apache.rocketmq.common.message.MessageQueue;
import java.util.concurrent.CountDownLatch;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;

public class traffic {
    static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String list(List<String> l) {
        List<String> out = new ArrayList<>();
        for (String s : l) {
            out.add(q(s));
        }
        return "[" + String.join(", ", out) + "]";
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 8) {
            System.err.println("usage: traffic.java NAMESRV TOPIC GROUP PRODUCER_GROUP DLQ_GROUP KEY COUNT OUT.json [HOLD_SECONDS]");
            System.exit(2);
        }
        String namesrv = args[0], topic = args[1], group = args[2], producerGroup = args[3], dlqGroup = args[4];
        String key = args[5];
        int count = Integer.parseInt(args[6]);
        Path out = Path.of(args[7]);
        long hold = args.length > 8 ? Long.parseLong(args[8]) : 600;

        AtomicInteger consumed = new AtomicInteger();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group, true, null);
        consumer.setNamesrvAddr(namesrv);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPersistConsumerOffsetInterval(1000); // offsets on the broker before OUT.json
        consumer.setInstanceName("dash-ok-" + ProcessHandle.current().pid());
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            consumed.addAndGet(msgs.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();

        AtomicInteger failed = new AtomicInteger();
        DefaultMQPushConsumer dlqConsumer = new DefaultMQPushConsumer(dlqGroup);
        dlqConsumer.setNamesrvAddr(namesrv);
        dlqConsumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        dlqConsumer.setPersistConsumerOffsetInterval(1000); // offsets on the broker before OUT.json
        dlqConsumer.setInstanceName("dash-dlq-" + ProcessHandle.current().pid());
        dlqConsumer.setMaxReconsumeTimes(0);
        dlqConsumer.subscribe(topic, "*");
        dlqConsumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            ctx.setDelayLevelWhenNextConsume(-1);
            failed.addAndGet(msgs.size());
            return ConsumeConcurrentlyStatus.RECONSUME_LATER;
        });
        dlqConsumer.start();

        // Online and lagging: one message consumed (its offset committed), then the only consume
        // thread held until the process ends.
        String lagGroup = group + "_LAG";
        AtomicInteger lagConsumed = new AtomicInteger();
        AtomicReference<MessageQueue> lagFirstQueue = new AtomicReference<>();
        CountDownLatch release = new CountDownLatch(1);
        DefaultMQPushConsumer lagConsumer = new DefaultMQPushConsumer(lagGroup);
        lagConsumer.setNamesrvAddr(namesrv);
        lagConsumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        lagConsumer.setPersistConsumerOffsetInterval(1000);
        lagConsumer.setInstanceName("dash-lag-" + ProcessHandle.current().pid());
        lagConsumer.setConsumeThreadMin(1);
        lagConsumer.setConsumeThreadMax(1);
        lagConsumer.subscribe(topic, "*");
        lagConsumer.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
            if (lagConsumed.getAndAdd(msgs.size()) == 0) {
                MessageExt first = msgs.get(0);
                lagFirstQueue.set(new MessageQueue(first.getTopic(), first.getBrokerName(), first.getQueueId()));
            } else {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        lagConsumer.start();

        DefaultMQProducer producer = new DefaultMQProducer(producerGroup, true, null);
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName("dash-producer-" + ProcessHandle.current().pid());
        producer.start();

        List<String> msgIds = new ArrayList<>();
        List<String> offsetMsgIds = new ArrayList<>();
        String sendError = null;
        for (int i = 0; i < count; i++) {
            Message m = new Message(topic, "TagA", key,
                ("mqdesk dashboard interop message " + i).getBytes(StandardCharsets.UTF_8));
            m.putUserProperty("seq", Integer.toString(i));
            try {
                SendResult r = producer.send(m, 10000);
                msgIds.add(r.getMsgId());
                offsetMsgIds.add(r.getOffsetMsgId() == null ? "" : r.getOffsetMsgId());
                System.out.println("sent " + r.getSendStatus() + " " + r.getMsgId() + " " + r.getMessageQueue());
            } catch (Exception e) {
                sendError = e.toString();
                System.out.println("send failed: " + e);
                break;
            }
        }

        // A transaction, committed by its local transaction (the broker's check is not needed).
        TransactionMQProducer txProducer = new TransactionMQProducer(producerGroup + "_TX");
        txProducer.setNamesrvAddr(namesrv);
        txProducer.setInstanceName("dash-tx-" + ProcessHandle.current().pid());
        txProducer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        txProducer.start();
        String txMsgId = null, transactionId = null;
        if (sendError == null) {
            try {
                TransactionSendResult r = txProducer.sendMessageInTransaction(new Message(topic, "TagTx", key,
                    "mqdesk dashboard interop transaction".getBytes(StandardCharsets.UTF_8)), null);
                txMsgId = r.getMsgId();
                transactionId = r.getTransactionId();
                System.out.println("transaction " + r.getSendStatus() + " " + r.getLocalTransactionState() + " "
                    + txMsgId + " transactionId " + transactionId);
                if (r.getLocalTransactionState() != LocalTransactionState.COMMIT_MESSAGE || transactionId == null)
                    sendError = "transaction not committed or without a transactionId: " + r;
            } catch (Exception e) {
                sendError = "transaction: " + e;
            }
        }
        int expected = msgIds.size() + (txMsgId == null ? 0 : 1);

        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline
            && (consumed.get() < expected || failed.get() < expected || lagConsumed.get() < 1)) {
            Thread.sleep(200);
        }
        // A push consumer commits its offsets every persistConsumerOffsetInterval, the first time
        // 10 s after its start (a pull commits only offsets above 0): until then the broker has no
        // offset of GROUP_LAG, Java's and MQDesk's GET_CONSUME_STATS have no row for it, and the
        // group shows no lag. Commit now and wait until the broker has the consumed one.
        boolean lagCommitted = lagFirstQueue.get() == null;
        while (!lagCommitted && System.currentTimeMillis() < deadline) {
            lagConsumer.getDefaultMQPushConsumerImpl().persistConsumerOffset();
            Thread.sleep(300);
            lagCommitted = lagConsumer.getDefaultMQPushConsumerImpl().getOffsetStore()
                .readOffset(lagFirstQueue.get(), ReadOffsetType.READ_FROM_STORE) >= 1;
        }
        Thread.sleep(2000); // let the send-backs to the DLQ and the trace records land
        boolean complete = sendError == null && msgIds.size() == count && consumed.get() >= expected
            && failed.get() >= expected && lagConsumed.get() >= 1 && lagCommitted;
        String json = "{\n"
            + "  \"namesrv\": " + q(namesrv) + ",\n"
            + "  \"topic\": " + q(topic) + ",\n"
            + "  \"group\": " + q(group) + ",\n"
            + "  \"producerGroup\": " + q(producerGroup) + ",\n"
            + "  \"dlqGroup\": " + q(dlqGroup) + ",\n"
            + "  \"key\": " + q(key) + ",\n"
            + "  \"tag\": \"TagA\",\n"
            + "  \"clientId\": " + q(consumer.buildMQClientId()) + ",\n"
            + "  \"dlqClientId\": " + q(dlqConsumer.buildMQClientId()) + ",\n"
            + "  \"lagGroup\": " + q(lagGroup) + ",\n"
            + "  \"txProducerGroup\": " + q(producerGroup + "_TX") + ",\n"
            + "  \"txMsgId\": " + (txMsgId == null ? "null" : q(txMsgId)) + ",\n"
            + "  \"transactionId\": " + (transactionId == null ? "null" : q(transactionId)) + ",\n"
            + "  \"msgIds\": " + list(msgIds) + ",\n"
            + "  \"offsetMsgIds\": " + list(offsetMsgIds) + ",\n"
            + "  \"consumed\": " + consumed.get() + ",\n"
            + "  \"sentBackToDlq\": " + failed.get() + ",\n"
            + "  \"sendError\": " + (sendError == null ? "null" : q(sendError)) + ",\n"
            + "  \"complete\": " + complete + "\n"
            + "}\n";
        Path tmp = Path.of(out + ".tmp");
        Files.writeString(tmp, json);
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        System.out.println("traffic " + (complete ? "ready" : "incomplete") + ": sent " + msgIds.size()
            + " and a transaction, consumed " + consumed.get() + ", sent back " + failed.get() + ", the lagging group "
            + lagConsumed.get());
        System.out.flush();

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // Unregister the clients, but never hold the exit up for long (the broker may be gone).
            release.countDown();
            Thread t = new Thread(() -> {
                producer.shutdown();
                txProducer.shutdown();
                lagConsumer.shutdown();
                consumer.shutdown();
                dlqConsumer.shutdown();
            });
            t.setDaemon(true);
            t.start();
            try {
                t.join(3000);
            } catch (InterruptedException ignored) {
            }
        }));
        Thread.sleep(hold * 1000);
        System.exit(complete ? 0 : 1);
    }
}
