package io.mqdesk.junit5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.producer.SendStatus;

/**
 * The ports of every broker the parallel classes started, each claimed once: brokers running side by side
 * must never share one. Each broker is also sent a message, so a port that some other process held would
 * show up as a failed send.
 */
final class SidePorts {
    private static final Map<String, String> OWNERS = new ConcurrentHashMap<>();

    private SidePorts() {}

    static void claimAndUse(MqdeskServer broker, String test) throws Exception {
        for (String addr : new String[] {broker.namesrvAddr(), broker.brokerAddr(), broker.grpcEndpoint()}) {
            String before = OWNERS.putIfAbsent(addr, test);
            assertTrue(before == null, addr + " of " + test + " was already " + before + "'s");
        }
        assertEquals(SendStatus.SEND_OK, Clients.sendOne(broker, "side-by-side").getSendStatus());
    }
}
