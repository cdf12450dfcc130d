package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RefIdsSeenTest {

    @Test
    void theFirstRowOfEachRefIdCountsInMemoryAndAfterMovingToDisk() {
        for (int inMemory : new int[] {RefIdsSeen.IN_MEMORY, 1_000}) {
            Random random = new Random(42);
            Map<String, Long> expected = new HashMap<>();
            try (RefIdsSeen seen = new RefIdsSeen(inMemory)) {
                for (long line = 2; line < 20_000; line++) {
                    // many repeats, similar ref_ids, upper and lower case
                    String refId = (random.nextBoolean() ? "INV-" : "inv-") + random.nextInt(8_000);
                    long stored = random.nextInt(10) == 0 ? -line : line;
                    assertThat(seen.firstLine(refId)).as("%s at line %d (in memory: %d)", refId, line, inMemory)
                            .isEqualTo(expected.get(refId));
                    seen.remember(refId, stored);
                    expected.putIfAbsent(refId, stored);
                }
                for (Map.Entry<String, Long> e : expected.entrySet()) {
                    assertThat(seen.firstLine(e.getKey())).isEqualTo(e.getValue());
                }
                assertThat(seen.firstLine("INV-8000")).isNull();
                assertThat(seen.firstLine("")).isNull();
            }
        }
    }

    @Test
    void fingerprintsTellApartWhatDiffersInOneCharacterOrInOrder() {
        assertThat(RefIdsSeen.fingerprint("AB-12")).isNotEqualTo(RefIdsSeen.fingerprint("BA-12"));
        assertThat(RefIdsSeen.fingerprint("AB-12")).isNotEqualTo(RefIdsSeen.fingerprint("AB-13"));
        assertThat(RefIdsSeen.fingerprint("Ā")).isNotEqualTo(RefIdsSeen.fingerprint("\u0001\u0001"));
        assertThat(RefIdsSeen.fingerprint("")).isNotZero();
    }
}
