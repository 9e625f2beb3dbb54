package io.mqdesk.junit5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.producer.SendStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;

/** A broker per method from the class annotation, plus one per class (static field) and one per method (field). */
@MqdeskBroker(lifecycle = MqdeskBroker.Lifecycle.PER_METHOD)
class PerMethodAndFieldsTest {
    @MqdeskBroker(syncFlush = true, topics = "durable")
    static MqdeskServer shared;

    @MqdeskBroker(config = "brokerName=field-broker")
    MqdeskServer own;

    private static final Set<Long> methodBrokers = ConcurrentHashMap.newKeySet();
    private static final Set<Path> stores = ConcurrentHashMap.newKeySet();

    @RepeatedTest(2)
    void eachMethodHasItsOwnBrokers(MqdeskServer broker) throws Exception {
        assertTrue(methodBrokers.add(broker.pid()), "a fresh broker per method");
        assertNotEquals(broker.pid(), own.pid());
        assertNotEquals(broker.pid(), shared.pid());
        assertTrue(stores.add(own.storeDir()), "a fresh field broker per method");
        stores.add(broker.storeDir());
        assertEquals(SendStatus.SEND_OK, Clients.sendOne(shared, "durable").getSendStatus());
        assertEquals(SendStatus.SEND_OK, Clients.sendOne(own, "auto-created").getSendStatus());
        String conf = Files.readString(own.storeDir().resolveSibling("broker.conf"));
        assertTrue(conf.contains("brokerName=field-broker"), conf);
        assertTrue(Files.readString(shared.storeDir().resolveSibling("broker.conf")).contains("flushDiskType=SYNC_FLUSH"));
    }

    @AfterAll
    static void methodBrokersWereStoppedAndRemoved() {
        assertEquals(2, methodBrokers.size());
        for (Path store : stores)
            assertTrue(!Files.exists(store), store + " is removed after a clean stop");
    }
}
