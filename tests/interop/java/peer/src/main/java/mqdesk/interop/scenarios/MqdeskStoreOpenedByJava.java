package mqdesk.interop.scenarios;

import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.JavaPeer;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;

/**
 * mqdesk-broker writes a store (every kind of message, PeerMessages), is stopped with SIGTERM; the Java
 * broker 5.5.0 opened on a copy of that store serves every message to a Java consumer with its body,
 * tags and keys, including the timer messages mqdesk-broker parked but never delivered (its timer
 * wheel, timer log and checkpoint read by the Java broker), and finds them by key and, through the
 * "topic#T#tags" index entries RocketMQ 5.5 writes and so does MQDesk, by tag. Both run with LMQs on
 * (PeerLiteTopics): the lite topics' messages mqdesk-broker entered in their LMQs are pulled from them on
 * either broker.
 */
public class MqdeskStoreOpenedByJava implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        PeerLogging.quiet(env);
        MqdeskBroker broker = env.startBroker(PeerLiteTopics.BROKER_CONF);
        PeerMessages messages = new PeerMessages(env.unique("peermq"));
        messages.sendAll(env, broker.namesrvAddr());
        PeerLiteTopics lite = new PeerLiteTopics(env.unique("peerlite"));
        lite.sendAll(env, broker.namesrvAddr());
        lite.readAndCheck(env, broker.namesrvAddr(), "mqdesk-broker");
        // Also waits for the delayed messages to reach the topic.
        messages.readAndCheck(env, broker.namesrvAddr(), "mqdesk-broker");
        messages.queryByTags(env, broker.namesrvAddr(), "mqdesk-broker");
        messages.sendPendingTimers(env, broker.namesrvAddr(), 15_000);
        broker.stop();
        messages.expectPending();

        JavaPeer namesrv = env.startJavaNamesrv();
        JavaPeer java = env.startJavaBroker(namesrv.addr(), env.copyStore(broker.storeDir(), env.root().resolve("java-store")),
                                            PeerLiteTopics.BROKER_CONF);
        messages.readAndCheck(env, namesrv.addr(), "Java broker on mqdesk-broker's store");
        messages.queryByKeys(env, namesrv.addr(), "Java broker on mqdesk-broker's store");
        messages.queryByTags(env, namesrv.addr(), "Java broker on mqdesk-broker's store");
        lite.readAndCheck(env, namesrv.addr(), "Java broker on mqdesk-broker's store");
    }
}
