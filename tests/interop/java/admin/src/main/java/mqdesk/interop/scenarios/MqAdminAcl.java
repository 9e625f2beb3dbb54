package mqdesk.interop.scenarios;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mqdesk.interop.harness.Check;
import mqdesk.interop.harness.Env;
import mqdesk.interop.harness.Log;
import mqdesk.interop.harness.MqdeskBroker;
import mqdesk.interop.harness.Scenario;
import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;

/**
 * ACL 2.0 (RocketMQ 5.3+) as an operator runs it: mqadmin 5.x's createUser, getUser, listUser,
 * updateUser, createAcl, getAcl, listAcl, deleteAcl and deleteUser against mqdesk-broker with
 * authenticationEnabled and authorizationEnabled, signed as the initAuthenticationUser (tools.yml),
 * and the Java client 5.x with the created user's credentials allowed and denied as the policies
 * say, before and after they change.
 */
public class MqAdminAcl implements Scenario {
    private static final String ROOT = "rocketmq";
    private static final String ROOT_PASSWORD = "rootPassword1";

    private Env env;
    private String namesrv;
    private Path home;

    @Override
    public void run(Env env) throws Exception {
        this.env = env;
        MqdeskBroker broker = env.startBroker("authenticationEnabled=true", "authorizationEnabled=true",
            "initAuthenticationUser={\"username\":\"" + ROOT + "\",\"password\":\"" + ROOT_PASSWORD + "\"}");
        namesrv = broker.namesrvAddr();
        final String b = broker.brokerAddr();
        home = env.root().resolve("rocketmq-home");
        Files.createDirectories(home.resolve("conf"));
        Files.writeString(home.resolve("conf/tools.yml"),
                          "accessKey: " + ROOT + "\nsecretKey: " + ROOT_PASSWORD + "\n", StandardCharsets.UTF_8);

        final String topic = env.unique("orders");
        final String other = env.unique("other");
        mqadmin("updateTopic", "-b", b, "-t", topic, "-r", "2", "-w", "2");
        mqadmin("updateTopic", "-b", b, "-t", other, "-r", "2", "-w", "2");

        Check.that(mqadmin("createUser", "-b", b, "-u", "alice", "-p", "alicePassword").contains("success"),
                   "createUser printed no success");
        String user = mqadmin("getUser", "-b", b, "-u", "alice");
        Check.that(user.contains("alice") && user.contains("Normal"), "getUser shows alice as Normal:%n%s", user);
        String users = mqadmin("listUser", "-b", b);
        Check.that(users.contains("alice") && users.contains(ROOT), "listUser shows both users:%n%s", users);

        mqadmin("createAcl", "-b", b, "-s", "User:alice", "-r", "Topic:" + topic, "-a", "Pub,Sub", "-d", "Allow");
        String acl = mqadmin("getAcl", "-b", b, "-s", "User:alice");
        Check.that(acl.contains("Topic:" + topic) && acl.contains("Allow"), "getAcl shows the entry:%n%s", acl);
        String acls = mqadmin("listAcl", "-b", b);
        Check.that(acls.contains("User:alice"), "listAcl shows alice:%n%s", acls);

        DefaultMQProducer alice = producer("alice", "alicePassword");
        Check.equal(SendStatus.SEND_OK, alice.send(message(topic)).getSendStatus(), "alice's send to " + topic);
        expectRefused("alice's send to a topic no policy grants", () -> alice.send(message(other)));
        Log.info("alice may publish to %s and not to %s", topic, other);

        mqadmin("deleteAcl", "-b", b, "-s", "User:alice", "-r", "Topic:" + topic);
        expectRefused("alice's send after her policy was deleted", () -> alice.send(message(topic)));

        mqadmin("updateUser", "-b", b, "-u", "alice", "-s", "disable");
        Check.that(mqadmin("getUser", "-b", b, "-u", "alice").contains("disable"), "alice disabled");
        mqadmin("deleteUser", "-b", b, "-u", "alice");
        Check.that(!mqadmin("listUser", "-b", b).contains("alice"), "alice deleted");

        // mqadmin without credentials cannot manage users.
        Files.delete(home.resolve("conf/tools.yml"));
        Result unsigned = run("createUser", "-b", b, "-u", "mallory", "-p", "malloryPassword");
        Check.that(!(unsigned.out + unsigned.err).contains("success"), "an unsigned createUser succeeded:%n%s",
                   unsigned.out);
    }

    private DefaultMQProducer producer(String user, String password) throws MQClientException {
        DefaultMQProducer producer =
            new DefaultMQProducer(env.unique("pg"), new AclClientRPCHook(new SessionCredentials(user, password)));
        producer.setNamesrvAddr(namesrv);
        producer.setInstanceName(env.unique("producer"));
        producer.setSendMsgTimeout(10_000);
        producer.setRetryTimesWhenSendFailed(0);
        producer.start();
        env.shutdownLater(producer::shutdown);
        return producer;
    }

    private static Message message(String topic) {
        return new Message(topic, "TagA", "acl2".getBytes(StandardCharsets.UTF_8));
    }

    private interface Attempt {
        void run() throws Exception;
    }

    private static void expectRefused(String what, Attempt attempt) {
        try {
            attempt.run();
        } catch (Exception e) {
            // The client wraps the broker's answer (MQClientException caused by MQBrokerException).
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof MQBrokerException broker) {
                    Check.equal(16, broker.getResponseCode(), what + ": " + broker.getErrorMessage());
                    Log.info("refused as expected: %s (%s)", what, broker.getErrorMessage());
                    return;
                }
            }
            throw new AssertionError(what + " failed without the broker's NO_PERMISSION: " + e, e);
        }
        throw new AssertionError(what + " was accepted");
    }

    private String mqadmin(String command, String... args) throws Exception {
        Result r = run(command, args);
        Check.that(r.exit == 0 && !r.err.contains("Exception") && !r.out.contains("Exception"),
                   "mqadmin %s exited %d:%n%s%n%s", command, r.exit, r.out, r.err);
        return r.out;
    }

    private record Result(int exit, String out, String err) {}

    private int runs;

    private Result run(String command, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Drocketmq.home.dir=" + home, "-Drocketmq.client.logRoot=" + env.root().resolve("mqadmin-logs"),
            "-Drocketmq.client.logLevel=WARN", "-Drocketmq.client.logUseSlf4j=false",
            "-Duser.home=" + env.root().resolve("mqadmin-home"),
            "-cp", System.getProperty("java.class.path"), "org.apache.rocketmq.tools.command.MQAdminStartup", command,
            "-n", namesrv));
        argv.addAll(List.of(args));
        Path out = env.root().resolve("mqadmin-" + (++runs) + "-" + command + ".out");
        Path err = env.root().resolve("mqadmin-" + runs + "-" + command + ".err");
        Process process = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("mqadmin " + command + " did not finish within 60 s");
        }
        Result r = new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        Log.info("mqadmin %s %s: exit %d", command, String.join(" ", args), r.exit);
        return r;
    }
}
