// A Java push consumer for the GUI tests against a Java cluster (tests/interop/java_cluster.h,
// JavaCluster::startPushConsumer), run from source on the Java broker's classpath:
//
//   java -cp <javabroker/target/classpath.txt's classpath> java_push_consumer.java NAMESRV GROUP TOPIC
//
// Consumes TOPIC from its first offset as GROUP, answering every message CONSUME_SUCCESS (so it
// also answers the broker's CONSUME_MESSAGE_DIRECTLY with CR_SUCCESS), prints "consumer ready
// <clientId>" once started, and runs until killed.

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;

public class java_push_consumer {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: java_push_consumer.java NAMESRV GROUP TOPIC");
            System.exit(2);
        }
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(args[1]);
        consumer.setNamesrvAddr(args[0]);
        consumer.setInstanceName("gui-test-" + ProcessHandle.current().pid());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(args[2], "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> System.out.println("consumed " + m.getMsgId()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        System.out.println("consumer ready " + consumer.buildMQClientId());
        System.out.flush();
        Thread.currentThread().join();
    }
}
