package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;

/**
 * A batch: one input file. {@code error} is set for a file that could not be read as a batch
 * at all (it has no rows). {@code haltReason} is set when submission was stopped for the whole
 * batch (bad credentials, balance gone): its ACCEPTED rows stay unsent and are reported as such.
 * {@code reportedAt} is when the last report was written and {@code reportComplete} whether every
 * order was final then.
 */
public record BatchRecord(long id, String fileName, char delimiter, List<String> extraHeaders,
                          String archivedAs, String error, String haltReason, Long balanceBefore,
                          Instant startedAt, Instant submitStartedAt, Instant reportedAt,
                          boolean reportComplete) {
}
