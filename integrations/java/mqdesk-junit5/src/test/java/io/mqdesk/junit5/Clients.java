package io.mqdesk.junit5;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.remoting.RPCHook;

/** The RocketMQ Java client (remoting), as an application would use it against a test's broker. */
final class Clients {
    private Clients() {}

    static DefaultMQProducer producer(MqdeskServer broker, RPCHook signer) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("producer-" + UUID.randomUUID(), signer);
        producer.setNamesrvAddr(broker.namesrvAddr());
        producer.setInstanceName(UUID.randomUUID().toString()); // one client instance per broker
        producer.setSendMsgTimeout(10_000);
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        return producer;
    }

    static SendResult sendOne(MqdeskServer broker, String topic) throws Exception {
        DefaultMQProducer producer = producer(broker, null);
        try {
            return producer.send(new Message(topic, "TagA", "hello".getBytes(StandardCharsets.UTF_8)));
        } finally {
            producer.shutdown();
        }
    }
}
