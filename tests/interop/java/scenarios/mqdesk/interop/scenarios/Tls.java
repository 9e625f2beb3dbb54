package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * TLS on the remoting ports, as Java clients use it with -Dtls.enable=true (ClientConfig.useTLS, the
 * same switch per client; Java's default trust: any server certificate). The broker's TLS is Java's
 * default, permissive with a self-signed certificate: a TLS producer and a TLS push consumer (to the
 * NameServer and the broker alike) send and receive, and a plaintext producer beside them on the same
 * ports is served too. With tls.server.mode=enforcing, TLS clients are served and a plaintext
 * client's request is answered with an error naming the setting, then its connection is closed;
 * nothing it sent is stored; a broker with tls.enable=true registers with that NameServer over TLS.
 */
public class Tls implements Scenario {
    private static final int MESSAGES = 10;

    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker permissive = env.startBroker();
        roundTrip(env, permissive, true, true);
        MqdeskBroker enforcing = env.startBroker("tls.server.mode=enforcing");
        roundTrip(env, enforcing, true, false);
        refusedInPlaintext(env, enforcing);

        // A second broker registering with the enforcing NameServer: with tls.enable=true (Java's
        // client switch) its registrations are served, and clients find its topics.
        MqdeskBroker second = env.startBroker(java.util.List.of("brokerName=tls-second", "tls.enable=true"),
                                              java.util.List.of("-n", enforcing.namesrvAddr()));
        DefaultMQProducer producer = producer(env, enforcing, true);
        Check.eventually(Duration.ofSeconds(30), () -> {
            try {
                return producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl()
                    .getBrokerClusterInfo(3000).getBrokerAddrTable().containsKey("tls-second");
            } catch (Exception e) {
                return false;
            }
        }, "the broker registered over TLS listed by the enforcing NameServer", () -> "not listed");
        Log.info("%s registered over TLS with %s", second.brokerAddr(), enforcing.namesrvAddr());
    }

    /** Sends MESSAGES with TLS (and as many in plaintext when `plaintextToo`); a TLS consumer gets all. */
    private static void roundTrip(Env env, MqdeskBroker broker, boolean tls, boolean plaintextToo) throws Exception {
        String topic = env.unique("tls");
        DefaultMQProducer producer = producer(env, broker, true);
        Clients.createTopic(producer, topic, 4);
        Set<String> received = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(env.unique("tlscg"));
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("tlsConsumer"));
        consumer.setUseTLS(tls);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(2000);
        consumer.subscribe(topic, "*");
        consumer.setMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt m : messages)
                received.add(new String(m.getBody(), StandardCharsets.UTF_8));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        env.shutdownLater(consumer::shutdown);

        int expected = send(producer, topic, "tls", MESSAGES);
        if (plaintextToo)
            expected += send(producer(env, broker, false), topic, "plain", MESSAGES);
        final int want = expected;
        Check.eventually(Duration.ofSeconds(60), () -> received.size() == want,
                         "the TLS consumer receiving every message", () -> received.size() + " of " + want);
        Log.info("%s broker: %d messages sent%s and received over TLS", broker.brokerAddr(), want,
                 plaintextToo ? " (half of them in plaintext)" : "");
    }

    private static int send(DefaultMQProducer producer, String topic, String prefix, int count) throws Exception {
        for (int i = 0; i < count; ++i) {
            SendResult result = producer.send(new Message(topic, (prefix + "-" + i).getBytes(StandardCharsets.UTF_8)));
            Check.equal(SendStatus.SEND_OK, result.getSendStatus(), prefix + " send " + i);
        }
        return count;
    }

    /** A plaintext client of an enforcing broker: the answer names the setting; no send is stored. */
    private static void refusedInPlaintext(Env env, MqdeskBroker broker) throws Exception {
        DefaultMQProducer plain = producer(env, broker, false);
        // The started producer refreshes its routes on its own: a request of ours that reaches the
        // NameServer after the refusal closed the connection is never answered (the 4.x client
        // then waits out its timeout), so a second try on a new connection is allowed.
        for (int attempt = 1; ; ++attempt) {
            try {
                plain.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl().getBrokerClusterInfo(5000);
                throw new AssertionError("a plaintext request to an enforcing NameServer was answered");
            } catch (MQBrokerException e) {
                Check.that(String.valueOf(e.getErrorMessage()).contains("tls.server.mode=enforcing"),
                           "the refusal names the setting: %s", e.getErrorMessage());
                Log.info("plaintext refused as expected: %s", e.getErrorMessage());
                break;
            } catch (org.apache.rocketmq.remoting.exception.RemotingTimeoutException e) {
                if (attempt == 2)
                    throw e;
                Log.info("plaintext request unanswered after the refusal closed its connection; again: %s", e);
            }
        }
        String topic = env.unique("tlsplain");
        Clients.createTopic(producer(env, broker, true), topic, 1);
        try {
            plain.send(new Message(topic, "plain".getBytes(StandardCharsets.UTF_8)));
            throw new AssertionError("a plaintext send to an enforcing broker was acknowledged");
        } catch (Exception e) {
            Log.info("plaintext send refused as expected: %s", String.valueOf(e.getMessage()).split("\n")[0]);
        }
    }

    private static DefaultMQProducer producer(Env env, MqdeskBroker broker, boolean tls) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(env.unique(tls ? "tlspg" : "plainpg"));
        producer.setNamesrvAddr(broker.namesrvAddr());
        producer.setInstanceName(env.unique(tls ? "tlsProducer" : "plainProducer"));
        producer.setUseTLS(tls);
        producer.setSendMsgTimeout(5_000);
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        env.shutdownLater(producer::shutdown);
        return producer;
    }
}
