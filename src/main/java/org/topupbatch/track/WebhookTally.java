package org.topupbatch.track;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Counts the webhooks that settled nothing and sums them up in one line at most once per
 * interval. A flood of junk webhooks (thousands a second) must not flood the log in turn, and a
 * single odd webhook should still show up promptly: the first one after a quiet interval is
 * summed up at once, the rest of a burst in the next line.
 */
public final class WebhookTally {

    /** Why a webhook settled nothing; {@code suspicious} ones make the summary a warning. */
    public enum Outcome {
        UNREADABLE("unreadable or without ref_id", true),
        BAD_SIGNATURE("without a valid signature (taken as hints)", true),
        NOT_MATCHING("signed but not matching our order (taken as hints)", true),
        OTHER_ACCOUNT("signed for an account its order is not at (taken as hints)", true),
        NO_SUCH_ACCOUNT("at the address of no account", true),
        UNVERIFIED("unverified, no webhook secret set (taken as hints)", false),
        PLAIN_ADDRESS("at the plain address, which with several accounts verifies none (taken as hints)", false),
        INTERIM("with a status that is not final", false),
        UNKNOWN_REF_ID("for unknown ref_ids", false),
        ALREADY_FINAL("for orders already final", false);

        final String words;
        final boolean suspicious;

        Outcome(String words, boolean suspicious) {
            this.words = words;
            this.suspicious = suspicious;
        }
    }

    /** One summary line; {@code suspicious} when some of it looks like junk or forgery. */
    public record Summary(String line, boolean suspicious) {
    }

    private final Clock clock;
    private final Duration interval;
    private final Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
    private long total;
    private Instant since;
    private Instant lastSummary;

    public WebhookTally(Clock clock, Duration interval) {
        this.clock = clock;
        this.interval = interval;
    }

    /** Counts one webhook; returns the summary when one is due now, else null. */
    public synchronized Summary count(Outcome outcome) {
        Instant now = clock.instant();
        if (total == 0) {
            since = now;
        }
        counts.merge(outcome, 1L, Long::sum);
        total++;
        return summaryIfDue(now);
    }

    /** The summary of what was counted, when one is due now (for a timer); else null. */
    public synchronized Summary summaryIfDue() {
        return summaryIfDue(clock.instant());
    }

    /** The summary of what was counted and not yet summed up, due or not (at shutdown); else null. */
    public synchronized Summary summaryNow() {
        return total == 0 ? null : summary(clock.instant());
    }

    private Summary summaryIfDue(Instant now) {
        if (total == 0 || (lastSummary != null && now.isBefore(lastSummary.plus(interval)))) {
            return null;
        }
        return summary(now);
    }

    private Summary summary(Instant now) {
        StringJoiner parts = new StringJoiner(", ");
        boolean suspicious = false;
        for (Map.Entry<Outcome, Long> e : counts.entrySet()) {
            parts.add(e.getValue() + " " + e.getKey().words);
            suspicious |= e.getKey().suspicious;
        }
        long seconds = Math.max(1, Duration.between(since, now).toSeconds());
        String line = total + (total == 1 ? " webhook" : " webhooks") + " settled nothing in the last " + seconds
                + " s: " + parts;
        counts.clear();
        total = 0;
        lastSummary = now;
        return new Summary(line, suspicious);
    }
}
