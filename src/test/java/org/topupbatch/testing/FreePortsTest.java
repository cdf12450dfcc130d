package org.topupbatch.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The port bands that keep the build's test JVMs from picking one another's ports. */
class FreePortsTest {

    @Test
    void forks_one_to_twelve_get_bands_that_do_not_overlap() {
        for (int a = 1; a <= 12; a++) {
            for (int b = a + 1; b <= 12; b++) {
                int[] first = FreePorts.band(Integer.toString(a));
                int[] second = FreePorts.band(Integer.toString(b));
                assertThat(first[1] <= second[0] || second[1] <= first[0]).as("forks %d and %d", a, b).isTrue();
            }
        }
        assertThat(FreePorts.band("1")).containsExactly(20_000, 21_000);
        assertThat(FreePorts.band("12")).containsExactly(31_000, 32_000);
        assertThat(FreePorts.band("13")).as("a thirteenth fork shares the first band").containsExactly(20_000, 21_000);
    }

    @Test
    void without_a_fork_number_the_whole_range_is_used() {
        assertThat(FreePorts.band(null)).containsExactly(20_000, 32_000);
        assertThat(FreePorts.band("")).containsExactly(20_000, 32_000);
        assertThat(FreePorts.band("${surefire.forkNumber}")).containsExactly(20_000, 32_000);
    }

    @Test
    void this_jvm_picks_from_its_own_band_and_never_twice() {
        int[] band = FreePorts.band(System.getProperty("topup.test.fork"));
        List<Integer> picked = IntStream.range(0, 50).map(i -> FreePorts.pick()).boxed().toList();
        assertThat(picked).allSatisfy(port -> assertThat(port).isBetween(band[0], band[1] - 1)).doesNotHaveDuplicates();
    }
}
