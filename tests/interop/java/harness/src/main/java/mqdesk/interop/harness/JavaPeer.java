package mqdesk.interop.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Java RocketMQ NameServer (org.apache.rocketmq.namesrv.NamesrvStartup), broker
 * (org.apache.rocketmq.broker.BrokerStartup -c broker.conf) or proxy in cluster mode
 * (org.apache.rocketmq.proxy.ProxyStartup -pm cluster -pc rmq-proxy.json) in a child JVM, as a peer of
 * mqdesk-broker.
 *
 * The child runs the current JVM's class path, so only a module that depends on rocketmq-namesrv and
 * rocketmq-broker (tests/interop/java/peer) can start one. Each peer has its own folder: ROCKETMQ_HOME
 * and user.home point into it (the Java servers log to ${user.home}/logs/rocketmqlogs), stdout/stderr
 * go to peer.log there. Ports are free loopback ports picked here: a broker binds listenPort, and
 * also fastListenPort = listenPort - 2 and haListenPort = listenPort + 1, so all three must be free.
 *
 * A proxy runs the class path it is given (javaBrokerClassPath(): tests/interop/java/javabroker's,
 * which holds rocketmq-proxy), so any module can start one.
 *
 * The ports are checked free when picked, but any process may take one before the child binds it (an
 * outgoing connection's ephemeral port, a parallel test's listener). A first start that fails on
 * "Address already in use" picks fresh ports, rewrites the config and tries again (BIND_ATTEMPTS in all);
 * a restart keeps its ports, since clients already hold the address.
 *
 * start() waits for the "boot success" line ("rocketmq-proxy startup successfully" for a proxy); stop() is SIGTERM and, for a broker, requires that the
 * store has no `abort` file afterwards (a clean shutdown); kill() is SIGKILL.
 */
public final class JavaPeer implements AutoCloseable {
    public enum Kind { NAMESRV, BROKER, PROXY }

    private static final long READY_TIMEOUT_S = 60;
    private static final int BIND_ATTEMPTS = 4;
    private static final long STOP_TIMEOUT_S = 60;
    private static final String CLUSTER = "DefaultCluster";
    private static final java.util.regex.Pattern SUCCESS_CODE = java.util.regex.Pattern.compile("\"code\"\\s*:\\s*0\\b");

    private final Kind kind;
    private final Path root;
    private final Path confFile;
    private final Path storeDir;
    private int port; // re-picked when the first start finds a port taken (startOnFreePorts)
    private final String heap;
    private String classPath; // null: this JVM's java.class.path, read at start()
    private String namesrvAddr; // a proxy's: start() waits until it routes the cluster
    private Process process;
    private int starts;

    private JavaPeer(Kind kind, Path root, Path confFile, Path storeDir, int port, String heap) {
        this.kind = kind;
        this.root = root;
        this.confFile = confFile;
        this.storeDir = storeDir;
        this.port = port;
        this.heap = heap;
    }

    /**
     * A proxy in cluster mode for the cluster {@code namesrvAddr} names (DefaultCluster), its gRPC
     * endpoint on a free loopback port (port(), addr()), run on {@code classPath}. Not started yet.
     */
    public static JavaPeer proxy(Path root, String namesrvAddr, String classPath) throws IOException {
        return proxy(root, namesrvAddr, classPath, Map.of());
    }

    /**
     * The same, with further ProxyConfig fields in its rmq-proxy.json ({@code extraConfig}: field name to a
     * number, boolean or string), e.g. grpcClientConsumerMaxLongPollingTimeoutMillis.
     */
    public static JavaPeer proxy(Path root, String namesrvAddr, String classPath, Map<String, ?> extraConfig)
            throws IOException {
        Files.createDirectories(root);
        int grpcPort = freePort(0, 0);
        int remotingPort = freePort(0, 0);
        Path conf = root.resolve("rmq-proxy.json");
        StringBuilder extra = new StringBuilder();
        extraConfig.forEach((key, value) -> extra.append(", \"").append(key).append("\": ")
            .append(value instanceof String ? "\"" + value + "\"" : String.valueOf(value)));
        Files.writeString(conf, "{\"rocketMQClusterName\": \"DefaultCluster\", \"namesrvAddr\": \"" + namesrvAddr
            + "\", \"grpcServerPort\": " + grpcPort + ", \"remotingListenPort\": " + remotingPort + extra + "}\n");
        JavaPeer peer = new JavaPeer(Kind.PROXY, root, conf, null, grpcPort, "-Xmx384m");
        peer.classPath = classPath;
        peer.namesrvAddr = namesrvAddr;
        return peer;
    }

    /**
     * The class path of tests/interop/java/javabroker (rocketmq-namesrv, -broker and -proxy 5.5),
     * from its target/classpath.txt beside the module on this JVM's class path.
     */
    public static String javaBrokerClassPath() throws IOException {
        String own = System.getProperty("java.class.path");
        for (String entry : own.split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry).toAbsolutePath().normalize();
            if (p.endsWith(Path.of("target", "classes"))) {
                Path file = p.getParent().getParent().getParent().resolve("javabroker").resolve("target").resolve("classpath.txt");
                if (Files.exists(file))
                    return Files.readString(file).strip();
            }
        }
        throw new IllegalStateException("tests/interop/java/javabroker/target/classpath.txt not found beside "
                                        + "this module: build the interop modules (mvn package)");
    }

    /** A NameServer on a free loopback port, not started yet. */
    public static JavaPeer namesrv(Path root) throws IOException {
        Files.createDirectories(root);
        int port = freePort(0, 0);
        Path conf = root.resolve("namesrv.conf");
        Files.write(conf, List.of("listenPort=" + port), StandardCharsets.UTF_8);
        return new JavaPeer(Kind.NAMESRV, root, conf, null, port, "-Xmx256m");
    }

    /**
     * A broker (brokerId 0, brokerIP1 127.0.0.1, ASYNC_FLUSH) registering with {@code namesrvAddr},
     * its store in {@code storeDir}; confLines are further broker.conf lines (they override the ones
     * written here: later keys win in a properties file). Not started yet.
     */
    public static JavaPeer broker(Path root, String brokerName, String namesrvAddr, Path storeDir,
                                  List<String> confLines) throws IOException {
        Files.createDirectories(root);
        int port = freePort(2, 1);
        List<String> conf = new ArrayList<>(List.of(
            "brokerClusterName=DefaultCluster",
            "brokerName=" + brokerName,
            "brokerId=0",
            "namesrvAddr=" + namesrvAddr,
            "brokerIP1=127.0.0.1",
            "listenPort=" + port,
            "storePathRootDir=" + storeDir,
            "storePathCommitLog=" + storeDir.resolve("commitlog"),
            "flushDiskType=ASYNC_FLUSH",
            "autoCreateTopicEnable=true"));
        conf.addAll(confLines);
        Path confPath = root.resolve("broker.conf");
        Files.write(confPath, conf, StandardCharsets.UTF_8);
        return new JavaPeer(Kind.BROKER, root, confPath, storeDir, port, "-Xmx512m");
    }

    /** Runs the peer on {@code classPath} (null: this JVM's); before start(). */
    public JavaPeer onClassPath(String classPath) {
        this.classPath = classPath;
        return this;
    }

    public JavaPeer start() throws IOException, InterruptedException {
        if (process != null && process.isAlive())
            throw new IllegalStateException(this + " is already running");
        if (kind == Kind.PROXY)
            awaitClusterRoute(namesrvAddr, CLUSTER, READY_TIMEOUT_S);
        if (starts > 0)
            return launch();
        for (int attempt = 1;; ++attempt) {
            try {
                return launch();
            } catch (PortTakenException e) {
                if (attempt == BIND_ATTEMPTS)
                    throw e;
                int was = port;
                repickPorts();
                Log.info("%s: a port of %d was taken before the child bound it (%s); trying again on %d", this, was,
                         e.getMessage().lines().findFirst().orElse(""), port);
            }
        }
    }

    /** A child that exited before booting because a port it binds was taken meanwhile. */
    private static final class PortTakenException extends IllegalStateException {
        PortTakenException(String message) { super(message); }
    }

    /** New free ports for a peer that never booted, written into its config file. */
    private void repickPorts() throws IOException {
        String conf = Files.readString(confFile, StandardCharsets.UTF_8);
        switch (kind) {
            case NAMESRV -> port = freePort(0, 0);
            case BROKER -> port = freePort(2, 1);
            case PROXY -> {
                port = freePort(0, 0);
                conf = conf.replaceFirst("\"remotingListenPort\": \\d+", "\"remotingListenPort\": " + freePort(0, 0));
            }
        }
        conf = kind == Kind.PROXY ? conf.replaceFirst("\"grpcServerPort\": \\d+", "\"grpcServerPort\": " + port)
                                  : conf.replaceFirst("(?m)^listenPort=\\d+$", "listenPort=" + port);
        Files.writeString(confFile, conf, StandardCharsets.UTF_8);
    }

    private JavaPeer launch() throws IOException, InterruptedException {
        ++starts;
        Path home = root.resolve("home");
        Files.createDirectories(home);
        List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            heap, "-Xms64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:MaxDirectMemorySize=256m",
            "-Duser.home=" + home, "-Drocketmq.home.dir=" + home,
            "-cp", classPath != null ? classPath : System.getProperty("java.class.path")));
        switch (kind) {
            case NAMESRV -> command.addAll(List.of("org.apache.rocketmq.namesrv.NamesrvStartup", "-c", confFile.toString()));
            case BROKER -> command.addAll(List.of("org.apache.rocketmq.broker.BrokerStartup", "-c", confFile.toString()));
            case PROXY -> command.addAll(List.of("org.apache.rocketmq.proxy.ProxyStartup", "-pm", "cluster", "-pc",
                                                 confFile.toString()));
        }
        final String readyLine = kind == Kind.PROXY ? "rocketmq-proxy startup successfully" : "boot success";
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("ROCKETMQ_HOME", home.toString());
        process = builder.start();
        Path log = log();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        final boolean[] ready = new boolean[1];
        Thread reader = new Thread(() -> {
            try (var w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
                String line;
                while ((line = out.readLine()) != null) {
                    // logback's own status lines (|-INFO …) are noise.
                    if (line.contains(" |-"))
                        continue;
                    w.write(line);
                    w.newLine();
                    w.flush();
                    if (line.contains(readyLine)) {
                        synchronized (ready) {
                            ready[0] = true;
                            ready.notifyAll();
                        }
                    }
                }
            } catch (IOException ignored) {
                // The process ended; its exit status says how.
            }
        }, "java-" + kind + "-stdout-" + starts);
        reader.setDaemon(true);
        reader.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_TIMEOUT_S);
        synchronized (ready) {
            while (!ready[0]) {
                if (!process.isAlive()) {
                    reader.join(2000); // the whole output, to tell a port clash from other failures
                    String message = this + " exited with status " + process.exitValue()
                                     + " before booting; output:\n" + tail();
                    throw message.contains("java.net.BindException") ? new PortTakenException(message)
                                                                     : new IllegalStateException(message);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0)
                    throw new IllegalStateException(this + " did not boot within " + READY_TIMEOUT_S
                                                    + " s; output:\n" + tail());
                ready.wait(Math.min(200, TimeUnit.NANOSECONDS.toMillis(left) + 1));
            }
        }
        Log.info("%s #%d ready", this, starts);
        return this;
    }

    /**
     * Waits until the NameServer at {@code namesrvAddr} answers a route for the topic named {@code cluster}.
     * A cluster-mode proxy creates its system topics on that route at start and exits when there is none;
     * a Java broker can print "boot success" before its first registration reached the NameServer (the
     * registration times out under load and is retried 30 s later).
     */
    private static void awaitClusterRoute(String namesrvAddr, String cluster, long timeoutS)
        throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        String[] hostPort = namesrvAddr.split(":");
        int opaque = 0;
        String last = "";
        while (System.nanoTime() < deadline) {
            try (java.net.Socket socket = new java.net.Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
                socket.setSoTimeout(5000);
                // RemotingCommand, JSON header: GET_ROUTEINFO_BY_TOPIC (105) {topic: cluster}.
                byte[] header = ("{\"code\":105,\"language\":\"JAVA\",\"version\":0,\"opaque\":" + ++opaque
                                 + ",\"flag\":0,\"extFields\":{\"topic\":\"" + cluster + "\"}}")
                                    .getBytes(StandardCharsets.UTF_8);
                var frame = new java.io.DataOutputStream(socket.getOutputStream());
                frame.writeInt(4 + header.length);
                frame.writeInt(header.length);
                frame.write(header);
                frame.flush();
                var in = new java.io.DataInputStream(socket.getInputStream());
                byte[] answer = new byte[in.readInt()];
                in.readFully(answer);
                int headerLength = ((answer[0] & 0xff) << 24 | (answer[1] & 0xff) << 16 | (answer[2] & 0xff) << 8
                                    | (answer[3] & 0xff)) & 0xffffff;
                last = new String(answer, 4, headerLength, StandardCharsets.UTF_8);
                if (SUCCESS_CODE.matcher(last).find())
                    return;
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("NameServer " + namesrvAddr + " has no route for cluster " + cluster
                                        + " after " + timeoutS + " s; its last answer: " + last);
    }

    /** SIGTERM (the JVM's shutdown hook stops the server); a broker must leave no `abort` file. */
    public void stop() throws IOException, InterruptedException {
        if (process == null || !process.isAlive())
            return;
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(this + " did not stop within " + STOP_TIMEOUT_S
                                            + " s of SIGTERM; output:\n" + tail());
        }
        if (kind == Kind.BROKER)
            Check.that(!Files.exists(storeDir.resolve("abort")), "%s left %s after SIGTERM", this,
                       storeDir.resolve("abort"));
        Log.info("%s #%d stopped (exit status %d)", this, starts, process.exitValue());
    }

    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor();
            Log.info("%s #%d killed", this, starts);
        }
    }

    @Override
    public void close() throws Exception {
        kill();
    }

    public Kind kind() { return kind; }
    public String addr() { return "127.0.0.1:" + port; }
    public int port() { return port; }
    public Path storeDir() { return storeDir; }
    public Path root() { return root; }
    public Path log() { return root.resolve("peer-" + starts + ".log"); }

    /** The last lines of the child's output and of its rocketmqlogs broker/namesrv log. */
    public String tail() {
        StringBuilder s = new StringBuilder(tailOf(log(), 20));
        Path logs = root.resolve("home/logs/rocketmqlogs");
        for (String name : List.of("namesrv.log", "broker.log", "store.log", "proxy.log")) {
            Path p = logs.resolve(name);
            if (Files.exists(p))
                s.append("\n-- ").append(p).append(":\n").append(tailOf(p, 25));
        }
        return s.toString();
    }

    private static String tailOf(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return (kind == Kind.NAMESRV ? "Java NameServer " : kind == Kind.BROKER ? "Java broker " : "Java proxy ") + addr();
    }

    /**
     * A port p that is free on all addresses, with p - below .. p + above free too (the broker's
     * fastListenPort and haListenPort), drawn at random from 20000-32000: below Linux's ephemeral range
     * (32768-60999), so neither an outgoing connection nor a parallel test's bind(0) takes it before the
     * child binds it.
     */
    static int freePort(int below, int above) throws IOException {
        for (int attempt = 0; attempt < 200; ++attempt) {
            int p = java.util.concurrent.ThreadLocalRandom.current().nextInt(20000, 32000);
            boolean ok = true;
            for (int q = p - below; q <= p + above && ok; ++q)
                ok = isFree(q);
            if (ok)
                return p;
        }
        throw new IOException("no free port with " + below + " free below and " + above + " above");
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
