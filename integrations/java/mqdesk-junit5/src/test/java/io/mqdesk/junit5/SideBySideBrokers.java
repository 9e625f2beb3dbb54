package io.mqdesk.junit5;

import org.junit.jupiter.api.Test;

/**
 * The body of the four ParallelClass*Test classes JUnit runs at once (junit-platform.properties), each
 * with a broker per method: every broker claims its ports (none shared with any other) and takes a send.
 */
@MqdeskBroker(lifecycle = MqdeskBroker.Lifecycle.PER_METHOD)
abstract class SideBySideBrokers {
    @Test
    void first(MqdeskServer broker) throws Exception {
        SidePorts.claimAndUse(broker, getClass().getSimpleName() + ".first");
    }

    @Test
    void second(MqdeskServer broker) throws Exception {
        SidePorts.claimAndUse(broker, getClass().getSimpleName() + ".second");
    }
}
