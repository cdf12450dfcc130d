package org.topupbatch.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** An account is out of reach from its first unanswered request until its next answer, of any kind. */
class ProviderReachTest {

    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void out_of_reach_from_the_first_unanswered_request_until_any_answer() {
        Instant[] now = {T0};
        ProviderReach reach = new ProviderReach(new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        });
        assertThat(reach.unansweredSince("main")).isEmpty();

        reach.completed("main", 0);
        now[0] = T0.plusSeconds(5);
        reach.completed("main", 0);
        reach.completed("dfz", 200);
        assertThat(reach.unansweredSince("main")).contains(T0);
        assertThat(reach.unansweredSince("dfz")).isEmpty();

        reach.completed("main", 503); // an error is an answer: the account is there
        assertThat(reach.unansweredSince("main")).isEmpty();
    }
}
