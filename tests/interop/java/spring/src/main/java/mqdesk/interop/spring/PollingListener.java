package mqdesk.interop.spring;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.spring.core.RocketMQPushConsumerLifecycleListener;

/**
 * Base of the application's listeners: the starter calls prepareStart with the push consumer it
 * built from the annotation, before starting it. The starter has no property for the NameServer
 * poll interval; 2 s (the client's default is 30 s) lets a new group's %RETRY% route be seen soon
 * after its first heartbeat, as in the other interop scenarios.
 */
abstract class PollingListener implements RocketMQPushConsumerLifecycleListener {
    protected final Received received;
    private final String name;

    PollingListener(Received received, String name) {
        this.received = received;
        this.name = name;
    }

    @Override
    public void prepareStart(DefaultMQPushConsumer consumer) {
        consumer.setPollNameServerInterval(2000);
        received.consumers.put(name, consumer);
    }
}
