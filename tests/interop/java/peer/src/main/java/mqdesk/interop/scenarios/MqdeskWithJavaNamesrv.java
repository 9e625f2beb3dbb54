package mqdesk.interop.scenarios;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.JavaPeer;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * mqdesk-broker registers with a Java NameServer (-n) instead of starting its own; Java clients that
 * know only the Java NameServer find its topic route, produce every kind of message and consume them
 * (a push consumer in a group, and a lite pull reader from the first offsets).
 */
public class MqdeskWithJavaNamesrv implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        PeerLogging.quiet(env);
        JavaPeer namesrv = env.startJavaNamesrv();
        MqdeskBroker broker = env.startBroker(List.of(), List.of("-n", namesrv.addr()));
        PeerMessages messages = new PeerMessages(env.unique("peerns"));

        // The topic is created through the route of TBW102, which only the registration brought to
        // the Java NameServer.
        Map<String, PeerMessages.Expected> pushed = new ConcurrentHashMap<>();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(env.unique("peercg"));
        consumer.setNamesrvAddr(namesrv.addr());
        consumer.setInstanceName(env.unique("consumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(2000);
        consumer.setMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs)
                pushed.put(PeerMessages.body(m.getBody()),
                           new PeerMessages.Expected(PeerMessages.body(m.getBody()), m.getTags(), m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        messages.sendAll(env, namesrv.addr());
        consumer.subscribe(messages.topic, "*");
        consumer.start();
        env.shutdownLater(consumer::shutdown);

        Check.eventually(Duration.ofSeconds(60), () -> pushed.size() >= messages.expected.size(),
                         "every message pushed to the consumer (through the Java NameServer's route)",
                         () -> pushed.keySet());
        Thread.sleep(500);
        messages.check(List.copyOf(pushed.values()), "mqdesk-broker (push consumer)");
        messages.readAndCheck(env, namesrv.addr(), "mqdesk-broker (lite pull)");
        messages.queryByKeys(env, namesrv.addr(), "mqdesk-broker (via the Java NameServer)");
        Check.that(broker.isAlive(), "mqdesk-broker exited");
    }
}
