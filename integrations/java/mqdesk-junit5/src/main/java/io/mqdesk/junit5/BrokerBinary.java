package io.mqdesk.junit5;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where mqdesk-broker is: the path a test names, else the system property {@code mqdesk.broker}, else the
 * environment variable {@code MQDESK_BROKER}, else {@code mqdesk-broker} on PATH, else the Debian
 * package's {@code /usr/bin/mqdesk-broker}. A path named explicitly (first three) must be an executable
 * file: it is never silently skipped for another one.
 */
final class BrokerBinary {
    static final String ENV = "MQDESK_BROKER";
    static final String PROPERTY = "mqdesk.broker";
    static final Path DEBIAN_PACKAGE = Path.of("/usr/bin/mqdesk-broker");

    private BrokerBinary() {}

    static Path locate(Path explicit) throws IOException {
        return locate(explicit, System.getProperty(PROPERTY), System.getenv(ENV), System.getenv("PATH"),
                      DEBIAN_PACKAGE);
    }

    static Path locate(Path explicit, String property, String env, String pathVariable, Path packaged)
            throws IOException {
        if (explicit != null)
            return executable(explicit, "the path the test names");
        if (property != null && !property.isBlank())
            return executable(Path.of(property), "system property " + PROPERTY);
        if (env != null && !env.isBlank())
            return executable(Path.of(env), "environment variable " + ENV);
        List<String> looked = new ArrayList<>();
        if (pathVariable != null) {
            for (String dir : pathVariable.split(java.io.File.pathSeparator)) {
                if (dir.isEmpty())
                    continue;
                Path candidate = Path.of(dir, "mqdesk-broker");
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                    return candidate;
            }
            looked.add("PATH (" + pathVariable + ")");
        }
        if (Files.isRegularFile(packaged) && Files.isExecutable(packaged))
            return packaged;
        looked.add(packaged.toString());
        throw new IOException("mqdesk-broker not found: " + ENV + " is not set and it is not in "
                              + String.join(" nor in ", looked) + ". Install MQDesk's Debian package "
                              + "(apt install ./mqdesk_<version>_amd64.deb), or build MQDesk (see its README) and set "
                              + ENV + "=/path/to/mqdesk-broker.");
    }

    private static Path executable(Path path, String source) throws IOException {
        if (!Files.isRegularFile(path))
            throw new IOException("mqdesk-broker " + path + " (from " + source + ") does not exist or is not a file");
        if (!Files.isExecutable(path))
            throw new IOException("mqdesk-broker " + path + " (from " + source + ") is not executable");
        return path.toAbsolutePath();
    }
}
