package mqdesk.interop.spring;

import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.stereotype.Component;

/**
 * Listens to a topic nobody created: it comes into being with the application's first send
 * (autoCreateTopicEnable); the consumer finds its route at its next NameServer poll.
 */
@Component
@RocketMQMessageListener(topic = "${mqdesk.topic.auto}", consumerGroup = "${mqdesk.group.auto}")
public class AutoTopicListener extends PollingListener implements RocketMQListener<String> {
    public AutoTopicListener(Received received) {
        super(received, "auto");
    }

    @Override
    public void onMessage(String body) {
        Received.count(received.auto, body);
    }
}
