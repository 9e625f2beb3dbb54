package mqdesk.interop.spring;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Spring Boot application the SpringBoot scenario starts (no web server): the starter's
 * auto-configuration gives it a RocketMQTemplate from {@code rocketmq.name-server} and
 * {@code rocketmq.producer.group}; the listeners in this package are found by component scanning.
 * Topic and group names come from the {@code mqdesk.*} properties the scenario sets.
 */
@SpringBootApplication
public class SpringApp {
}
