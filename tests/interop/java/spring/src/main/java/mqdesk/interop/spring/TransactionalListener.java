package mqdesk.interop.spring;

import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.stereotype.Component;

/** Consumes the transactional topic: only committed messages (at once or after check-back) may come. */
@Component
@RocketMQMessageListener(topic = "${mqdesk.topic.tx}", consumerGroup = "${mqdesk.group.tx}")
public class TransactionalListener extends PollingListener implements RocketMQListener<String> {
    public TransactionalListener(Received received) {
        super(received, "tx");
    }

    @Override
    public void onMessage(String body) {
        Received.count(received.transactional, body);
    }
}
