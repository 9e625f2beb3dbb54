package mqdesk.interop.scenarios;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.protocol.heartbeat.MessageModel;

/** What differs between the client versions' APIs; client5 has its own Compat with the same methods. */
final class Compat {
    private Compat() {}

    static final String CLIENT = "rocketmq-client 4.9.8";

    static void createTopic(DefaultMQProducer producer, String topic, int queues) throws Exception {
        producer.createTopic("TBW102", topic, queues);
    }

    static void setBroadcasting(DefaultMQPushConsumer consumer, boolean broadcasting) {
        consumer.setMessageModel(broadcasting ? MessageModel.BROADCASTING : MessageModel.CLUSTERING);
    }
}
