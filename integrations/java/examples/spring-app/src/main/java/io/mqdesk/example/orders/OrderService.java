package io.mqdesk.example.orders;

import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.spring.core.RocketMQTemplate;
import org.springframework.stereotype.Service;

/** Places orders: each one is sent, tagged "new", and acknowledged by the broker before place() returns. */
@Service
public class OrderService {
    public static final String TOPIC = "orders";

    private final RocketMQTemplate rocketMQTemplate;

    public OrderService(RocketMQTemplate rocketMQTemplate) {
        this.rocketMQTemplate = rocketMQTemplate;
    }

    /** The message id the broker gave the order. */
    public String place(Order order) {
        SendResult result = rocketMQTemplate.syncSend(TOPIC + ":new", order);
        if (result.getSendStatus() != SendStatus.SEND_OK)
            throw new IllegalStateException("order " + order.id() + " not stored: " + result.getSendStatus());
        return result.getMsgId();
    }
}
