package mqdesk.interop.harness;

/** Progress lines on stdout, stamped with the seconds since the scenario started. */
public final class Log {
    private static final long START = System.nanoTime();

    private Log() {}

    public static void info(String format, Object... args) {
        System.out.printf("[%8.3f] %s%n", (System.nanoTime() - START) / 1e9, String.format(format, args));
        System.out.flush();
    }
}
