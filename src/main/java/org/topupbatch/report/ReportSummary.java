package org.topupbatch.report;

import java.time.Instant;

/**
 * The figures of a batch report, as written to {@code NAME.summary.json}. {@code submitted} is
 * success + failed + pending; {@code charged} the sum of price over success and pending rows.
 * {@code error} is set (and every count 0) for a file that could not be read as a batch.
 * {@code batch} is the journal's batch id: it tells which batch a report file belongs to.
 * {@code queued}: rows never sent yet (a held batch's, or those a once run left waiting); the result
 * file shows them {@code pending} ("not yet submitted"), but they are counted neither as submitted nor
 * as pending here: {@code rows} = submitted + rejected + queued.
 */
public record ReportSummary(String file, long batch, long rows, long submitted, long success, long failed,
                            long pending, long rejected, long charged, Long balanceBefore, Long balanceAfter,
                            Instant startedAt, Instant finishedAt, String provider, String error, long queued) {
}
