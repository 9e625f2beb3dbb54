package mqdesk.interop.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One mqdesk-broker process (NameServer + Broker, or a Broker registering with other NameServers)
 * on 127.0.0.1 with ports it picks itself, over a store folder of the scenario's temp dir.
 *
 * start() waits for the ready line and reads the addresses from it. stop() sends SIGTERM and
 * requires a clean exit (status 0, no `abort` file left in the store); kill() is SIGKILL. Both keep
 * the store, so start() again reopens it (the ports may change: clients must be re-created).
 * stdout and stderr go to broker-N.{stdout,stderr}.log beside the store, one N per start.
 */
public final class MqdeskBroker implements AutoCloseable {
    private static final Pattern READY = Pattern.compile(
        "^mqdesk-broker ready: namesrv=(\\S+) broker=(\\S+) store=(.+?)(?: grpc=(\\S+))?$");
    private static final long READY_TIMEOUT_S = 30;
    private static final long STOP_TIMEOUT_S = 20;

    private final Path binary;
    private final Path root;
    private final Path storeDir;
    private final Path confFile;
    private final List<String> extraArgs;
    private Process process;
    private int starts;
    private String namesrvAddr;
    private String brokerAddr;
    private String grpcAddr;

    /**
     * @param confLines broker.conf lines ("key=value") besides the defaults written here
     * @param extraArgs more mqdesk-broker arguments, e.g. {@code -n host:port} to use other NameServers
     */
    public MqdeskBroker(Path binary, Path root, List<String> confLines, List<String> extraArgs) throws IOException {
        this.binary = binary;
        this.root = root;
        this.storeDir = root.resolve("store");
        this.confFile = root.resolve("broker.conf");
        this.extraArgs = List.copyOf(extraArgs);
        Files.createDirectories(root);
        List<String> conf = new ArrayList<>();
        conf.add("brokerClusterName=DefaultCluster");
        conf.add("brokerName=mqdesk-interop");
        conf.addAll(confLines);
        Files.write(confFile, conf, StandardCharsets.UTF_8);
    }

    public MqdeskBroker start() throws IOException, InterruptedException {
        if (process != null && process.isAlive())
            throw new IllegalStateException("mqdesk-broker is already running");
        ++starts;
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--store", storeDir.toString(),
            "--namesrv-port", "0", "--broker-port", "0", "-c", confFile.toString()));
        command.addAll(extraArgs);
        ProcessBuilder builder = new ProcessBuilder(command)
            .redirectError(stderrLog().toFile());
        process = builder.start();
        Path stdoutLog = root.resolve("broker-" + starts + ".stdout.log");
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        // The ready line comes from a reader thread so that the wait has a deadline.
        final String[] ready = new String[1];
        Thread reader = new Thread(() -> {
            try (var log = Files.newBufferedWriter(stdoutLog, StandardCharsets.UTF_8)) {
                String line;
                while ((line = out.readLine()) != null) {
                    log.write(line);
                    log.newLine();
                    log.flush();
                    synchronized (ready) {
                        if (ready[0] == null && READY.matcher(line).matches()) {
                            ready[0] = line;
                            ready.notifyAll();
                        }
                    }
                }
            } catch (IOException ignored) {
                // The process ended; its exit status says how.
            }
        }, "mqdesk-broker-stdout-" + starts);
        reader.setDaemon(true);
        reader.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_TIMEOUT_S);
        synchronized (ready) {
            while (ready[0] == null) {
                if (!process.isAlive())
                    throw new IllegalStateException("mqdesk-broker exited with status " + process.exitValue()
                                                    + " before its ready line; stderr:\n" + stderrTail());
                long left = deadline - System.nanoTime();
                if (left <= 0)
                    throw new IllegalStateException("mqdesk-broker printed no ready line within "
                                                    + READY_TIMEOUT_S + " s; stderr:\n" + stderrTail());
                ready.wait(Math.min(200, TimeUnit.NANOSECONDS.toMillis(left) + 1));
            }
            Matcher m = READY.matcher(ready[0]);
            m.matches();
            namesrvAddr = m.group(1);
            brokerAddr = m.group(2);
            grpcAddr = m.group(4);
        }
        Log.info("mqdesk-broker #%d ready: namesrv=%s broker=%s", starts, namesrvAddr, brokerAddr);
        return this;
    }

    /** SIGTERM; requires exit status 0 and no `abort` file left (a clean shutdown). */
    public void stop() throws IOException, InterruptedException {
        if (process == null || !process.isAlive())
            return;
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("mqdesk-broker did not stop within " + STOP_TIMEOUT_S
                                            + " s of SIGTERM; stderr:\n" + stderrTail());
        }
        Check.equal(0, process.exitValue(), "mqdesk-broker exit status after SIGTERM");
        Check.that(!Files.exists(storeDir.resolve("abort")), "mqdesk-broker left %s after a clean stop",
                   storeDir.resolve("abort"));
        Log.info("mqdesk-broker #%d stopped cleanly", starts);
    }

    /** SIGKILL: no shutdown at all, as a crash or power cut leaves the process. */
    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor();
            Log.info("mqdesk-broker #%d killed", starts);
        }
    }

    @Override
    public void close() throws Exception {
        kill();
    }

    public String namesrvAddr() { return namesrvAddr; }
    public String brokerAddr() { return brokerAddr; }
    /** The RocketMQ 5 gRPC endpoint (host:port), what the 5.x SDKs are given as endpoints. */
    public String grpcAddr() { return grpcAddr; }
    public Path storeDir() { return storeDir; }
    public Path root() { return root; }
    public boolean isAlive() { return process != null && process.isAlive(); }

    public Path stderrLog() {
        return root.resolve("broker-" + starts + ".stderr.log");
    }

    /** The last 60 lines the broker wrote to stderr (its log). */
    public String stderrTail() {
        try {
            List<String> lines = Files.readAllLines(stderrLog(), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + stderrLog() + ": " + e.getMessage() + ")";
        }
    }
}
