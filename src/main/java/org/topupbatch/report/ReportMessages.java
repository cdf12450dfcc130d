package org.topupbatch.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.Outbox;
import org.topupbatch.journal.Outbox.OutgoingMessage;
import org.topupbatch.notify.Callbacks;
import org.topupbatch.notify.Notice;
import org.topupbatch.notify.Notifications;

/**
 * The outgoing messages a written report calls for, recorded with the report in one transaction
 * ({@link BatchReportWriter#recordingIn}): the notices of {@link ReportNotices} for every endpoint of
 * {@code topup.notify.uris}, and, once the report is complete, the {@code batch_reported} callback to
 * the batch's own callback URL or {@code topup.callback.url} (docs/callbacks.md).
 */
public final class ReportMessages {

    private final Notifications notifications;
    private final Callbacks callbacks;
    private final Outbox outbox;
    private final Long lowBalance;
    private final LongSupplier queuedNeed;

    public ReportMessages(Notifications notifications, Callbacks callbacks, Outbox outbox, Long lowBalance,
                          LongSupplier queuedNeed) {
        this.notifications = notifications;
        this.callbacks = callbacks;
        this.outbox = outbox;
        this.lowBalance = lowBalance;
        this.queuedNeed = queuedNeed;
    }

    public List<OutgoingMessage> messagesFor(BatchRecord batch, boolean complete, ReportSummary summary) {
        List<OutgoingMessage> messages = new ArrayList<>();
        if (notifications.enabled()) {
            for (Notice notice : ReportNotices.forReport(batch, complete, summary, lowBalance, queuedNeed.getAsLong())) {
                messages.addAll(notifications.messagesFor(notice, batch.id()));
            }
        }
        if (complete) {
            callbacks.batchReported(batch.id(), batch.fileName(), figures(summary), outbox.callbackUrl(batch.fileName(), batch.archivedAs()))
                    .ifPresent(messages::add);
        }
        return messages;
    }

    /** The summary's figures as summary.json names them. */
    static Map<String, Object> figures(ReportSummary s) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("rows", s.rows());
        f.put("submitted", s.submitted());
        f.put("success", s.success());
        f.put("failed", s.failed());
        f.put("pending", s.pending());
        f.put("rejected", s.rejected());
        f.put("charged", s.charged());
        f.put("balance_before", s.balanceBefore());
        f.put("balance_after", s.balanceAfter());
        f.put("started_at", s.startedAt() == null ? null : s.startedAt().toString());
        f.put("finished_at", s.finishedAt() == null ? null : s.finishedAt().toString());
        return f;
    }
}
