package org.topupbatch.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The sample batch of README's first command (inbox/orders-2026-11-21.csv), as a test resource:
 * that command moves inbox/'s copy into data/archive, and the tests must pass after it too.
 */
public final class SampleBatch {

    private SampleBatch() {
    }

    public static byte[] bytes() {
        try (InputStream in = SampleBatch.class.getResourceAsStream("/sample-batch.csv")) {
            if (in == null) {
                throw new IllegalStateException("sample-batch.csv is missing from src/test/resources");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
