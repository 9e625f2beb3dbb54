package mqdesk.interop.spring;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.springframework.stereotype.Component;

/** What the application's listeners saw, for the scenario to check (every collection thread-safe). */
@Component
public class Received {
    /** Body of each message the tag-filtered String listener got → how often. */
    public final Map<String, AtomicInteger> text = new ConcurrentHashMap<>();
    /** Body → when it first arrived (System.currentTimeMillis). */
    public final Map<String, Long> textArrivedAt = new ConcurrentHashMap<>();
    /** Body → how often, on the topic the first send created. */
    public final Map<String, AtomicInteger> auto = new ConcurrentHashMap<>();
    /** Every Order the POJO listener got, duplicates kept. */
    public final Queue<Order> orders = new ConcurrentLinkedQueue<>();
    /** Hash key → the steps the ORDERLY listener got, in the order it got them. */
    public final Map<String, List<Integer>> orderly = new ConcurrentHashMap<>();
    /** Transactional messages delivered to their consumer: body (= keys) → how often. */
    public final Map<String, AtomicInteger> transactional = new ConcurrentHashMap<>();
    /** Keys → how often the broker asked the producer about it (checkLocalTransaction). */
    public final Map<String, AtomicInteger> txChecks = new ConcurrentHashMap<>();
    /** Keys → how often executeLocalTransaction ran. */
    public final Map<String, AtomicInteger> txExecuted = new ConcurrentHashMap<>();
    /** Listener name → its push consumer, as the starter created it (from prepareStart). */
    public final Map<String, DefaultMQPushConsumer> consumers = new ConcurrentHashMap<>();

    static void count(Map<String, AtomicInteger> counts, String key) {
        counts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    }

    void orderlyStep(String hashKey, int step) {
        orderly.computeIfAbsent(hashKey, k -> Collections.synchronizedList(new ArrayList<>())).add(step);
    }
}
