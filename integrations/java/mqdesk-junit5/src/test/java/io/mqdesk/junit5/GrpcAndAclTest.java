package io.mqdesk.junit5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.ClientServiceProvider;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.apache.rocketmq.client.apis.producer.Producer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

/** The 5.x SDK through the gRPC endpoint the extension hands out, and a broker with ACL 2.0 on. */
class GrpcAndAclTest {
    @MqdeskBroker(topics = "grpc-orders:2:NORMAL", groups = "grpc-readers")
    static MqdeskServer grpc;

    @MqdeskBroker(topics = "secured", aclUser = "admin:secret12")
    static MqdeskServer secured;

    @Test
    void theFiveSdkSendsAndReceivesThroughTheEndpoint() throws Exception {
        ClientServiceProvider provider = ClientServiceProvider.loadService();
        // The SDK's default: TLS on. The endpoint takes TLS and plain text alike.
        ClientConfiguration config = ClientConfiguration.newBuilder().setEndpoints(grpc.grpcEndpoint())
            .setRequestTimeout(Duration.ofSeconds(10)).build();
        try (Producer producer = provider.newProducerBuilder().setClientConfiguration(config)
                 .setTopics("grpc-orders").build()) {
            for (int i = 0; i < 3; ++i)
                producer.send(provider.newMessageBuilder().setTopic("grpc-orders")
                    .setBody(("order-" + i).getBytes(StandardCharsets.UTF_8)).build());
        }
        List<String> received = new ArrayList<>();
        try (SimpleConsumer consumer = provider.newSimpleConsumerBuilder().setClientConfiguration(config)
                 .setConsumerGroup("grpc-readers").setAwaitDuration(Duration.ofSeconds(5))
                 .setSubscriptionExpressions(Map.of("grpc-orders", FilterExpression.SUB_ALL)).build()) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (received.size() < 3 && System.nanoTime() < deadline) {
                for (MessageView view : consumer.receive(16, Duration.ofSeconds(15))) {
                    received.add(StandardCharsets.UTF_8.decode(view.getBody()).toString());
                    consumer.ack(view);
                }
            }
        }
        received.sort(null);
        assertEquals(List.of("order-0", "order-1", "order-2"), received);
    }

    @Test
    void withAnAclUserOnlySignedRequestsPass() throws Exception {
        Message message = new Message("secured", "hello".getBytes(StandardCharsets.UTF_8));
        DefaultMQProducer anonymous = Clients.producer(secured, null);
        try {
            assertThrows(Exception.class, () -> anonymous.send(message));
        } finally {
            anonymous.shutdown();
        }
        DefaultMQProducer signed = Clients.producer(
            secured, new AclClientRPCHook(new SessionCredentials(secured.aclUser(), secured.aclPassword())));
        try {
            assertEquals(SendStatus.SEND_OK, signed.send(message).getSendStatus());
        } finally {
            signed.shutdown();
        }
    }
}
