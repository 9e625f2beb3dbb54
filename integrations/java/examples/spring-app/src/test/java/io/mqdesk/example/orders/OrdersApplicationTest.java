package io.mqdesk.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mqdesk.junit5.MqdeskBroker;
import io.mqdesk.junit5.MqdeskServer;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The whole application against a real broker: its topic and consumer group exist before Spring starts,
 * topics are not created on the fly (as on most production brokers), and Spring's rocketmq.name-server is
 * the test's broker.
 */
@SpringBootTest
@MqdeskBroker(topics = "orders:4", groups = "shipping", autoCreateTopics = false)
class OrdersApplicationTest {
    @Autowired
    OrderService orders;

    @Autowired
    Shipments shipments;

    @Value("${rocketmq.name-server}")
    String nameServer;

    @Test
    void placedOrdersAreShipped(MqdeskServer broker) throws Exception {
        assertEquals(broker.namesrvAddr(), nameServer);
        List<Order> placed = List.of(new Order(1, "tea", 2), new Order(2, "cups", 6), new Order(3, "pot", 1));
        for (Order order : placed)
            orders.place(order);
        List<Order> shipped = shipments.awaitShipped(placed.size(), 60_000);
        assertEquals(placed, shipped.stream().sorted(Comparator.comparingLong(Order::id)).toList());
    }
}
