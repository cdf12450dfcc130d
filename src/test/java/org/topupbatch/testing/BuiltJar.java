package org.topupbatch.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The product's jar as {@code mvn package} built it, which the end-to-end tests run as a process. */
public final class BuiltJar {

    private BuiltJar() {
    }

    public static Path path() {
        Path jar = Path.of(System.getProperty("topup.jar", "target/topup-batch.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the built jar is missing: " + jar + " (run mvn package first)");
        }
        return jar;
    }
}
