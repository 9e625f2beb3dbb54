package mqdesk.interop.spring;

import org.apache.rocketmq.spring.annotation.RocketMQTransactionListener;
import org.apache.rocketmq.spring.core.RocketMQLocalTransactionListener;
import org.apache.rocketmq.spring.core.RocketMQLocalTransactionState;
import org.apache.rocketmq.spring.support.RocketMQHeaders;
import org.springframework.messaging.Message;

/**
 * The local transaction of rocketMQTemplate.sendMessageInTransaction, by the message's keys:
 * "commit-*" COMMIT, "rollback-*" ROLLBACK, "unknown-*" UNKNOWN — the broker then asks back
 * (checkLocalTransaction), and the answer is COMMIT.
 */
@RocketMQTransactionListener
public class LocalTransactions implements RocketMQLocalTransactionListener {
    private final Received received;

    public LocalTransactions(Received received) {
        this.received = received;
    }

    @Override
    public RocketMQLocalTransactionState executeLocalTransaction(Message msg, Object arg) {
        String keys = keys(msg);
        Received.count(received.txExecuted, keys);
        if (keys.startsWith("commit-"))
            return RocketMQLocalTransactionState.COMMIT;
        if (keys.startsWith("rollback-"))
            return RocketMQLocalTransactionState.ROLLBACK;
        return RocketMQLocalTransactionState.UNKNOWN;
    }

    @Override
    public RocketMQLocalTransactionState checkLocalTransaction(Message msg) {
        String keys = keys(msg);
        Received.count(received.txChecks, keys);
        return keys.startsWith("unknown-") ? RocketMQLocalTransactionState.COMMIT
                                           : RocketMQLocalTransactionState.ROLLBACK;
    }

    private static String keys(Message msg) {
        return String.valueOf(msg.getHeaders().get(RocketMQHeaders.PREFIX + RocketMQHeaders.KEYS));
    }
}
