package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;

/**
 * The Java 5.x SDK and the gRPC endpoint's TLS. With Java's default mode (permissive, a self-signed
 * certificate made at the first start) a producer and a SimpleConsumer with the SDK's default
 * configuration (TLS on) and a plaintext producer (enableSsl(false)) share the port; with
 * tls.server.mode=enforcing, TLS clients are served and a plaintext producer cannot start. The broker
 * counts what it did in its runtime info (grpcTlsConnectionsAccepted / Refused).
 */
public class GrpcTls implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker permissive = Grpc5.startBroker(env);
        roundTrip(env, permissive, true);
        Check.that(java.nio.file.Files.exists(permissive.storeDir().resolve("config/tls/mqdesk-selfsigned.pem")),
                   "the self-signed certificate is kept in the store's config folder");

        MqdeskBroker enforcing = Grpc5.startBroker(env, "tls.server.mode=enforcing");
        roundTrip(env, enforcing, false);
        String topic = Grpc5.topic(env, enforcing, "NORMAL", 1);
        long started = System.nanoTime();
        try {
            // Its start asks for the topic's route: the first call, refused.
            Producer plain = Grpc5.PROVIDER.newProducerBuilder()
                .setClientConfiguration(Grpc5.plaintextConfig(enforcing)).setTopics(topic).build();
            plain.close();
            throw new AssertionError("a plaintext producer started against an enforcing endpoint");
        } catch (Exception e) {
            Log.info("plaintext producer refused as expected after %d ms: %s",
                     (System.nanoTime() - started) / 1_000_000, String.valueOf(e.getMessage()).split("\n")[0]);
        }
        var status = env.runTool(List.of(env.adminBinary().toString(), "--tls", "-n", enforcing.namesrvAddr(), "brokerStatus",
            "-b", enforcing.brokerAddr()));
        Check.that(status.stdout().matches("(?s).*grpcTlsConnectionsAccepted\\s*:\\s*[1-9].*"),
                   "TLS connections counted: %s", status.stdout());
        Check.that(status.stdout().matches("(?s).*grpcTlsConnectionsRefused\\s*:\\s*[1-9].*"),
                   "the plaintext connection counted as refused: %s", status.stdout());
    }

    /** 5 messages from a TLS producer (and 5 from a plaintext one when `plaintextToo`) to a TLS consumer. */
    private static void roundTrip(Env env, MqdeskBroker broker, boolean plaintextToo) throws Exception {
        String topic = Grpc5.topic(env, broker, "NORMAL", 2);
        Set<String> sent = new HashSet<>();
        send(env, Grpc5.config(broker), topic, "tls", sent);
        if (plaintextToo)
            send(env, Grpc5.plaintextConfig(broker), topic, "plain", sent);
        SimpleConsumer consumer = env.closeLater(Grpc5.PROVIDER.newSimpleConsumerBuilder()
            .setClientConfiguration(Grpc5.config(broker)).setConsumerGroup(env.unique("grpcTls"))
            .setAwaitDuration(Duration.ofSeconds(5))
            .setSubscriptionExpressions(Map.of(topic, FilterExpression.SUB_ALL)).build());
        Set<String> received = new HashSet<>();
        for (MessageView view : Grpc5.receive(consumer, sent.size(), Duration.ofSeconds(30), true))
            received.add(Grpc5.text(view.getBody()));
        Check.equal(sent, received, "messages received over TLS");
        Log.info("%s: %d messages sent%s and received over TLS", broker.grpcAddr(), sent.size(),
                 plaintextToo ? " (half in plaintext)" : "");
    }

    private static void send(Env env, ClientConfiguration config, String topic, String prefix, Set<String> sent)
            throws Exception {
        try (Producer producer = Grpc5.PROVIDER.newProducerBuilder().setClientConfiguration(config)
                 .setTopics(topic).build()) {
            for (int i = 0; i < 5; ++i) {
                String body = prefix + "-" + i;
                producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(topic)
                    .setBody(body.getBytes(StandardCharsets.UTF_8)).build());
                sent.add(body);
            }
        }
    }
}
