package org.topupbatch.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.MutableClock;

/** An account is out of reach from its first unanswered request until its next answer, of any kind. */
class ProviderReachTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void out_of_reach_from_the_first_unanswered_request_until_any_answer() {
        MutableClock clock = new MutableClock(T0);
        ProviderReach reach = new ProviderReach(clock);
        assertThat(reach.unansweredSince("main")).isEmpty();

        reach.completed("main", 0);
        clock.advance(java.time.Duration.ofSeconds(5));
        reach.completed("main", 0);
        reach.completed("dfz", 200);
        assertThat(reach.unansweredSince("main")).contains(T0);
        assertThat(reach.unansweredSince("dfz")).isEmpty();

        reach.completed("main", 503); // an error is an answer: the account is there
        assertThat(reach.unansweredSince("main")).isEmpty();
    }
}
