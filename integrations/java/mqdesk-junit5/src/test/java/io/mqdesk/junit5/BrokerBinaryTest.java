package io.mqdesk.junit5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerBinaryTest {
    @TempDir
    Path dir;

    @Test
    void missingEverywhereSaysWhatToInstall() {
        IOException e = assertThrows(IOException.class, () -> BrokerBinary.locate(
            null, null, null, dir.toString(), dir.resolve("usr-bin-mqdesk-broker")));
        assertTrue(e.getMessage().contains("MQDESK_BROKER"), e.getMessage());
        assertTrue(e.getMessage().contains("Debian package"), e.getMessage());
        assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    }

    @Test
    void aNamedPathIsNeverSkipped() throws IOException {
        Path onPath = executable("mqdesk-broker");
        Path named = dir.resolve("not-there");
        IOException e = assertThrows(IOException.class, () -> BrokerBinary.locate(
            null, null, named.toString(), dir.toString(), Path.of("/nonexistent")));
        assertTrue(e.getMessage().contains(named.toString()) && e.getMessage().contains("MQDESK_BROKER"),
                   e.getMessage());
        assertEquals(onPath, BrokerBinary.locate(null, null, null, "/nonexistent:" + dir, Path.of("/nonexistent")));
    }

    @Test
    void theOrderIsPropertyEnvironmentPathPackage() throws IOException {
        Path property = executable("a");
        Path env = executable("b");
        Path packaged = executable("c");
        assertEquals(property, BrokerBinary.locate(null, property.toString(), env.toString(), "", packaged));
        assertEquals(env, BrokerBinary.locate(null, null, env.toString(), "", packaged));
        assertEquals(packaged, BrokerBinary.locate(null, null, null, "", packaged));
    }

    @Test
    void aBrokerThatCannotStartSaysWhyAndLeavesNothing() throws IOException {
        IOException e = assertThrows(IOException.class,
                                     () -> MqdeskServer.builder().tempRoot(dir).topic("bad/name").start().close());
        assertTrue(e.getMessage().contains("--topic bad/name: The specified topic[bad/name]"), e.getMessage());
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "its temporary folder is removed");
        }
    }

    private Path executable(String name) throws IOException {
        Path p = Files.createFile(dir.resolve(name), PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwxr-xr-x")));
        return p.toAbsolutePath();
    }
}
