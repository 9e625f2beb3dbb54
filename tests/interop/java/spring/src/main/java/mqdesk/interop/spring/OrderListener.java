package mqdesk.interop.spring;

import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.stereotype.Component;

/** A POJO listener: the starter turns each message's JSON body into an {@link Order}. */
@Component
@RocketMQMessageListener(topic = "${mqdesk.topic.pojo}", consumerGroup = "${mqdesk.group.pojo}")
public class OrderListener extends PollingListener implements RocketMQListener<Order> {
    public OrderListener(Received received) {
        super(received, "pojo");
    }

    @Override
    public void onMessage(Order order) {
        received.orders.add(order);
    }
}
