package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.RPCHook;

/**
 * RocketMQ's plain ACL with the Java client's own signing hook (AclClientRPCHook, rocketmq-acl):
 * mqdesk-broker with aclEnable=true and a plain_acl.yml of two accounts. The admin account creates a
 * topic; the user account's producer sends to it and its push consumer receives every message once.
 * Refused, as the Java broker refuses them, with NO_PERMISSION: the user's send to a topic it may only
 * subscribe to, its topic creation (admin only), a producer signing with a wrong secret key, and a
 * producer that does not sign at all. Nothing refused is stored: the consumer sees only what was
 * acknowledged.
 */
public class Acl implements Scenario {
    private static final int MESSAGES = 20;
    private static final int NO_PERMISSION = 16;

    @Override
    public void run(Env env) throws Exception {
        String topic = env.unique("acl");
        String readOnlyTopic = env.unique("aclro");
        String producerGroup = env.unique("aclpg");
        String consumerGroup = env.unique("aclcg");
        Path aclFile = env.root().resolve("plain_acl.yml");
        Files.write(aclFile, List.of(
            "accounts:",
            "  - accessKey: interopUser",
            "    secretKey: interopUserSecret",
            "    admin: false",
            "    defaultTopicPerm: DENY",
            "    defaultGroupPerm: SUB",
            "    topicPerms:",
            "      - " + topic + "=PUB|SUB",
            "      - " + readOnlyTopic + "=SUB",
            "  - accessKey: interopAdmin",
            "    secretKey: interopAdminSecret",
            "    admin: true"), StandardCharsets.UTF_8);
        MqdeskBroker broker = env.startBroker("aclEnable=true", "plainAclFile=" + aclFile);

        DefaultMQProducer admin = producer(env, broker, env.unique("aclAdmin"), hook("interopAdmin", "interopAdminSecret"));
        Clients.createTopic(admin, topic, 4);
        Clients.createTopic(admin, readOnlyTopic, 2);

        RPCHook user = hook("interopUser", "interopUserSecret");
        Set<String> received = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(consumerGroup, user, new AllocateMessageQueueAveragely());
        consumer.setNamesrvAddr(broker.namesrvAddr());
        consumer.setInstanceName(env.unique("aclConsumer"));
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(2000);
        consumer.subscribe(topic, "*");
        consumer.setMessageListener((MessageListenerConcurrently) (messages, context) -> {
            for (MessageExt m : messages)
                Check.that(received.add(new String(m.getBody(), StandardCharsets.UTF_8)), "%s delivered twice",
                           new String(m.getBody(), StandardCharsets.UTF_8));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        env.shutdownLater(consumer::shutdown);

        DefaultMQProducer producer = producer(env, broker, producerGroup, user);
        for (int i = 0; i < MESSAGES; ++i) {
            SendResult result = producer.send(new Message(topic, "TagA", ("acl-" + i).getBytes(StandardCharsets.UTF_8)));
            Check.equal(SendStatus.SEND_OK, result.getSendStatus(), "signed send " + i);
        }
        Log.info("%d signed sends acknowledged", MESSAGES);

        expectRefused("a send to a topic the account may only subscribe to",
                      () -> producer.send(new Message(readOnlyTopic, "x".getBytes(StandardCharsets.UTF_8))));
        expectRefused("topic creation by a non-admin account",
                      () -> Clients.createTopic(producer, env.unique("aclnew"), 1));
        // These two are refused already by the NameServer (it checks the same accounts), so the
        // client reports no route; the broker refuses them too (AclTest), and none is stored.
        DefaultMQProducer wrongSecret = producer(env, broker, env.unique("aclbad"), hook("interopUser", "notTheSecret"));
        expectRefusedOrNoRoute("a send signed with a wrong secret key",
                               () -> wrongSecret.send(new Message(topic, "bad".getBytes(StandardCharsets.UTF_8))));
        DefaultMQProducer unsigned = producer(env, broker, env.unique("aclnone"), null);
        expectRefusedOrNoRoute("an unsigned send",
                               () -> unsigned.send(new Message(topic, "none".getBytes(StandardCharsets.UTF_8))));

        Check.eventually(Duration.ofSeconds(60), () -> received.size() == MESSAGES,
                         "the signed consumer receiving every message", () -> received.size() + " of " + MESSAGES);
        // A little longer: nothing refused may arrive.
        Thread.sleep(2000);
        Check.equal(MESSAGES, received.size(), "messages received (refused sends must not be stored)");
        for (int i = 0; i < MESSAGES; ++i)
            Check.that(received.contains("acl-" + i), "acl-%d not received", i);
    }

    private static RPCHook hook(String accessKey, String secretKey) {
        return new AclClientRPCHook(new SessionCredentials(accessKey, secretKey));
    }

    private static DefaultMQProducer producer(Env env, MqdeskBroker broker, String group, RPCHook hook) throws Exception {
        DefaultMQProducer producer = hook == null ? new DefaultMQProducer(group) : new DefaultMQProducer(group, hook);
        producer.setNamesrvAddr(broker.namesrvAddr());
        producer.setInstanceName(env.unique("aclProducer"));
        producer.setSendMsgTimeout(10_000);
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        env.shutdownLater(producer::shutdown);
        return producer;
    }

    private interface Attempt {
        void run() throws Exception;
    }

    /**
     * The attempt fails with the broker's NO_PERMISSION: an MQBrokerException (sends) or an
     * MQClientException carrying the response code (admin requests), possibly wrapped by the client.
     */
    private static void expectRefused(String what, Attempt attempt) {
        expectCode(what, attempt, NO_PERMISSION);
    }

    /** Refused by the broker, or by the NameServer's route lookup (the client's NO_ROUTE 10005). */
    private static void expectRefusedOrNoRoute(String what, Attempt attempt) {
        expectCode(what, attempt, NO_PERMISSION, 10005);
    }

    private static void expectCode(String what, Attempt attempt, int... accepted) {
        try {
            attempt.run();
        } catch (Exception e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                int code = cause instanceof MQBrokerException ? ((MQBrokerException) cause).getResponseCode()
                         : cause instanceof MQClientException ? ((MQClientException) cause).getResponseCode() : -1;
                if (code == -1)
                    continue;
                final int answered = code;
                Check.that(java.util.Arrays.stream(accepted).anyMatch(c -> c == answered),
                           "%s: response code %d (%s), expected one of %s", what, answered, cause,
                           java.util.Arrays.toString(accepted));
                Log.info("refused as expected: %s (%s)", what, String.valueOf(cause.getMessage()).split("\n")[0]);
                return;
            }
            throw new AssertionError(what + " failed without a broker answer: " + e, e);
        }
        throw new AssertionError(what + " was accepted");
    }
}
