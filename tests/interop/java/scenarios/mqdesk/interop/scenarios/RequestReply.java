package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.RequestTimeoutException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.RequestCallback;
import org.apache.rocketmq.client.utils.MessageUtil;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Request-reply (producer.request): the responder consumes the request, builds the reply with
 * MessageUtil.createReplyMessage and sends it; the broker pushes it to the requesting producer
 * (SEND_REPLY_MESSAGE → PUSH_REPLY_MESSAGE_TO_CLIENT) and keeps a copy in DefaultCluster_REPLY_TOPIC.
 * Synchronous and callback requests; a request nobody answers times out.
 */
public class RequestReply implements Scenario {
    private static final int SYNC_REQUESTS = 5;
    private static final int ASYNC_REQUESTS = 5;

    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker broker = env.startBroker();
        String topic = env.unique("rr");
        DefaultMQProducer responder = Clients.producer(env, broker, env.unique("rrreplypg"));
        Clients.createTopic(responder, topic, 2);
        Map<String, Integer> answered = new ConcurrentHashMap<>();
        Clients.pushConsumer(env, broker, env.unique("rrcg"), topic, "*", false,
            (MessageListenerConcurrently) (msgs, context) -> {
                for (MessageExt request : msgs) {
                    try {
                        String text = new String(request.getBody(), StandardCharsets.UTF_8);
                        Message reply = MessageUtil.createReplyMessage(request, ("re:" + text).getBytes(StandardCharsets.UTF_8));
                        responder.send(reply, 10_000);
                        answered.merge(text, 1, Integer::sum);
                    } catch (Exception e) {
                        throw new IllegalStateException("replying to " + request.getKeys() + " failed", e);
                    }
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });

        DefaultMQProducer requester = Clients.producer(env, broker, env.unique("rrreqpg"));
        for (int i = 0; i < SYNC_REQUESTS; ++i) {
            String text = "sync-" + i;
            Message reply = requester.request(new Message(topic, "req", "k" + i, text.getBytes(StandardCharsets.UTF_8)), 20_000);
            Check.that(reply != null, "no reply to %s", text);
            Check.equal("re:" + text, new String(reply.getBody(), StandardCharsets.UTF_8), "reply body of " + text);
        }

        Map<String, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
        for (int i = 0; i < ASYNC_REQUESTS; ++i) {
            String text = "async-" + i;
            CompletableFuture<String> future = new CompletableFuture<>();
            pending.put(text, future);
            requester.request(new Message(topic, "req", "a" + i, text.getBytes(StandardCharsets.UTF_8)),
                new RequestCallback() {
                    @Override
                    public void onSuccess(Message message) {
                        future.complete(new String(message.getBody(), StandardCharsets.UTF_8));
                    }

                    @Override
                    public void onException(Throwable e) {
                        future.completeExceptionally(e);
                    }
                }, 20_000);
        }
        for (Map.Entry<String, CompletableFuture<String>> entry : pending.entrySet())
            Check.equal("re:" + entry.getKey(), entry.getValue().get(30, TimeUnit.SECONDS), "callback reply to " + entry.getKey());

        // The broker keeps every reply in <cluster>_REPLY_TOPIC (storeReplyMessageEnable, default true).
        List<MessageExt> stored = Clients.readAll(env, broker, "DefaultCluster_REPLY_TOPIC", SYNC_REQUESTS + ASYNC_REQUESTS);
        for (MessageExt reply : stored)
            Check.that(new String(reply.getBody(), StandardCharsets.UTF_8).startsWith("re:"), "stored reply %s", reply);

        // A request that no one answers ends in RequestTimeoutException, not a hang.
        String silent = env.unique("rrsilent");
        Clients.createTopic(responder, silent, 1);
        long start = System.nanoTime();
        try {
            requester.request(new Message(silent, "req", "nobody", "hello?".getBytes(StandardCharsets.UTF_8)), 2_000);
            Check.that(false, "a request without a responder was answered");
        } catch (RequestTimeoutException expected) {
            Check.that(Duration.ofNanos(System.nanoTime() - start).toSeconds() < 15,
                       "the unanswered request took %s", Duration.ofNanos(System.nanoTime() - start));
        }
        Check.equal(SYNC_REQUESTS + ASYNC_REQUESTS, answered.size(), "requests answered by the responder");
    }
}
