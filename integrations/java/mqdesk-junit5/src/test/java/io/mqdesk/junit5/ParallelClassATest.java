package io.mqdesk.junit5;

/** One of the four classes run side by side: see SideBySideBrokers. */
class ParallelClassATest extends SideBySideBrokers {
}
