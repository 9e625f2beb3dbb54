package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * TransactionMQProducer: committed messages are delivered, rolled-back ones never, and UNKNOW ones
 * are resolved by the broker's check-back (CHECK_TRANSACTION_STATE to the producer) — committed by
 * the check for "late-commit-*", rolled back for "late-rollback-*".
 */
public class Transactions implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker("transactionTimeOut=1000", "transactionCheckInterval=1000");
        String topic = env.unique("tx");
        Clients.createTopic(Clients.producer(env, broker, env.unique("admin")), topic, 2);
        Map<String, AtomicInteger> checks = new ConcurrentHashMap<>();
        TransactionMQProducer producer = new TransactionMQProducer(env.unique("txpg"));
        producer.setNamesrvAddr(broker.namesrvAddr());
        producer.setInstanceName(env.unique("txp"));
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                String keys = msg.getKeys();
                if (keys.startsWith("commit"))
                    return LocalTransactionState.COMMIT_MESSAGE;
                if (keys.startsWith("rollback"))
                    return LocalTransactionState.ROLLBACK_MESSAGE;
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                checks.computeIfAbsent(msg.getKeys(), k -> new AtomicInteger()).incrementAndGet();
                return msg.getKeys().startsWith("late-commit") ? LocalTransactionState.COMMIT_MESSAGE
                                                               : LocalTransactionState.ROLLBACK_MESSAGE;
            }
        });
        producer.start();
        env.shutdownLater(producer::shutdown);

        Set<String> delivered = ConcurrentHashMap.newKeySet();
        Clients.pushConsumer(env, broker, env.unique("txcg"), topic, "*", false,
            (MessageListenerConcurrently) (msgs, context) -> {
                for (MessageExt m : msgs)
                    delivered.add(m.getKeys());
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
        for (String kind : new String[] { "commit", "rollback", "late-commit", "late-rollback" }) {
            for (int i = 0; i < 3; ++i) {
                Message m = new Message(topic, "tx", kind + "-" + i, kind.getBytes(StandardCharsets.UTF_8));
                TransactionSendResult r = producer.sendMessageInTransaction(m, null);
                Check.equal(SendStatus.SEND_OK, r.getSendStatus(), "half message send status of " + m.getKeys());
            }
        }
        Check.eventually(Duration.ofSeconds(40), () -> delivered.size() == 6,
                         "the 3 committed and 3 check-committed messages delivered", () -> delivered);
        Check.eventually(Duration.ofSeconds(20), () -> checks.keySet().stream()
                             .filter(k -> k.startsWith("late-rollback")).count() == 3,
                         "the late-rollback messages checked back", () -> checks);
        Thread.sleep(3000);
        for (String keys : delivered)
            Check.that(keys.startsWith("commit") || keys.startsWith("late-commit"), "%s was delivered", keys);
        Check.equal(6, delivered.size(), "messages delivered");
        for (String keys : checks.keySet())
            Check.that(keys.startsWith("late-"), "%s was checked back though the producer resolved it", keys);
    }
}
