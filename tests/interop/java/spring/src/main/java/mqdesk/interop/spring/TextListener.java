package mqdesk.interop.spring;

import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.stereotype.Component;

/** A String listener that takes only the tag "kept" of its topic (syncSend, asyncSend, delayed). */
@Component
@RocketMQMessageListener(topic = "${mqdesk.topic.text}", consumerGroup = "${mqdesk.group.text}",
                         selectorExpression = "kept")
public class TextListener extends PollingListener implements RocketMQListener<String> {
    public TextListener(Received received) {
        super(received, "text");
    }

    @Override
    public void onMessage(String body) {
        received.textArrivedAt.putIfAbsent(body, System.currentTimeMillis());
        Received.count(received.text, body);
    }
}
