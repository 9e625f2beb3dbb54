package mqdesk.interop.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a scenario gets: its own temp folder, the mqdesk-broker binary, unique names, and a list of
 * things to close when it ends (in reverse order, failures logged, not thrown).
 */
public final class Env {
    private final Path brokerBinary;
    private final Path root;
    private final String runId;
    private final AtomicInteger nameSeq = new AtomicInteger();
    private final AtomicInteger brokerSeq = new AtomicInteger();
    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();
    private final List<MqdeskBroker> brokers = new ArrayList<>();

    Env(Path brokerBinary, Path root) {
        this.brokerBinary = brokerBinary;
        this.root = root;
        this.runId = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
    }

    public Path root() { return root; }
    public Path brokerBinary() { return brokerBinary; }

    /** A topic or group name no other run uses: prefix + run id + sequence ([A-Za-z0-9_-] only). */
    public String unique(String prefix) {
        return prefix + "_" + runId + "_" + nameSeq.incrementAndGet();
    }

    /** Starts an mqdesk-broker with its own NameServer; confLines are extra broker.conf lines. */
    public MqdeskBroker startBroker(String... confLines) throws IOException, InterruptedException {
        return startBroker(List.of(confLines), List.of());
    }

    public MqdeskBroker startBroker(List<String> confLines, List<String> extraArgs)
            throws IOException, InterruptedException {
        MqdeskBroker broker = new MqdeskBroker(brokerBinary, root.resolve("mqdesk-" + brokerSeq.incrementAndGet()),
                                               confLines, extraArgs);
        // Not closeLater: Main stops the brokers after the clients (SIGTERM, checked) or kills them.
        brokers.add(broker);
        return broker.start();
    }

    public <T extends AutoCloseable> T closeLater(T closeable) {
        synchronized (toClose) {
            toClose.push(closeable);
        }
        return closeable;
    }

    /** Registers a client's shutdown (the RocketMQ clients' close method is shutdown()). */
    public void shutdownLater(Runnable shutdown) {
        closeLater(shutdown::run);
    }

    List<MqdeskBroker> brokers() { return brokers; }

    void closeAll() {
        while (true) {
            AutoCloseable next;
            synchronized (toClose) {
                next = toClose.poll();
            }
            if (next == null)
                return;
            try {
                next.close();
            } catch (Throwable t) {
                Log.info("closing %s failed: %s", next, t);
            }
        }
    }
}
