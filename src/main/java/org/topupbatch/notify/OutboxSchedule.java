package org.topupbatch.notify;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When a message whose try failed is tried again: the first retry after {@code firstDelay}
 * ({@code topup.notify.retry-delay}, 2 s by default), each next one twice as long, never more than an
 * hour apart; so the first three tries fall within seconds (CONTRACT: within two minutes) and a
 * receiver down for a day is tried about every hour. Given up once the next try would come later
 * than {@code giveUpAfter} after the message was recorded: bounded, and a given-up message stays
 * visible in {@code status} until {@code resend-notices} sends it again.
 */
public record OutboxSchedule(Duration firstDelay, Duration giveUpAfter) {

    /** The longest wait between two tries. */
    public static final Duration LONGEST_WAIT = Duration.ofHours(1);

    public OutboxSchedule {
        if (firstDelay.isNegative() || firstDelay.isZero() || giveUpAfter.isNegative()) {
            throw new IllegalArgumentException("a retry delay above zero and a give-up age not below zero");
        }
    }

    /**
     * After the {@code failedTries}-th failed try (1 for the first), failed at {@code now}: when to try
     * again, or empty when the message is to be given up.
     */
    public Optional<Instant> nextTry(int failedTries, Instant createdAt, Instant now) {
        Instant next = now.plus(waitAfter(failedTries));
        return next.isAfter(createdAt.plus(giveUpAfter)) ? Optional.empty() : Optional.of(next);
    }

    /** The wait after the {@code failedTries}-th failed try: firstDelay × 2^(failedTries-1), at most an hour. */
    public Duration waitAfter(int failedTries) {
        int doublings = Math.max(0, Math.min(failedTries - 1, 40));
        Duration wait = firstDelay;
        for (int i = 0; i < doublings && wait.compareTo(LONGEST_WAIT) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
    }
}
