package mqdesk.interop.harness;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Assertions that say what differed. A failed check throws {@link AssertionError}. */
public final class Check {
    private Check() {}

    public static void that(boolean condition, String format, Object... args) {
        if (!condition)
            throw new AssertionError(String.format(format, args));
    }

    public static void equal(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual))
            throw new AssertionError(what + ": expected <" + expected + "> but was <" + actual + ">");
    }

    /**
     * Polls {@code condition} every 50 ms until it holds or {@code timeout} passes; on timeout fails
     * with {@code what} and the current {@code state} (what was seen instead).
     */
    public static void eventually(Duration timeout, BooleanSupplier condition, String what, Supplier<?> state)
            throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline)
                throw new AssertionError(what + " did not happen within " + timeout.toSeconds() + " s; state: "
                                         + state.get());
            Thread.sleep(50);
        }
    }

    public static void eventually(Duration timeout, BooleanSupplier condition, String what)
            throws InterruptedException {
        eventually(timeout, condition, what, () -> "-");
    }
}
