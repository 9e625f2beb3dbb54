package io.mqdesk.example.orders;

import org.apache.rocketmq.spring.annotation.RocketMQMessageListener;
import org.apache.rocketmq.spring.core.RocketMQListener;
import org.springframework.stereotype.Component;

/** Ships every new order (tag "new") of the "orders" topic, as the consumer group "shipping". */
@Component
@RocketMQMessageListener(topic = OrderService.TOPIC, selectorExpression = "new", consumerGroup = "shipping")
public class ShippingListener implements RocketMQListener<Order> {
    private final Shipments shipments;

    public ShippingListener(Shipments shipments) {
        this.shipments = shipments;
    }

    @Override
    public void onMessage(Order order) {
        shipments.ship(order);
    }
}
