package mqdesk.interop.scenarios;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import mqdesk.interop.harness.Env;

/**
 * The client's shaded logback (rocketmq-logback-classic) would pick rmq.broker.logback.xml from
 * rocketmq-broker on this module's class path and print its own status (~150 lines) to stdout.
 * A small config of ours instead: WARN and above to client-logs/client.log in the scenario folder.
 * Call first in run(), before any client exists.
 */
final class PeerLogging {
    private PeerLogging() {}

    static void quiet(Env env) throws IOException {
        Path dir = env.root().resolve("client-logs");
        Files.createDirectories(dir);
        Path config = dir.resolve("rmq.client.peer.logback.xml");
        Files.writeString(config, String.join("\n",
            "<configuration>",
            "  <appender name=\"FILE\" class=\"org.apache.rocketmq.logging.ch.qos.logback.core.FileAppender\">",
            "    <file>" + dir.resolve("client.log") + "</file>",
            "    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>",
            "  </appender>",
            "  <root level=\"WARN\"><appender-ref ref=\"FILE\"/></root>",
            "</configuration>", ""), StandardCharsets.UTF_8);
        System.setProperty("rmq.logback.configurationFile", config.toString());
    }
}
