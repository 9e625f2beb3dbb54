package io.mqdesk.junit5.spring;

import io.mqdesk.junit5.MqdeskBroker;
import io.mqdesk.junit5.MqdeskBrokerExtension;
import io.mqdesk.junit5.MqdeskServer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.platform.commons.support.AnnotationSupport;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Spring's test framework meets {@link MqdeskBroker}: for a test class with {@code @MqdeskBroker} (per-class
 * lifecycle) and {@code @SpringBootTest} (or any Spring test context), the application context gets, before
 * any bean is made, the properties of the class's broker, above every other property source:
 *
 * <ul>
 *   <li>{@code rocketmq.name-server}: rocketmq-spring-boot-starter's RocketMQTemplate and listeners;</li>
 *   <li>{@code rocketmq.producer.endpoints}, {@code rocketmq.simple-consumer.endpoints},
 *       {@code rocketmq.push-consumer.endpoints}: rocketmq-v5-client-spring-boot-starter (gRPC);</li>
 *   <li>{@code mqdesk.namesrv-addr}, {@code mqdesk.broker-addr}, {@code mqdesk.grpc-endpoint} for the
 *       application's own use.</li>
 * </ul>
 *
 * Registered in META-INF/spring.factories, so nothing needs declaring. Each test class with the annotation
 * gets its own application context (its broker is its own; {@code @Nested} classes share their enclosing
 * class's), closed when the class is done, before its broker stops ({@link MqdeskTestExecutionListener}), so
 * no listener lingers against a stopped broker. A per-method broker cannot back a context that outlives it: that combination is refused with a
 * clear error.
 */
public final class MqdeskContextCustomizerFactory implements ContextCustomizerFactory {
    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> configs) {
        return MqdeskBrokerExtension.owner(testClass)
            .map(owner -> (ContextCustomizer) new BrokerProperties(
                owner, AnnotationSupport.findAnnotation(owner, MqdeskBroker.class).orElseThrow().lifecycle()))
            .orElse(null);
    }

    private static final class BrokerProperties implements ContextCustomizer {
        private final Class<?> testClass;
        private final MqdeskBroker.Lifecycle lifecycle;

        BrokerProperties(Class<?> testClass, MqdeskBroker.Lifecycle lifecycle) {
            this.testClass = testClass;
            this.lifecycle = lifecycle;
        }

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
            if (lifecycle != MqdeskBroker.Lifecycle.PER_CLASS)
                throw new IllegalStateException("@MqdeskBroker(lifecycle = PER_METHOD) on " + testClass.getName()
                                                + ": a Spring application context lives for the whole class, so "
                                                + "it needs the per-class broker (the default)");
            MqdeskServer broker = MqdeskBrokerExtension.classBroker(testClass).orElseThrow(
                () -> new IllegalStateException("@MqdeskBroker on " + testClass.getName() + ": its broker is not "
                                                + "running while Spring loads the context (is the class run by "
                                                + "JUnit 5 with the extension?)"));
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("mqdesk-broker", Map.of(
                "rocketmq.name-server", broker.namesrvAddr(),
                "rocketmq.producer.endpoints", broker.grpcEndpoint(),
                "rocketmq.simple-consumer.endpoints", broker.grpcEndpoint(),
                "rocketmq.push-consumer.endpoints", broker.grpcEndpoint(),
                "mqdesk.namesrv-addr", broker.namesrvAddr(),
                "mqdesk.broker-addr", broker.brokerAddr(),
                "mqdesk.grpc-endpoint", broker.grpcEndpoint())));
        }

        // The context cache's key: one context per test class, as each class has its own broker.
        @Override
        public boolean equals(Object other) {
            return other instanceof BrokerProperties o && o.testClass == testClass && o.lifecycle == lifecycle;
        }

        @Override
        public int hashCode() {
            return Objects.hash(testClass, lifecycle);
        }
    }
}
