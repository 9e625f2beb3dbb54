package io.mqdesk.example.orders;

import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/** The orders shipped so far (in memory: the example's stand-in for a warehouse system). */
@Component
public class Shipments {
    private final List<Order> shipped = new ArrayList<>();

    public synchronized void ship(Order order) {
        shipped.add(order);
        notifyAll();
    }

    public synchronized List<Order> shipped() {
        return List.copyOf(shipped);
    }

    /** Waits until {@code count} orders were shipped or {@code timeoutMillis} passed; the orders shipped. */
    public synchronized List<Order> awaitShipped(int count, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        for (long left = timeoutMillis; shipped.size() < count && left > 0; left = deadline - System.currentTimeMillis())
            wait(left);
        return List.copyOf(shipped);
    }
}
