package mqdesk.interop.harness;

import java.io.IOException;
import java.nio.file.Files;
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
    private final List<JavaPeer> javaPeers = new ArrayList<>();
    private final AtomicInteger javaSeq = new AtomicInteger();

    Env(Path brokerBinary, Path root) {
        this.brokerBinary = brokerBinary;
        this.root = root;
        this.runId = Long.toString(System.currentTimeMillis() % 1_000_000_000L, 36);
    }

    public Path root() { return root; }
    public Path brokerBinary() { return brokerBinary; }

    /**
     * mqdesk-admin: $MQDESK_INTEROP_ADMIN (CTest sets it to $<TARGET_FILE:mqdesk-admin>), else the
     * build tree's app/mqdesk-admin/mqdesk-admin beside app/mqdesk-broker/.
     */
    public Path adminBinary() {
        String fromEnv = System.getenv("MQDESK_INTEROP_ADMIN");
        if (fromEnv != null && !fromEnv.isEmpty())
            return Path.of(fromEnv).toAbsolutePath();
        return brokerBinary.getParent().getParent().resolve("mqdesk-admin").resolve("mqdesk-admin");
    }

    /** The output and exit status of a finished tool run. */
    public record ToolResult(int exitStatus, String stdout, String stderr) {}

    /** Runs a command (no stdin) and waits up to 60 s; stdout and stderr are kept apart. */
    public ToolResult runTool(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(root, "tool-", ".out");
        Path err = Files.createTempFile(root, "tool-", ".err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(command + " did not finish within 60 s");
        }
        ToolResult r = new ToolResult(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        Log.info("%s: exit status %d, %d bytes of output", String.join(" ", command), r.exitStatus(), r.stdout().length());
        return r;
    }

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

    /**
     * Starts a Java RocketMQ NameServer in a child JVM (on this module's class path when it holds
     * rocketmq-namesrv, else on javabroker's). Main stops it after the clients and brokers.
     */
    public JavaPeer startJavaNamesrv() throws IOException, InterruptedException {
        JavaPeer peer = JavaPeer.namesrv(root.resolve("java-namesrv-" + javaSeq.incrementAndGet()));
        peer.onClassPath(javaServerClassPath("org.apache.rocketmq.namesrv.NamesrvStartup"));
        javaPeers.add(peer);
        return peer.start();
    }

    /**
     * This JVM's class path (null) when it holds {@code mainClass}, else the javabroker module's
     * (rocketmq-namesrv, -broker and -proxy 5.5): any module can start Java servers.
     */
    private static String javaServerClassPath(String mainClass) throws IOException {
        try {
            Class.forName(mainClass, false, Env.class.getClassLoader());
            return null;
        } catch (ClassNotFoundException e) {
            return JavaPeer.javaBrokerClassPath();
        }
    }

    /**
     * Starts a Java RocketMQ broker in a child JVM registering with {@code namesrvAddr}, its store in
     * {@code storeDir}; confLines are extra broker.conf lines. Stopped after the clients, before the
     * NameServers (peers stop in reverse start order); stop() it earlier to reuse its store.
     */
    public JavaPeer startJavaBroker(String namesrvAddr, Path storeDir, String... confLines)
            throws IOException, InterruptedException {
        int n = javaSeq.incrementAndGet();
        JavaPeer peer = JavaPeer.broker(root.resolve("java-broker-" + n), "java-broker-" + n, namesrvAddr,
                                        storeDir, List.of(confLines));
        peer.onClassPath(javaServerClassPath("org.apache.rocketmq.broker.BrokerStartup"));
        javaPeers.add(peer);
        return peer.start();
    }

    /** Copies a store folder (sparse files stay sparse: a commitlog file is 1 GiB mapped). */
    public Path copyStore(Path from, Path to) throws IOException, InterruptedException {
        Process cp = new ProcessBuilder("cp", "-a", "--sparse=always", from.toString(), to.toString())
            .redirectErrorStream(true).start();
        String out = new String(cp.getInputStream().readAllBytes());
        Check.equal(0, cp.waitFor(), "cp -a " + from + " " + to + " exit status (" + out.strip() + ")");
        return to;
    }

    /**
     * Starts an mqdesk-broker (its own NameServer) over a copy of the store folder {@code seed}, e.g.
     * one a Java broker wrote.
     */
    public MqdeskBroker startBrokerOnCopyOf(Path seed, String... confLines) throws IOException, InterruptedException {
        MqdeskBroker broker = new MqdeskBroker(brokerBinary, root.resolve("mqdesk-" + brokerSeq.incrementAndGet()),
                                               List.of(confLines), List.of());
        copyStore(seed, broker.storeDir());
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

    /** In reverse start order (brokers before the NameServer they registered with). */
    List<JavaPeer> javaPeersReversed() { return reversed(javaPeers); }

    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }

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
