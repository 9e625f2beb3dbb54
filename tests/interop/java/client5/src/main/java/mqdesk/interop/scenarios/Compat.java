package mqdesk.interop.scenarios;

import java.util.Map;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;

/** What differs between the client versions' APIs; client4 has its own Compat with the same methods. */
final class Compat {
    private Compat() {}

    static final String CLIENT = "rocketmq-client 5.x";

    static void createTopic(DefaultMQProducer producer, String topic, int queues) throws Exception {
        producer.createTopic("TBW102", topic, queues, Map.of());
    }

    static void setBroadcasting(DefaultMQPushConsumer consumer, boolean broadcasting) {
        consumer.setMessageModel(broadcasting ? MessageModel.BROADCASTING : MessageModel.CLUSTERING);
    }
}
