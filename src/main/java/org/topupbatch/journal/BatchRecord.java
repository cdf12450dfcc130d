package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;

/**
 * A batch: one input file. {@code error} is set for a file that could not be read as a batch
 * at all (it has no rows). {@code haltReason} is set when submission was stopped for the whole
 * batch (bad credentials, balance gone): its ACCEPTED rows stay unsent and are reported as such.
 * {@code balanceBefore} is the balance read at intake until the batch's first order replaces it
 * with the balance read just before that order. {@code reportedAt} is when the last report was
 * written and {@code reportComplete} whether every order was final then (a report written but not
 * complete is one written at the pending timeout). {@code provider} names who served the batch
 * ({@code sandbox} or the provider's host), {@code balanceAfter} is the balance its last report showed,
 * {@code encoding} the text encoding its file came in (its report goes back in it). {@code heldAt} is
 * set while an operator holds the batch ({@code hold BATCH}: its rows are not sent until
 * {@code resume}), {@code cancelledAt} once an operator cancelled it ({@code cancel BATCH}: its rows
 * not yet sent were rejected).
 */
public record BatchRecord(long id, String fileName, char delimiter, List<String> extraHeaders,
                          String archivedAs, String error, String haltReason, Long balanceBefore,
                          Instant startedAt, Instant submitStartedAt, Instant reportedAt,
                          boolean reportComplete, String provider, Long balanceAfter, BatchEncoding encoding,
                          Instant heldAt, Instant cancelledAt) {

    /** A batch no operator has held or cancelled. */
    public BatchRecord(long id, String fileName, char delimiter, List<String> extraHeaders,
                       String archivedAs, String error, String haltReason, Long balanceBefore,
                       Instant startedAt, Instant submitStartedAt, Instant reportedAt,
                       boolean reportComplete, String provider, Long balanceAfter, BatchEncoding encoding) {
        this(id, fileName, delimiter, extraHeaders, archivedAs, error, haltReason, balanceBefore, startedAt,
                submitStartedAt, reportedAt, reportComplete, provider, balanceAfter, encoding, null, null);
    }

    /** A batch read as UTF-8. */
    public BatchRecord(long id, String fileName, char delimiter, List<String> extraHeaders,
                       String archivedAs, String error, String haltReason, Long balanceBefore,
                       Instant startedAt, Instant submitStartedAt, Instant reportedAt,
                       boolean reportComplete, String provider, Long balanceAfter) {
        this(id, fileName, delimiter, extraHeaders, archivedAs, error, haltReason, balanceBefore, startedAt,
                submitStartedAt, reportedAt, reportComplete, provider, balanceAfter, BatchEncoding.UTF_8);
    }

    /** A batch whose provider and last balance are not known. */
    public BatchRecord(long id, String fileName, char delimiter, List<String> extraHeaders,
                       String archivedAs, String error, String haltReason, Long balanceBefore,
                       Instant startedAt, Instant submitStartedAt, Instant reportedAt, boolean reportComplete) {
        this(id, fileName, delimiter, extraHeaders, archivedAs, error, haltReason, balanceBefore, startedAt,
                submitStartedAt, reportedAt, reportComplete, null, null, BatchEncoding.UTF_8);
    }

    /** True while an operator holds the batch: its queued rows wait for {@code resume}. */
    public boolean held() {
        return heldAt != null;
    }

    /** True when an operator cancelled the batch. */
    public boolean cancelled() {
        return cancelledAt != null;
    }

    /** True when a report was written at the pending timeout with orders still open, and none since settled them all. */
    public boolean reportedAtTimeout() {
        return reportedAt != null && !reportComplete;
    }
}
