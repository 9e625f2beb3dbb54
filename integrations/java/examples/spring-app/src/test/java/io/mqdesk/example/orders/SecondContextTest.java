package io.mqdesk.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.mqdesk.junit5.MqdeskBroker;
import io.mqdesk.junit5.MqdeskServer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * A second test class gets its own broker and its own application context pointing at it, with topics on
 * the fly this time (the broker's default).
 */
@SpringBootTest
@MqdeskBroker(syncFlush = true)
class SecondContextTest {
    @Autowired
    OrderService orders;

    @Value("${rocketmq.name-server}")
    String nameServer;

    @Test
    void ownBrokerOwnContext(MqdeskServer broker) {
        assertEquals(broker.namesrvAddr(), nameServer);
        assertNotEquals("127.0.0.1:9876", nameServer);
        orders.place(new Order(7, "kettle", 1)); // "orders" created by the first send
    }
}
