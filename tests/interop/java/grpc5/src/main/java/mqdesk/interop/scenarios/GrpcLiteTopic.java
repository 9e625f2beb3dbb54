package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.JavaPeer;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.consumer.ConsumeResult;
import org.apache.rocketmq.client.apis.consumer.LitePushConsumer;
import org.apache.rocketmq.client.apis.consumer.MessageListener;
import org.apache.rocketmq.client.apis.producer.Producer;

/**
 * LiteTopic (RocketMQ 5.5, RIP-83) as the Java SDK 5.2.0 uses it, against mqdesk-broker and, side by
 * side, a Java 5.5 broker behind a Java 5.5 proxy. A LITE parent topic P and a group bound to it
 * (attribute lite.bind.topic=P) are made with mqdesk-admin on each; a LitePushConsumer of the group then:
 * <ol>
 * <li>subscribes the lite topics a, b and c (getLiteTopicSet names them);</li>
 * <li>gets, of 20 messages sent to each of 8 lite topics interleaved, exactly those of a, b and c, each
 *     lite topic in send order, each message with topic P, its lite topic and no message group;</li>
 * <li>while one message of c fails twice (retried in the client), gets no later message of c before it
 *     succeeds, with delivery attempts 1, 2, 3, while a and b keep flowing;</li>
 * <li>after unsubscribeLite(a), gets none of a's newer messages (b's still come);</li>
 * <li>cannot send to, nor subscribe, the lite topics "bad$name" and a 65-character name;</li>
 * <li>closes; a second consumer of the group subscribing b gets b's messages sent meanwhile and after,
 *     from where the first left off.</li>
 * </ol>
 * Then, with a second parent topic and an Exclusive group bound to it (lite.sub.model=Exclusive):
 * <ol start="7">
 * <li>a consumer subscribes the lite topic e, then a second consumer of the group subscribes e: the
 *     first is sent NotifyUnsubscribeLiteCommand{e} and drops e from its getLiteTopicSet, and e's
 *     messages sent afterwards go to the second only.</li>
 * </ol>
 * What each target delivered is deterministic here, so the two must agree step by step.
 *
 * The Java broker runs with enableLmq and enableMultiDispatch: without them it stores lite messages
 * without indexing them per lite topic, and lite consumers get nothing. Its proxy runs in cluster mode:
 * the 5.5.0 proxy's local mode cannot pop lite messages.
 *
 * The group is orderly (consumeMessageOrderly, Settings fifo), for two reasons of the 5.2.0 SDK. Its
 * standard consume service runs the messages of one received batch concurrently, so the listener would
 * not see the broker's per-lite-topic order; the FIFO service runs them one at a time, each acked before
 * the next. And the standard service's nack is a ChangeInvisibleDuration without the lite topic, which
 * Java 5.5 ignores (redelivery only when the 60 s invisibility ends); the FIFO service retries a failed
 * message in the client after the group's backoff (1 s, then 5 s on Java) while the broker holds the
 * rest of its lite topic back, which is what step 3 checks.
 */
public class GrpcLiteTopic implements Scenario {
    private static final List<String> LITE_TOPICS = List.of("a", "b", "c", "d", "e", "f", "g", "h");
    private static final List<String> SUBSCRIBED = List.of("a", "b", "c");
    private static final int PER_LITE_TOPIC = 20;
    /** The lite topic, and the index of its message, that the listener fails HELD_FAILURES times. */
    private static final String HELD = "c";
    private static final int HELD_INDEX = PER_LITE_TOPIC;
    private static final int HELD_FAILURES = 2;
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);
    /** How long nothing more may arrive once what should arrive has. */
    private static final Duration QUIET = Duration.ofSeconds(3);
    private static final String TOO_LONG_NAME = "x".repeat(65);
    /** Step 7: the lite topic two consumers of the Exclusive group subscribe, one after the other. */
    private static final String EXCLUSIVE = "e";
    private static final int EXCLUSIVE_MESSAGES = 5;
    /** How long the first consumer may take to drop EXCLUSIVE once the second subscribed it. */
    private static final Duration NOTIFY_TIMEOUT = Duration.ofSeconds(10);
    /** Step 7's quiet time: its two consumers long-poll side by side, so a stray delivery comes at once. */
    private static final Duration EXCLUSIVE_QUIET = Duration.ofSeconds(1);

    /** One broker as the scenario reaches it. */
    private record Target(String name, ClientConfiguration grpc, String namesrvAddr, String brokerAddr) {}

    /** What one target did, step by step; the fields the two targets must agree on. */
    private record Outcome(List<String> subscribedSet, Map<String, List<Integer>> fannedOut, List<String> heldLiteTopicCalls,
                           List<String> setAfterUnsubscribe, List<String> badNames, List<String> handedOver,
                           Exclusive exclusive) {}

    /**
     * Step 7: each consumer's getLiteTopicSet once the second subscribed (the first's polled until it
     * dropped the lite topic or NOTIFY_TIMEOUT passed), and which consumer got which of the messages sent then.
     */
    private record Exclusive(List<String> firstSet, List<String> secondSet, Map<String, List<Integer>> receivedBy) {}

    @Override
    public void run(Env env) throws Exception {
        MqdeskBroker mqdesk = Grpc5.startBroker(env);
        Target mqdeskTarget = new Target("mqdesk-broker", Grpc5.config(mqdesk), mqdesk.namesrvAddr(), mqdesk.brokerAddr());

        JavaPeer namesrv = env.startJavaNamesrv();
        JavaPeer broker = env.startJavaBroker(namesrv.addr(), env.root().resolve("java-store"),
                                              "enableLmq=true", "enableMultiDispatch=true");
        // Receives poll at most 5 s, as on mqdesk-broker (Grpc5.startBroker): each consumer's close waits
        // for its receive in flight, ~18 s of Java's default 20 s.
        JavaPeer proxy = env.closeLater(JavaPeer.proxy(env.root().resolve("java-proxy"), namesrv.addr(),
            JavaPeer.javaBrokerClassPath(), Map.of("grpcClientConsumerMaxLongPollingTimeoutMillis", 5000)).start());
        Target javaTarget = new Target("Java 5.5 broker + proxy", ClientConfiguration.newBuilder()
            .setEndpoints(proxy.addr()).enableSsl(false).setRequestTimeout(Duration.ofSeconds(5)).build(),
            namesrv.addr(), broker.addr());

        Outcome fromMqdesk = exercise(env, mqdeskTarget);
        Outcome fromJava = exercise(env, javaTarget);
        Check.equal(fromJava.subscribedSet(), fromMqdesk.subscribedSet(), "getLiteTopicSet after subscribing, as on Java");
        Check.equal(fromJava.fannedOut(), fromMqdesk.fannedOut(), "the lite topics delivered, in order, as on Java");
        Check.equal(fromJava.heldLiteTopicCalls(), fromMqdesk.heldLiteTopicCalls(),
                    "the listener calls for the lite topic held by a failure, as on Java");
        Check.equal(fromJava.setAfterUnsubscribe(), fromMqdesk.setAfterUnsubscribe(),
                    "getLiteTopicSet after unsubscribeLite, as on Java");
        Check.equal(fromJava.badNames(), fromMqdesk.badNames(), "the answers to bad lite topic names, as on Java");
        Check.equal(fromJava.handedOver(), fromMqdesk.handedOver(), "what the second consumer got, as on Java");
        Check.equal(fromJava.exclusive(), fromMqdesk.exclusive(),
                    "the Exclusive group's sets and deliveries after a second subscriber, as on Java");
    }

    private static Outcome exercise(Env env, Target target) throws Exception {
        String parent = env.unique("liteParent");
        String group = env.unique("liteGroup");
        admin(env, target, "updateTopic", "-t", parent, "-r", "4", "-w", "4", "-a", "+message.type=LITE");
        // mqadmin's updateSubGroup takes attributes as --attributes (-a is notifyConsumerIdsChanged).
        admin(env, target, "updateSubGroup", "-g", group, "-o", "true", "--attributes", "+lite.bind.topic=" + parent);
        String exclusiveParent = env.unique("liteExclusiveParent");
        String exclusiveGroup = env.unique("liteExclusiveGroup");
        admin(env, target, "updateTopic", "-t", exclusiveParent, "-r", "4", "-w", "4", "-a", "+message.type=LITE");
        admin(env, target, "updateSubGroup", "-g", exclusiveGroup, "-o", "true", "--attributes",
              "+lite.bind.topic=" + exclusiveParent + ",+lite.sub.model=Exclusive");

        Deliveries deliveries = new Deliveries(parent);
        Producer producer = Grpc5.PROVIDER.newProducerBuilder().setClientConfiguration(target.grpc())
            .setTopics(parent, exclusiveParent).build();
        try {
            LitePushConsumer first = liteConsumer(target, parent, group, deliveries.listener("first"));
            List<String> subscribedSet;
            Map<String, List<Integer>> fannedOut;
            List<String> heldCalls;
            List<String> setAfterUnsubscribe;
            List<String> badNames;
            try {
                // 1. Subscribing: each subscribeLite answers OK (returns) and the set names the three.
                for (String liteTopic : SUBSCRIBED)
                    subscribe(target, first, liteTopic);
                subscribedSet = sorted(first.getLiteTopicSet());
                Check.equal(SUBSCRIBED, subscribedSet, target.name() + ": getLiteTopicSet after subscribing");

                // 2. Interleaved sends to 8 lite topics: exactly a, b and c arrive, each in send order.
                for (int i = 0; i < PER_LITE_TOPIC; ++i)
                    for (String liteTopic : LITE_TOPICS)
                        send(producer, parent, liteTopic, i);
                Check.eventually(DELIVERY_TIMEOUT,
                    () -> SUBSCRIBED.stream().allMatch(t -> deliveries.consumed("first", t).size() >= PER_LITE_TOPIC),
                    target.name() + ": 20 messages of each subscribed lite topic consumed", deliveries::summary);
                Thread.sleep(QUIET.toMillis());
                fannedOut = deliveries.consumedByLiteTopic("first");
                Map<String, List<Integer>> expected = new TreeMap<>();
                for (String liteTopic : SUBSCRIBED)
                    expected.put(liteTopic, range(0, PER_LITE_TOPIC));
                Check.equal(expected, fannedOut, target.name() + ": the messages consumed, by lite topic, in order");
                deliveries.checkViews(target.name());
                Log.info("%s delivered %s", target.name(), fannedOut);

                heldCalls = heldByFailure(target, producer, parent, deliveries);

                // 4. After unsubscribeLite(a) answered, a's new messages stay away; b's still come.
                first.unsubscribeLite("a");
                setAfterUnsubscribe = sorted(first.getLiteTopicSet());
                Check.equal(List.of("b", "c"), setAfterUnsubscribe, target.name() + ": getLiteTopicSet after unsubscribing a");
                int afterUnsubscribe = HELD_INDEX + 5;
                for (int i = afterUnsubscribe; i < afterUnsubscribe + 5; ++i) {
                    send(producer, parent, "a", i);
                    send(producer, parent, "b", i);
                }
                Check.eventually(DELIVERY_TIMEOUT, () -> deliveries.consumed("first", "b").contains(afterUnsubscribe + 4),
                    target.name() + ": b's messages after unsubscribing a", deliveries::summary);
                Thread.sleep(QUIET.toMillis());
                List<Integer> lateA = deliveries.calls(d -> d.liteTopicOfBody().equals("a") && d.index() >= afterUnsubscribe)
                    .stream().map(Delivery::index).toList();
                Check.equal(List.of(), lateA, target.name() + ": a's messages sent after unsubscribeLite(a) that arrived");
                Check.equal(range(0, afterUnsubscribe + 5), deliveries.consumed("first", "b"), target.name() + ": b in order");

                badNames = badLiteTopicNames(target, producer, parent, first);
            } finally {
                long closing = System.nanoTime();
                first.close();
                Log.info("%s: the first consumer closed in %d ms", target.name(), (System.nanoTime() - closing) / 1_000_000);
            }

            List<String> handedOver = handOver(target, producer, parent, group, deliveries);
            Exclusive exclusive = exclusive(target, producer, exclusiveParent, exclusiveGroup);
            return new Outcome(subscribedSet, fannedOut, heldCalls, setAfterUnsubscribe, badNames, handedOver, exclusive);
        } finally {
            producer.close();
        }
    }

    /**
     * 3. One message of the lite topic HELD fails twice: the client retries it after the group's backoff,
     * and the broker must not hand out the lite topic's later messages before it is acked, while other
     * lite topics flow on. Answers the listener calls for HELD from that message on.
     */
    private static List<String> heldByFailure(Target target, Producer producer, String parent, Deliveries deliveries)
            throws Exception {
        // Alone in its batch: the FIFO service runs a batch one message at a time, so a batch that also
        // held a or b messages behind the failing one would hold them too, in the client.
        send(producer, parent, HELD, HELD_INDEX);
        Check.eventually(DELIVERY_TIMEOUT, () -> !deliveries.calls(d -> d.isHeldMessage()).isEmpty(),
            target.name() + ": the first delivery of " + HELD + ":" + HELD_INDEX, deliveries::summary);
        long heldSince = System.nanoTime();
        for (int i = HELD_INDEX + 1; i < HELD_INDEX + 5; ++i) {
            send(producer, parent, HELD, i);
            send(producer, parent, "a", i - 1);
            send(producer, parent, "b", i - 1);
        }
        send(producer, parent, "a", HELD_INDEX + 4);
        send(producer, parent, "b", HELD_INDEX + 4);
        Check.eventually(DELIVERY_TIMEOUT, () -> deliveries.consumed("first", HELD).contains(HELD_INDEX + 4),
            target.name() + ": the held lite topic's messages after its failing one", deliveries::summary);
        Log.info("%s: %s:%d succeeded %d ms after its first failure", target.name(), HELD, HELD_INDEX,
                 (System.nanoTime() - heldSince) / 1_000_000);

        List<Delivery> heldCalls = deliveries.calls(d -> d.liteTopicOfBody().equals(HELD) && d.index() >= HELD_INDEX);
        List<String> described = heldCalls.stream().map(Delivery::describe).toList();
        List<String> expected = new ArrayList<>();
        for (int attempt = 1; attempt <= HELD_FAILURES + 1; ++attempt)
            expected.add(HELD + ":" + HELD_INDEX + " attempt " + attempt + (attempt <= HELD_FAILURES ? " FAILURE" : " SUCCESS"));
        for (int i = HELD_INDEX + 1; i < HELD_INDEX + 5; ++i)
            expected.add(HELD + ":" + i + " attempt 1 SUCCESS");
        Check.equal(expected, described, target.name() + ": the listener calls for " + HELD + " from its failing message on");

        // The other lite topics were not held: all of their messages sent meanwhile were consumed
        // before the held message's success.
        long heldSuccess = heldCalls.get(HELD_FAILURES).sequence();
        List<String> lateOthers = deliveries.calls(d -> !d.liteTopicOfBody().equals(HELD) && d.index() >= HELD_INDEX
                                                        && d.index() < HELD_INDEX + 5 && d.sequence() > heldSuccess)
            .stream().map(Delivery::describe).toList();
        Check.equal(List.of(), lateOthers, target.name() + ": a and b messages consumed only after " + HELD + " was released");
        Check.equal(range(0, HELD_INDEX + 5), deliveries.consumed("first", "a"), target.name() + ": a in order");
        Log.info("%s: the held lite topic's calls %s", target.name(), described);
        return described;
    }

    /** 5. Names the proxy's rule refuses (ILLEGAL_LITE_TOPIC): "$" is not allowed, 65 characters is too long. */
    private static List<String> badLiteTopicNames(Target target, Producer producer, String parent, LitePushConsumer consumer) {
        List<String> answers = new ArrayList<>();
        for (String name : List.of("bad$name", TOO_LONG_NAME)) {
            String shown = name.length() > 20 ? name.length() + " characters" : name;
            // The SDK's producer checks only that the name is not blank: the broker decides.
            String send = answer(() -> producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(parent).setLiteTopic(name)
                .setBody("refused".getBytes(StandardCharsets.UTF_8)).build()));
            answers.add("send " + shown + ": " + send);
            // subscribeLite checks the length against the Settings' max_lite_topic_size (64) itself;
            // "$" only the server refuses.
            String subscribe = answer(() -> consumer.subscribeLite(name));
            answers.add("subscribeLite " + shown + ": " + subscribe);
        }
        Log.info("%s: bad lite topic names: %s", target.name(), answers);
        for (String answer : answers)
            Check.that(!answer.endsWith(": accepted"), "%s: a bad lite topic name was accepted: %s", target.name(), answers);
        Check.equal(List.of("b", "c"), sorted(consumer.getLiteTopicSet()),
                    target.name() + ": getLiteTopicSet after the refused subscriptions");
        return answers;
    }

    /**
     * 6. The first consumer is closed; b's messages sent then wait for the group, and a second consumer
     * subscribing b gets them and the ones after, in order, from where the first left off (its committed
     * offset): none of b's earlier messages again, nothing of c (not subscribed by it).
     */
    private static List<String> handOver(Target target, Producer producer, String parent, String group,
                                         Deliveries deliveries) throws Exception {
        int firstNew = HELD_INDEX + 10;
        for (int i = firstNew; i < firstNew + 5; ++i) {
            send(producer, parent, "b", i);
            send(producer, parent, "c", i);
        }
        LitePushConsumer second = liteConsumer(target, parent, group, deliveries.listener("second"));
        try {
            subscribe(target, second, "b");
            for (int i = firstNew + 5; i < firstNew + 10; ++i)
                send(producer, parent, "b", i);
            Check.eventually(DELIVERY_TIMEOUT, () -> deliveries.consumed("second", "b").contains(firstNew + 9),
                target.name() + ": the second consumer's b messages", deliveries::summary);
            Thread.sleep(QUIET.toMillis());
        } finally {
            long closing = System.nanoTime();
            second.close();
            Log.info("%s: the second consumer closed in %d ms", target.name(), (System.nanoTime() - closing) / 1_000_000);
        }
        List<String> handedOver = deliveries.calls(d -> d.consumer().equals("second")).stream()
            .map(Delivery::describe).toList();
        List<String> expected = range(firstNew, firstNew + 10).stream().map(i -> "b:" + i + " attempt 1 SUCCESS").toList();
        Log.info("%s: the second consumer got %s", target.name(), handedOver);
        Check.equal(expected, handedOver, target.name() + ": what the second consumer got");
        Check.equal(List.of(), deliveries.calls(d -> d.consumer().equals("first") && d.index() >= firstNew)
            .stream().map(Delivery::describe).toList(), target.name() + ": what the closed consumer got after closing");
        deliveries.checkViews(target.name());
        return handedOver;
    }

    /**
     * 7. Exclusive group: the first consumer subscribes EXCLUSIVE, then the second does. The last
     * subscriber wins: the broker removes the first from the lite topic and notifies it
     * (NotifyUnsubscribeLiteCommand, relayed on its telemetry stream), on which the SDK drops the lite
     * topic from its set, with no RPC of its own: nothing else takes a lite topic out of the set but
     * unsubscribeLite. EXCLUSIVE's messages sent afterwards go to the second consumer only.
     */
    private static Exclusive exclusive(Target target, Producer producer, String parent, String group) throws Exception {
        Deliveries deliveries = new Deliveries(parent);
        LitePushConsumer first = liteConsumer(target, parent, group, deliveries.listener("first"));
        LitePushConsumer second = null;
        try {
            subscribe(target, first, EXCLUSIVE);
            Check.equal(List.of(EXCLUSIVE), sorted(first.getLiteTopicSet()), target.name() + ": the first's set in the Exclusive group");
            second = liteConsumer(target, parent, group, deliveries.listener("second"));
            subscribe(target, second, EXCLUSIVE);
            long subscribed = System.nanoTime();
            // Not Check.eventually: what the set holds at the deadline is the outcome to compare.
            long deadline = subscribed + NOTIFY_TIMEOUT.toNanos();
            while (first.getLiteTopicSet().contains(EXCLUSIVE) && System.nanoTime() < deadline)
                Thread.sleep(20);
            List<String> firstSet = sorted(first.getLiteTopicSet());
            List<String> secondSet = sorted(second.getLiteTopicSet());
            Log.info("%s: the first consumer's set %s %d ms after the second subscribed %s", target.name(), firstSet,
                     (System.nanoTime() - subscribed) / 1_000_000, EXCLUSIVE);
            Check.equal(List.of(), firstSet, target.name() + ": the first consumer's set once the second subscribed "
                                             + EXCLUSIVE + " (no NotifyUnsubscribeLiteCommand?)");
            Check.equal(List.of(EXCLUSIVE), secondSet, target.name() + ": the second consumer's set");

            for (int i = 0; i < EXCLUSIVE_MESSAGES; ++i)
                send(producer, parent, EXCLUSIVE, i);
            Check.eventually(DELIVERY_TIMEOUT,
                () -> deliveries.calls(d -> true).size() >= EXCLUSIVE_MESSAGES,
                target.name() + ": " + EXCLUSIVE + "'s messages in the Exclusive group", deliveries::summary);
            Thread.sleep(EXCLUSIVE_QUIET.toMillis());
            Map<String, List<Integer>> receivedBy = deliveries.calls(d -> true).stream()
                .collect(Collectors.groupingBy(Delivery::consumer, TreeMap::new,
                                               Collectors.mapping(Delivery::index, Collectors.toList())));
            Log.info("%s: %s's messages in the Exclusive group went to %s", target.name(), EXCLUSIVE, receivedBy);
            Check.equal(Map.of("second", range(0, EXCLUSIVE_MESSAGES)), receivedBy,
                        target.name() + ": who got " + EXCLUSIVE + "'s messages in the Exclusive group");
            deliveries.checkViews(target.name());
            return new Exclusive(firstSet, secondSet, receivedBy);
        } finally {
            // Side by side: each close waits for its receive in flight.
            long closing = System.nanoTime();
            LitePushConsumer secondToClose = second;
            Thread closer = secondToClose == null ? null : new Thread(() -> {
                try {
                    secondToClose.close();
                } catch (Exception e) {
                    Log.info("%s: closing the Exclusive group's second consumer: %s", target.name(), e);
                }
            }, "close-exclusive-second");
            if (closer != null)
                closer.start();
            first.close();
            if (closer != null)
                closer.join();
            Log.info("%s: the Exclusive group's consumers closed in %d ms", target.name(),
                     (System.nanoTime() - closing) / 1_000_000);
        }
    }

    private static LitePushConsumer liteConsumer(Target target, String parent, String group, MessageListener listener)
            throws Exception {
        return Grpc5.PROVIDER.newLitePushConsumerBuilder().setClientConfiguration(target.grpc()).bindTopic(parent)
            .setConsumerGroup(group).setMessageListener(listener).build();
    }

    /**
     * subscribeLite, its failure named. The SDK checks its quota before any call: a quota of 0 in the
     * refusal means the Settings reply lacked lite_subscription_quota.
     */
    private static void subscribe(Target target, LitePushConsumer consumer, String liteTopic) {
        try {
            consumer.subscribeLite(liteTopic);
        } catch (Exception e) {
            throw new AssertionError(target.name() + ": subscribeLite(" + liteTopic + ") failed: " + e, e);
        }
    }

    private static void send(Producer producer, String parent, String liteTopic, int index) throws Exception {
        producer.send(Grpc5.PROVIDER.newMessageBuilder().setTopic(parent).setLiteTopic(liteTopic)
            .setBody((liteTopic + ":" + index).getBytes(StandardCharsets.UTF_8)).build());
    }

    private interface Call {
        void run() throws Exception;
    }

    private static final Pattern RESPONSE_CODE = Pattern.compile("response-code=(\\d+)");

    /** "accepted", or the exception's class and, for a server's answer, its status code. */
    private static String answer(Call call) {
        try {
            call.run();
            return "accepted";
        } catch (Exception e) {
            Matcher code = RESPONSE_CODE.matcher(String.valueOf(e.getMessage()));
            return e.getClass().getSimpleName() + (code.find() ? " " + code.group(1) : "");
        }
    }

    private static List<String> sorted(Set<String> set) {
        return new ArrayList<>(new TreeSet<>(set));
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    private static void admin(Env env, Target target, String command, String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of(env.adminBinary().toString(), "-n", target.namesrvAddr(), command,
                                                    "-b", target.brokerAddr()));
        line.addAll(List.of(args));
        var result = env.runTool(line);
        Check.equal(0, result.exitStatus(), target.name() + ": mqdesk-admin " + command + ": " + result.stderr());
    }

    /** One listener call: what the message view said, and what the listener answered. */
    private record Delivery(long sequence, String consumer, String body, String topic, Optional<String> liteTopic,
                            Optional<String> messageGroup, int attempt, boolean succeeded) {
        String liteTopicOfBody() { return body.substring(0, body.indexOf(':')); }

        int index() { return Integer.parseInt(body.substring(body.indexOf(':') + 1)); }

        boolean isHeldMessage() { return liteTopicOfBody().equals(HELD) && index() == HELD_INDEX; }

        String describe() { return body + " attempt " + attempt + (succeeded ? " SUCCESS" : " FAILURE"); }
    }

    /** Every listener call of both consumers, in the order they happened. */
    private static final class Deliveries {
        private final String parent;
        private final List<Delivery> calls = new ArrayList<>();

        Deliveries(String parent) {
            this.parent = parent;
        }

        /**
         * A listener that records each call and fails the held message until HELD_FAILURES attempts
         * failed. Recording under the lock gives each call its place in one sequence.
         */
        MessageListener listener(String consumer) {
            return view -> {
                String body = Grpc5.text(view.getBody());
                synchronized (calls) {
                    Delivery delivery = new Delivery(calls.size(), consumer, body, view.getTopic(), view.getLiteTopic(),
                                                     view.getMessageGroup(), view.getDeliveryAttempt(), true);
                    if (delivery.isHeldMessage() && delivery.attempt() <= HELD_FAILURES)
                        delivery = new Delivery(delivery.sequence(), consumer, body, delivery.topic(), delivery.liteTopic(),
                                                delivery.messageGroup(), delivery.attempt(), false);
                    calls.add(delivery);
                    return delivery.succeeded() ? ConsumeResult.SUCCESS : ConsumeResult.FAILURE;
                }
            };
        }

        List<Delivery> calls(Predicate<Delivery> which) {
            synchronized (calls) {
                return calls.stream().filter(which).toList();
            }
        }

        /** The indexes of a lite topic's messages the consumer consumed successfully, in order. */
        List<Integer> consumed(String consumer, String liteTopic) {
            return calls(d -> d.consumer().equals(consumer) && d.succeeded() && d.liteTopicOfBody().equals(liteTopic))
                .stream().map(Delivery::index).toList();
        }

        Map<String, List<Integer>> consumedByLiteTopic(String consumer) {
            return calls(d -> d.consumer().equals(consumer) && d.succeeded()).stream()
                .collect(Collectors.groupingBy(Delivery::liteTopicOfBody, TreeMap::new,
                                               Collectors.mapping(Delivery::index, Collectors.toList())));
        }

        /** Each view: the parent as its topic, the lite topic it was sent to, no message group. */
        void checkViews(String targetName) {
            for (Delivery d : calls(d -> true)) {
                Check.equal(parent, d.topic(), targetName + ": " + d.body() + "'s topic");
                Check.equal(Optional.of(d.liteTopicOfBody()), d.liteTopic(), targetName + ": " + d.body() + "'s lite topic");
                Check.equal(Optional.empty(), d.messageGroup(), targetName + ": " + d.body() + "'s message group");
            }
        }

        String summary() {
            synchronized (calls) {
                Map<String, List<String>> byConsumer = new TreeMap<>();
                for (Delivery d : calls)
                    byConsumer.computeIfAbsent(d.consumer(), k -> new ArrayList<>())
                        .add(d.body() + (d.succeeded() ? "" : "(failed)"));
                return byConsumer.toString();
            }
        }
    }
}
