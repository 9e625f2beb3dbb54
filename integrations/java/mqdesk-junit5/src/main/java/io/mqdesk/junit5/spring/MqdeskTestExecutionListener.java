package io.mqdesk.junit5.spring;

import io.mqdesk.junit5.MqdeskBrokerExtension;
import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Closes the application context of a test class with {@code @MqdeskBroker} when the class is done, as
 * {@code @DirtiesContext} would: its broker stops right after (JUnit closes it once every afterAll callback
 * ran), and a cached context would keep its RocketMQ clients retrying against the stopped broker for the
 * rest of the run. Registered in META-INF/spring.factories.
 */
public final class MqdeskTestExecutionListener implements TestExecutionListener, Ordered {
    @Override
    public void afterTestClass(TestContext testContext) {
        Class<?> testClass = testContext.getTestClass();
        // A @Nested class shares its owner's context: only the owner's end closes it.
        if (MqdeskBrokerExtension.owner(testClass).orElse(null) == testClass && testContext.hasApplicationContext())
            testContext.markApplicationContextDirty(null);
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
