package mqdesk.interop.scenarios;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.JavaPeer;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;

/**
 * The Java broker 5.5.0 writes a store (every kind of message, PeerMessages: commit log, consume
 * queues, index, schedule and transaction topics) and is stopped cleanly; `mqdesk-admin store verify`
 * finds it healthy and `mqdesk-admin store records` lists every record; mqdesk-broker opened on a copy
 * serves every message to a Java consumer with its body, tags and keys, including the timer messages
 * the Java broker parked but never delivered (its timerwheel, timerlog and timercheck read by MQDesk).
 */
public class JavaStoreOpenedByMqdesk implements Scenario {
    @Override
    public void run(Env env) throws Exception {
        PeerLogging.quiet(env);
        JavaPeer namesrv = env.startJavaNamesrv();
        Path store = env.root().resolve("java-store");
        JavaPeer java = env.startJavaBroker(namesrv.addr(), store);
        PeerMessages messages = new PeerMessages(env.unique("peerjava"));
        messages.sendAll(env, namesrv.addr());
        // Also waits for the delayed messages to reach the topic.
        messages.readAndCheck(env, namesrv.addr(), "Java broker");
        messages.sendPendingTimers(env, namesrv.addr(), 25_000);
        java.stop();

        String admin = env.adminBinary().toString();
        Env.ToolResult verify = env.runTool(List.of(admin, "store", "verify", "--json", store.toString()));
        String[] verifyLines = verify.stdout().strip().split("\n");
        JSONObject summary = JSON.parseObject(verifyLines[verifyLines.length - 1]);
        Check.that(verify.exitStatus() == 0 && summary.getBooleanValue("healthy"),
                   "mqdesk-admin store verify on the Java broker's store: exit status %d, output:\n%s%s",
                   verify.exitStatus(), verify.stdout(), verify.stderr());
        long verifiedRecords = summary.getLongValue("records");
        // Every record of this store has its consume-queue entry; every record is indexed.
        Check.equal(verifiedRecords, summary.getLongValue("consumeQueueEntries"), "consume-queue entries verified");
        Check.that(summary.getLongValue("indexEntries") >= verifiedRecords, "only %d index entries verified for %d records",
                   summary.getLongValue("indexEntries"), verifiedRecords);

        Env.ToolResult records = env.runTool(List.of(admin, "store", "records", "--json", "--limit", "0",
                                                     store.toString()));
        Check.equal(0, records.exitStatus(), "mqdesk-admin store records exit status (" + records.stderr() + ")");
        List<PeerMessages.Expected> inTopic = new ArrayList<>();
        Map<String, Integer> perTopic = new TreeMap<>();
        long listed = 0;
        for (String line : records.stdout().split("\n")) {
            if (line.isBlank())
                continue;
            JSONObject r = JSON.parseObject(line);
            ++listed;
            perTopic.merge(r.getString("topic"), 1, Integer::sum);
            Check.that(r.getBooleanValue("crcOk"), "record with a bad CRC listed: %s", line);
            if (!messages.topic.equals(r.getString("topic")))
                continue;
            String body = r.containsKey("body") ? r.getString("body")
                                                : PeerMessages.body(Base64.getDecoder().decode(r.getString("bodyBase64")));
            String tags = r.getString("tags");
            String keys = r.getString("keys");
            inTopic.add(new PeerMessages.Expected(body, tags.isEmpty() ? null : tags, keys.isEmpty() ? null : keys));
        }
        Log.info("mqdesk-admin store records: %d records, %d of topic %s; verify counted %d", listed, inTopic.size(),
                 messages.topic, verifiedRecords);
        Check.equal(verifiedRecords, listed, "records listed vs records verified");
        // Delayed messages are stored twice (SCHEDULE_TOPIC_XXXX queue level-1, then the topic),
        // transactional ones as half message + committed copy, plus the op record(s).
        Check.equal(3, perTopic.get("SCHEDULE_TOPIC_XXXX"), "SCHEDULE_TOPIC_XXXX records listed " + perTopic);
        Check.equal(3, perTopic.get("RMQ_SYS_TRANS_HALF_TOPIC"), "half messages listed " + perTopic);
        Check.that(perTopic.getOrDefault("RMQ_SYS_TRANS_OP_HALF_TOPIC", 0) >= 1, "no op record listed: %s", perTopic);
        messages.check(inTopic, "mqdesk-admin store records");

        // The Java broker's timer files parked these; mqdesk-broker must deliver them.
        messages.expectPending();
        MqdeskBroker broker = env.startBrokerOnCopyOf(store);
        messages.readAndCheck(env, broker.namesrvAddr(), "mqdesk-broker on the Java broker's store");
        messages.queryByKeys(env, broker.namesrvAddr(), "mqdesk-broker on the Java broker's store");
        messages.queryByTags(env, broker.namesrvAddr(), "mqdesk-broker on the Java broker's store");
    }
}
