package mqdesk.interop.scenarios;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.ClientServiceProvider;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;

/** What the Grpc* scenarios share: the SDK's configuration for a broker, typed topics, receiving. */
final class Grpc5 {
    static final ClientServiceProvider PROVIDER = ClientServiceProvider.loadService();

    private Grpc5() {}

    /**
     * A broker whose receives poll at most 5 s (Java's 20 s): a PushConsumer's close waits for its
     * receive in flight, so each scenario ends ~15 s sooner.
     */
    static MqdeskBroker startBroker(Env env, String... confLines) throws Exception {
        List<String> conf = new ArrayList<>(List.of(confLines));
        conf.add("grpcClientConsumerMaxLongPollingTimeoutMillis=5000");
        return env.startBroker(conf.toArray(new String[0]));
    }

    /**
     * The SDK's configuration as applications write it: its defaults, TLS on (the broker's
     * permissive TLS, with the certificate it made; the SDK trusts any).
     */
    static ClientConfiguration config(MqdeskBroker broker) {
        return ClientConfiguration.newBuilder()
            .setEndpoints(broker.grpcAddr())
            .setRequestTimeout(Duration.ofSeconds(3))
            .build();
    }

    /** The gRPC endpoint in plain text (enableSsl(false)). */
    static ClientConfiguration plaintextConfig(MqdeskBroker broker) {
        return ClientConfiguration.newBuilder()
            .setEndpoints(broker.grpcAddr())
            .enableSsl(false)
            .setRequestTimeout(Duration.ofSeconds(3))
            .build();
    }

    /** A topic of a 5.x message type, made with mqdesk-admin as a user does with mqadmin. */
    static String topic(Env env, MqdeskBroker broker, String type, int queues) throws Exception {
        String topic = env.unique("grpc" + type);
        // --tls: served in every mode but disabled, as Java's tools with -Dtls.enable=true.
        var result = env.runTool(List.of(env.adminBinary().toString(), "--tls", "-n", broker.namesrvAddr(), "updateTopic",
            "-t", topic, "-b", broker.brokerAddr(), "-r", Integer.toString(queues), "-w", Integer.toString(queues),
            "-a", "+message.type=" + type));
        Check.equal(0, result.exitStatus(), "mqdesk-admin updateTopic " + topic + ": " + result.stderr());
        return topic;
    }

    static String group(Env env, MqdeskBroker broker, boolean orderly) throws Exception {
        String group = env.unique(orderly ? "grpcFifoGroup" : "grpcGroup");
        var result = env.runTool(List.of(env.adminBinary().toString(), "-n", broker.namesrvAddr(), "updateSubGroup",
            "-g", group, "-b", broker.brokerAddr(), "-o", Boolean.toString(orderly)));
        Check.equal(0, result.exitStatus(), "mqdesk-admin updateSubGroup " + group + ": " + result.stderr());
        return group;
    }

    /** Receives until `want` messages came or `timeout` passed; acks each when `ack`. */
    static List<MessageView> receive(SimpleConsumer consumer, int want, Duration timeout, boolean ack) throws Exception {
        List<MessageView> got = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (got.size() < want && System.nanoTime() < deadline) {
            for (MessageView view : consumer.receive(16, Duration.ofSeconds(15))) {
                got.add(view);
                if (ack)
                    consumer.ack(view);
            }
        }
        return got;
    }

    static String text(ByteBuffer body) {
        ByteBuffer copy = body.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
