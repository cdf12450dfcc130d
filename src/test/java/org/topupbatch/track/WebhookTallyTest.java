package org.topupbatch.track;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.MutableClock;

/** A flood of webhooks that settle nothing gives a few summary lines, not one line each. */
class WebhookTallyTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private final WebhookTally tally = new WebhookTally(clock, Duration.ofSeconds(30));

    @Test
    void aFloodIsSummedUpAtMostOncePerInterval() {
        List<WebhookTally.Summary> lines = new ArrayList<>();
        // 20,000 junk webhooks at 2,500 a second (8 s), as tried against a running batch
        for (int i = 0; i < 20_000; i++) {
            clock.advance(Duration.ofNanos(400_000));
            WebhookTally.Outcome outcome = i % 100 == 0 ? WebhookTally.Outcome.UNKNOWN_REF_ID
                    : i % 10 == 0 ? WebhookTally.Outcome.UNREADABLE : WebhookTally.Outcome.BAD_SIGNATURE;
            add(lines, tally.count(outcome));
        }
        add(lines, tally.summaryIfDue());
        assertThat(lines).as("the first at once, the rest waits for the interval").hasSize(1);

        clock.advance(Duration.ofSeconds(30));
        add(lines, tally.summaryIfDue());
        add(lines, tally.summaryIfDue());
        assertThat(lines).hasSize(2);
        WebhookTally.Summary rest = lines.get(1);
        assertThat(rest.suspicious()).isTrue();
        assertThat(rest.line()).matches("19999 webhooks settled nothing in the last 3[78] s: .*")
                .contains("18000 without a valid signature", "1800 unreadable", "199 for unknown ref_ids");
        assertThat(tally.summaryIfDue()).as("nothing new, nothing to say").isNull();
    }

    @Test
    void aLoneWebhookIsSummedUpAtOnceAndQuietOnesAreNotWarnings() {
        WebhookTally.Summary first = tally.count(WebhookTally.Outcome.ALREADY_FINAL);
        assertThat(first).isNotNull();
        assertThat(first.line()).isEqualTo("1 webhook settled nothing in the last 1 s: 1 for orders already final");
        assertThat(first.suspicious()).isFalse();
        clock.advance(Duration.ofSeconds(10));
        assertThat(tally.count(WebhookTally.Outcome.UNVERIFIED)).isNull();
        clock.advance(Duration.ofSeconds(20));
        WebhookTally.Summary second = tally.summaryIfDue();
        assertThat(second.line()).contains("1 unverified, no webhook secret set");
        assertThat(second.suspicious()).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(tally.count(WebhookTally.Outcome.UNKNOWN_REF_ID)).isNull();
        assertThat(tally.summaryNow().line()).as("at shutdown, due or not").contains("1 for unknown ref_ids");
        assertThat(tally.summaryNow()).isNull();
    }

    private static void add(List<WebhookTally.Summary> lines, WebhookTally.Summary s) {
        if (s != null) {
            lines.add(s);
        }
    }
}
