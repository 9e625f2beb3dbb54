package io.mqdesk.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A fresh mqdesk-broker for a test: a RocketMQ NameServer, broker and 5.x gRPC endpoint in one process on
 * free ports, its store in a temporary folder, stopped (cleanly, checked) after.
 *
 * <p>On a test class: one broker for the class ({@link Lifecycle#PER_CLASS}, the default) or one per test
 * method ({@link Lifecycle#PER_METHOD}); test methods, constructors and lifecycle methods receive it as a
 * {@link MqdeskServer} parameter. With Spring's {@code @SpringBootTest} on the same class, the application
 * context gets {@code rocketmq.name-server} and the 5.x endpoints of the class's broker (see
 * {@code io.mqdesk.junit5.spring}).
 *
 * <p>On a field of type {@link MqdeskServer}: a static field gets a broker per class, an instance field one
 * per test method, each with that field's own settings. Several fields give several brokers.
 *
 * <pre>{@code
 * @MqdeskBroker(topics = "orders:4", autoCreateTopics = false)
 * class OrdersTest {
 *     @Test
 *     void sends(MqdeskServer broker) throws Exception {
 *         DefaultMQProducer producer = new DefaultMQProducer("p");
 *         producer.setNamesrvAddr(broker.namesrvAddr());
 *         ...
 * }
 * }</pre>
 *
 * The mqdesk-broker run is found through the system property {@code mqdesk.broker}, the environment variable
 * {@code MQDESK_BROKER}, PATH, then the Debian package's /usr/bin/mqdesk-broker.
 */
@Target({ElementType.TYPE, ElementType.FIELD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(MqdeskBrokerExtension.class)
public @interface MqdeskBroker {
    /** On a class: how long a broker lives. Ignored on a field (static: per class, instance: per method). */
    Lifecycle lifecycle() default Lifecycle.PER_CLASS;

    /** Topics to create first: "NAME[:QUEUES[:TYPE]]", e.g. "orders", "orders:4", "steps:4:FIFO". */
    String[] topics() default {};

    /** Subscription groups to create first: "NAME", or "NAME:orderly" for a FIFO group. */
    String[] groups() default {};

    /** broker.conf entries, "key=value" with RocketMQ's key names, e.g. "maxMessageSize=65536". */
    String[] config() default {};

    /** flushDiskType=SYNC_FLUSH: a send is acknowledged once it is on disk. */
    boolean syncFlush() default false;

    /** autoCreateTopicEnable: false makes sends to topics not created fail, as on most production brokers. */
    boolean autoCreateTopics() default true;

    /**
     * "user:password": ACL 2.0 on (authentication and authorization) with this super user; clients then
     * sign requests with it ({@link MqdeskServer#aclUser()}, {@link MqdeskServer#aclPassword()}).
     */
    String aclUser() default "";

    enum Lifecycle { PER_CLASS, PER_METHOD }
}
