package io.mqdesk.junit5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** One broker for the class, its topic created first, auto-creation off as in production. */
@MqdeskBroker(topics = "orders:4", groups = "order-group", autoCreateTopics = false)
class ClassBrokerTest {
    private static MqdeskServer seen;

    @Test
    void theCreatedTopicTakesMessages(MqdeskServer broker) throws Exception {
        remember(broker);
        assertEquals(SendStatus.SEND_OK, Clients.sendOne(broker, "orders").getSendStatus());
        assertTrue(Files.isDirectory(broker.storeDir().resolve("consumequeue").resolve("orders")));
    }

    @Test
    void aTopicNotCreatedIsRefused(MqdeskServer broker) {
        remember(broker);
        MQClientException e = assertThrows(MQClientException.class, () -> Clients.sendOne(broker, "unknown-topic"));
        assertTrue(e.getMessage().contains("unknown-topic"), e.getMessage());
    }

    @Nested
    class Inner {
        @Test
        void nestedClassesShareTheEnclosingBroker(MqdeskServer broker) {
            remember(broker);
        }
    }

    @AfterAll
    static void everyMethodSawOneRunningBroker() {
        assertTrue(seen != null && seen.isRunning());
    }

    private static synchronized void remember(MqdeskServer broker) {
        if (seen == null)
            seen = broker;
        assertEquals(seen.pid(), broker.pid(), "one broker per class");
    }
}
