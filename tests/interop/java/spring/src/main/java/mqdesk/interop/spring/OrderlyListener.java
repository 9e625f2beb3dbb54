package mqdesk.interop.spring;

import org.apache.rocketmq.spring.annotation.ConsumeMode;
import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.stereotype.Component;

/** consumeMode ORDERLY: bodies "hashKey:step", sent with syncSendOrderly(…, hashKey). */
@Component
@RocketMQMessageListener(topic = "${mqdesk.topic.orderly}", consumerGroup = "${mqdesk.group.orderly}",
                         consumeMode = ConsumeMode.ORDERLY)
public class OrderlyListener extends PollingListener implements RocketMQListener<String> {
    public OrderlyListener(Received received) {
        super(received, "orderly");
    }

    @Override
    public void onMessage(String body) {
        int colon = body.lastIndexOf(':');
        received.orderlyStep(body.substring(0, colon), Integer.parseInt(body.substring(colon + 1)));
    }
}
