package org.topupbatch.report;

import java.util.LinkedHashMap;
import java.util.Map;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.notify.Notice;
import org.topupbatch.text.OneLine;
import org.topupbatch.text.Rupiah;

/**
 * What the notifications say when a batch's report is written (docs/operating.md#notifications): the batch
 * reported with its figures, orders still pending at the pending timeout, and a balance below
 * {@code topup.notify.low-balance}. Rupiah are written the Indonesian way.
 */
public final class ReportNotices {

    private ReportNotices() {
    }

    /** The notices a report written now calls for (none for a held batch's report as it stands). */
    public static java.util.List<Notice> forReport(BatchRecord batch, boolean complete, ReportSummary s, Long lowBalance,
                                                   long queuedNeed) {
        java.util.List<Notice> notices = new java.util.ArrayList<>();
        String file = OneLine.of(batch.fileName(), 200);
        if (complete) {
            notices.add(new Notice("batch_reported", "topup-batch: " + file + " reported: " + s.success() + " success, "
                    + s.failed() + " failed, " + s.rejected() + " rejected",
                    "Batch " + file + ": " + s.rows() + " rows, " + s.success() + " success, " + s.failed() + " failed, "
                            + s.pending() + " pending, " + s.rejected() + " rejected.\nCharged " + Rupiah.format(s.charged())
                            + (s.balanceAfter() == null ? "" : "; balance now " + Rupiah.format(s.balanceAfter())) + ".",
                    figures(batch, s)));
        } else if (s.pending() > 0 && !batch.held()) {
            notices.add(new Notice("orders_pending", "topup-batch: " + s.pending() + " orders of " + file
                    + " still pending", s.pending() + " orders of batch " + file + " are still pending at the provider after"
                    + " the pending timeout; the report shows them pending and is written again when they settle.",
                    figures(batch, s)));
        }
        Long b = s.balanceAfter();
        if (b != null && lowBalance != null && b < lowBalance) {
            notices.add(new Notice("balance_low", "topup-batch: balance " + Rupiah.format(b) + " is below "
                    + Rupiah.format(lowBalance), "The deposit balance is " + Rupiah.format(b) + ", below the "
                    + Rupiah.format(lowBalance) + " set as topup.notify.low-balance. Top up the deposit before the next batch.",
                    Map.of("balance", b, "threshold", lowBalance)));
        } else if (b != null && queuedNeed > 0 && b < queuedNeed) {
            notices.add(new Notice("balance_low", "topup-batch: balance " + Rupiah.format(b) + " is below what the"
                    + " queued rows need", "The deposit balance is " + Rupiah.format(b) + "; the rows still queued need "
                    + Rupiah.format(queuedNeed) + " at the prices they were accepted at. Top up the deposit, or they stop"
                    + " at insufficient balance.", Map.of("balance", b, "queued_need", queuedNeed)));
        }
        return notices;
    }

    private static Map<String, Object> figures(BatchRecord batch, ReportSummary s) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("batch", batch.fileName());
        fields.put("batch_id", batch.id());
        fields.put("rows", s.rows());
        fields.put("success", s.success());
        fields.put("failed", s.failed());
        fields.put("pending", s.pending());
        fields.put("rejected", s.rejected());
        fields.put("charged", s.charged());
        fields.put("balance_after", s.balanceAfter());
        return fields;
    }
}
