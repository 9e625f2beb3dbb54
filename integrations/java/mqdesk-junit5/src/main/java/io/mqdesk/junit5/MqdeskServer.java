package io.mqdesk.junit5;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One running mqdesk-broker: a RocketMQ NameServer, broker and RocketMQ 5 gRPC endpoint in one child
 * process, on ports it picked itself (so brokers started side by side never clash), its store in a fresh
 * temporary folder. Clients use it unchanged: 4.x-style clients through {@link #namesrvAddr()}, the 5.x
 * SDKs through {@link #grpcEndpoint()}.
 *
 * <pre>{@code
 * try (MqdeskServer broker = MqdeskServer.builder().topic("orders:4").start()) {
 *     producer.setNamesrvAddr(broker.namesrvAddr());
 *     ...
 * }
 * }</pre>
 *
 * {@link #stop()} (and close()) send SIGTERM and require a clean stop: exit status 0 and no {@code abort}
 * file left in the store, the broker's own sign of a shutdown that did not finish. The temporary folder is
 * deleted after a clean stop and after a failed start (the exception holds the end of the log), and kept,
 * with the broker's log in it, after a stop that was not clean. Brokers still
 * running when the JVM exits are killed by a shutdown hook. Thread-safe.
 */
public final class MqdeskServer implements AutoCloseable {
    private static final Pattern READY_LINE =
        Pattern.compile("^mqdesk-broker ready: namesrv=(\\S+) broker=(\\S+) store=(.+?)(?: grpc=(\\S+))?$");
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly),
                                                        "mqdesk-broker-reaper"));
    }

    private final Process process;
    private final Path folder;
    private final Path log;
    private final String namesrvAddr;
    private final String brokerAddr;
    private final String grpcEndpoint;
    private final Path storeDir;
    private final String aclUser;
    private final String aclPassword;
    private boolean stopped;

    private MqdeskServer(Process process, Path folder, Path log, Matcher ready, String aclUser, String aclPassword) {
        this.process = process;
        this.folder = folder;
        this.log = log;
        this.namesrvAddr = ready.group(1);
        this.brokerAddr = ready.group(2);
        this.storeDir = Path.of(ready.group(3));
        this.grpcEndpoint = ready.group(4);
        this.aclUser = aclUser;
        this.aclPassword = aclPassword;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The NameServer, "127.0.0.1:port": rocketmq.name-server, setNamesrvAddr(). */
    public String namesrvAddr() { return namesrvAddr; }

    /** The broker itself, "127.0.0.1:port" (admin tools, direct requests). */
    public String brokerAddr() { return brokerAddr; }

    /** The RocketMQ 5 gRPC endpoint, "127.0.0.1:port": the 5.x SDKs' setEndpoints(). Plain text or TLS. */
    public String grpcEndpoint() { return grpcEndpoint; }

    /** The store root (commitlog, consumequeue, config, …), readable while it runs. */
    public Path storeDir() { return storeDir; }

    /** The broker's log (its stderr). */
    public Path logFile() { return log; }

    /** With access control on (Builder.aclUser), the super user's name and password; else null. */
    public String aclUser() { return aclUser; }
    public String aclPassword() { return aclPassword; }

    public long pid() { return process.pid(); }

    public synchronized boolean isRunning() { return !stopped && process.isAlive(); }

    /**
     * SIGTERM, then waits for the broker to flush and close its store. Throws when it does not stop within
     * 30 s (it is killed then), exits with another status than 0 or leaves an {@code abort} file. Calling it
     * again does nothing.
     */
    public synchronized void stop() throws IOException {
        if (stopped)
            return;
        stopped = true;
        process.destroy();
        boolean exited;
        try {
            exited = process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exited = false;
        }
        if (!exited) {
            process.destroyForcibly();
            RUNNING.remove(process);
            throw new IOException("mqdesk-broker " + brokerAddr + " did not stop within " + STOP_TIMEOUT.toSeconds()
                                  + " s of SIGTERM and was killed; its log: " + log + "\n" + tail(log));
        }
        RUNNING.remove(process);
        if (process.exitValue() != 0)
            throw new IOException("mqdesk-broker " + brokerAddr + " exited with status " + process.exitValue()
                                  + " after SIGTERM; its log: " + log + "\n" + tail(log));
        if (Files.exists(storeDir.resolve("abort")))
            throw new IOException("mqdesk-broker " + brokerAddr + " left " + storeDir.resolve("abort")
                                  + " after SIGTERM (its shutdown did not finish); its log: " + log);
        deleteTree(folder);
    }

    @Override
    public void close() throws IOException {
        stop();
    }

    @Override
    public String toString() {
        return "mqdesk-broker[namesrv=" + namesrvAddr + " broker=" + brokerAddr + " grpc=" + grpcEndpoint + "]";
    }

    /** What to start; {@link #start()} starts it. Every setting may be left out. */
    public static final class Builder {
        private Path binary;
        private final List<String> topics = new ArrayList<>();
        private final List<String> groups = new ArrayList<>();
        private final Map<String, String> config = new LinkedHashMap<>();
        private String aclUser;
        private String aclPassword;
        private Duration readyTimeout = Duration.ofSeconds(30);
        private Path tempRoot;

        private Builder() {}

        /** Where the broker's temporary folder is made; default: java.io.tmpdir. */
        public Builder tempRoot(Path directory) {
            this.tempRoot = directory;
            return this;
        }

        /** The mqdesk-broker to run; default: mqdesk.broker, MQDESK_BROKER, PATH, /usr/bin. */
        public Builder binary(Path path) {
            this.binary = path;
            return this;
        }

        /** Topics created before the broker is ready: "NAME[:QUEUES[:TYPE]]", e.g. "orders:4:FIFO". */
        public Builder topic(String... specs) {
            topics.addAll(List.of(specs));
            return this;
        }

        /** Subscription groups created before it is ready: "NAME", or "NAME:orderly" for a FIFO group. */
        public Builder group(String... specs) {
            groups.addAll(List.of(specs));
            return this;
        }

        /** Any broker.conf key (RocketMQ's names): "flushDiskType", "autoCreateTopicEnable", … */
        public Builder config(String key, String value) {
            if (key.isBlank() || key.contains("=") || (key + value).contains("\n") || (key + value).contains("\r"))
                throw new IllegalArgumentException("bad broker.conf entry '" + key + "=" + value + "'");
            config.put(key.strip(), value.strip());
            return this;
        }

        /** "key=value" lines, as in broker.conf. */
        public Builder config(String... lines) {
            for (String line : lines) {
                int eq = line.indexOf('=');
                if (eq <= 0)
                    throw new IllegalArgumentException("broker.conf entry '" + line + "' is not key=value");
                config(line.substring(0, eq), line.substring(eq + 1));
            }
            return this;
        }

        /** flushDiskType=SYNC_FLUSH: a send is acknowledged once on disk (fsync), as in production. */
        public Builder syncFlush() {
            return config("flushDiskType", "SYNC_FLUSH");
        }

        /** autoCreateTopicEnable (default true): false makes a send to an unknown topic fail, as in production. */
        public Builder autoCreateTopics(boolean enabled) {
            return config("autoCreateTopicEnable", String.valueOf(enabled));
        }

        /**
         * ACL 2.0 on (authentication and authorization), {@code user} its super user: clients must sign their
         * requests (AclClientRPCHook, the 5.x SDKs' credentials provider).
         */
        public Builder aclUser(String user, String password) {
            if (user.contains("\"") || password.contains("\"") || user.contains("\\") || password.contains("\\"))
                throw new IllegalArgumentException("ACL user and password must not hold quotes or backslashes");
            this.aclUser = user;
            this.aclPassword = password;
            config("authenticationEnabled", "true");
            config("authorizationEnabled", "true");
            return config("initAuthenticationUser", "{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}");
        }

        public Builder readyTimeout(Duration timeout) {
            this.readyTimeout = timeout;
            return this;
        }

        /**
         * Starts the broker and returns once it serves (its ready line), with the topics and groups created.
         * Throws, with the broker's log, when it exits or is not ready within the ready timeout.
         */
        public MqdeskServer start() throws IOException {
            Path executable = BrokerBinary.locate(binary);
            Path folder = tempRoot != null ? Files.createTempDirectory(tempRoot, "mqdesk-broker-")
                                           : Files.createTempDirectory("mqdesk-broker-");
            Path conf = folder.resolve("broker.conf");
            List<String> confLines = new ArrayList<>();
            config.forEach((key, value) -> confLines.add(key + "=" + value));
            Files.write(conf, confLines, StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>(List.of(
                executable.toString(), "--store", folder.resolve("store").toString(), "--namesrv-port", "0",
                "--broker-port", "0", "--grpc-port", "0", "-c", conf.toString()));
            topics.forEach(t -> command.addAll(List.of("--topic", t)));
            groups.forEach(g -> command.addAll(List.of("--group", g)));
            Path log = folder.resolve("broker.log");
            Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
            RUNNING.add(process);
            CompletableFuture<Matcher> ready = new CompletableFuture<>();
            Thread reader = new Thread(() -> readStdout(process, ready), "mqdesk-broker-stdout-" + process.pid());
            reader.setDaemon(true);
            reader.start();
            try {
                Matcher line = ready.get(readyTimeout.toMillis(), TimeUnit.MILLISECONDS);
                if (line != null)
                    return new MqdeskServer(process, folder, log, line, aclUser, aclPassword);
                process.waitFor(5, TimeUnit.SECONDS);
                throw new IOException("mqdesk-broker (" + executable + ") exited"
                                      + (process.isAlive() ? "" : " with status " + process.exitValue())
                                      + " before it was ready; its log:\n" + tail(log));
            } catch (TimeoutException e) {
                throw new IOException("mqdesk-broker (" + executable + ") was not ready within "
                                      + readyTimeout.toSeconds() + " s; its log:\n" + tail(log));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while mqdesk-broker started", e);
            } catch (ExecutionException e) {
                throw new IOException("reading mqdesk-broker's output failed", e.getCause());
            } finally {
                if (!ready.isDone() || ready.getNow(null) == null) {
                    // Not started: nothing of it stays behind (its log's end is in the exception).
                    process.destroyForcibly();
                    RUNNING.remove(process);
                    try {
                        process.waitFor(5, TimeUnit.SECONDS);
                        deleteTree(folder);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (IOException ignored) {
                        // A folder left in the temporary directory is no reason to hide the first error.
                    }
                }
            }
        }

        // Completes `ready` with the ready line's match, or null when stdout ends first; then drains it.
        private static void readStdout(Process process, CompletableFuture<Matcher> ready) {
            try (BufferedReader out = new BufferedReader(
                     new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    Matcher m = READY_LINE.matcher(line);
                    if (!ready.isDone() && m.matches())
                        ready.complete(m);
                }
            } catch (IOException ignored) {
                // The process ended; start() or stop() report how.
            }
            ready.complete(null);
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList())
                Files.deleteIfExists(p);
        }
    }
}
