package mqdesk.interop.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Runs one scenario: {@code java -cp … mqdesk.interop.harness.Main <Scenario> <path/to/mqdesk-broker>}.
 *
 * The scenario gets a fresh temp folder. On success everything it started is closed, the brokers are
 * stopped with SIGTERM (they must exit cleanly), then the Java peers (JavaPeer: brokers before the
 * NameServers), the folder is removed and the exit status is 0. On
 * failure (an exception, or the deadline) it prints what differed and each broker's log tail, keeps
 * the folder and exits 1. The clients' own threads never keep the JVM alive: it ends by exit().
 *
 * Environment: MQDESK_INTEROP_TIMEOUT_S (default 150), MQDESK_INTEROP_KEEP=1 keeps the folder,
 * MQDESK_INTEROP_ADMIN the mqdesk-admin binary (Env#adminBinary).
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: Main <Scenario> <path/to/mqdesk-broker>");
            System.exit(2);
        }
        // The RocketMQ clients log through their own logger into ~/logs/rocketmqlogs by default;
        // keep them quiet and inside the scenario's folder. 4.x reads rocketmq.client.*; 5.x logs
        // through its own logback (rmq.client.logback.xml), which reads rocketmq.log.*.
        Path root = Files.createTempDirectory("mqdesk-interop-" + args[0] + "-");
        String clientLogLevel = System.getenv().getOrDefault("MQDESK_INTEROP_CLIENT_LOG", "WARN");
        System.setProperty("rocketmq.client.logRoot", root.resolve("client-logs").toString());
        System.setProperty("rocketmq.client.logLevel", clientLogLevel);
        System.setProperty("rocketmq.client.logUseSlf4j", "false");
        System.setProperty("rocketmq.log.root", root.resolve("client-logs").toString());
        System.setProperty("rocketmq.log.level", clientLogLevel);
        Env env = new Env(Path.of(args[1]).toAbsolutePath(), root);
        startWatchdog(args[0], env);

        Scenario scenario = (Scenario) Class.forName("mqdesk.interop.scenarios." + args[0])
                                            .getDeclaredConstructor().newInstance();
        Log.info("scenario %s in %s", args[0], root);
        try {
            scenario.run(env);
            env.closeAll();
            for (MqdeskBroker broker : env.brokers())
                broker.stop();
            for (JavaPeer peer : env.javaPeersReversed())
                peer.stop();
        } catch (Throwable failure) {
            fail(args[0], env, failure);
        }
        if (!"1".equals(System.getenv("MQDESK_INTEROP_KEEP")))
            removeTree(root);
        Log.info("scenario %s passed", args[0]);
        System.exit(0);
    }

    private static void fail(String name, Env env, Throwable failure) {
        System.out.flush();
        System.err.println("\nscenario " + name + " FAILED:");
        failure.printStackTrace();
        for (MqdeskBroker broker : env.brokers())
            System.err.println("\n-- " + broker.stderrLog() + " (last lines):\n" + broker.stderrTail());
        for (JavaPeer peer : env.javaPeersReversed())
            System.err.println("\n-- " + peer + ", " + peer.log() + " (last lines):\n" + peer.tail());
        System.err.println("\n-- kept for inspection: " + env.root());
        env.closeAll();
        for (MqdeskBroker broker : env.brokers()) {
            try {
                broker.kill();
            } catch (InterruptedException ignored) {
                // Exiting anyway.
            }
        }
        for (JavaPeer peer : env.javaPeersReversed()) {
            try {
                peer.kill();
            } catch (InterruptedException ignored) {
                // Exiting anyway.
            }
        }
        System.exit(1);
    }

    private static void startWatchdog(String name, Env env) {
        long seconds = Long.parseLong(System.getenv().getOrDefault("MQDESK_INTEROP_TIMEOUT_S", "150"));
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(seconds * 1000);
            } catch (InterruptedException e) {
                return;
            }
            StringBuilder dump = new StringBuilder();
            for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false))
                dump.append(info);
            System.err.println("threads at the deadline:\n" + dump);
            fail(name, env, new AssertionError("scenario did not finish within " + seconds + " s"));
        }, "interop-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    private static void removeTree(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
