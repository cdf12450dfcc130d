package org.topupbatch.run;

import org.topupbatch.report.TimeSpan;
import org.topupbatch.text.Rupiah;

import org.topupbatch.journal.BatchStatus;
import org.topupbatch.settings.PickUpSettings;
import org.topupbatch.settings.WebhookSettings;

import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import org.quartz.CronExpression;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.ProductOutages;
import org.topupbatch.journal.ReportingJournal;
import org.topupbatch.journal.StatusJournal;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.RateBudget;

/**
 * What an operator watching the log needs while the service runs, driven by the timer of
 * {@code routes/progress.yaml}: once, that the service is ready and what it watches; then, at a
 * steady pace, one line per active batch: orders done of total, orders per minute, spent so far,
 * time left, and why it waits when it waits. Reads only the journal and the rate budget.
 */
public final class ProgressLog {

    private static final Logger LOG = LoggerFactory.getLogger(ProgressLog.class);
    private static final int BATCHES_LOOKED_AT = 50;

    private final PickUpSettings pickUp;
    private final String inboxShown;
    private final WebhookSettings webhook;
    private final java.util.List<String> accountNames;
    private final StatusJournal statusJournal;
    private final ReportingJournal reporting;
    private final ProductOutages outages;
    private final RateBudget budget;
    private final Clock clock;
    private final Map<Long, Sample> last = new HashMap<>();
    private boolean readySaid;

    /** Orders sent of a batch at one moment: the pace is the difference between two samples. */
    private record Sample(long sent, Instant at) {
    }

    /**
     * @param inboxShown   the inbox as the operator gave it (an SFTP folder without secrets, or the local path)
     * @param accountNames the accounts' names in order, null for the unnamed account of topup.base-url
     */
    public ProgressLog(PickUpSettings pickUp, String inboxShown, WebhookSettings webhook, java.util.List<String> accountNames,
            StatusJournal statusJournal, ReportingJournal reporting, ProductOutages outages, RateBudget budget, Clock clock) {
        this.pickUp = pickUp;
        this.inboxShown = inboxShown;
        this.webhook = webhook;
        this.accountNames = accountNames;
        this.statusJournal = statusJournal;
        this.reporting = reporting;
        this.outages = outages;
        this.budget = budget;
        this.clock = clock;
    }

    /** Called by the timer: the ready line on the first call (routes start only once the checks passed). */
    public synchronized void tick() {
        if (!readySaid) {
            readySaid = true;
            LOG.info("{}", readyLine());
        }
        for (BatchRecord batch : statusJournal.recentBatches(BATCHES_LOOKED_AT)) {
            BatchProgress progress = reporting.progress(batch.id());
            BatchStatus status = BatchStatus.of(batch, progress);
            if (status.active()) {
                LOG.info("{}", batchLine(batch, progress, status));
            } else {
                last.remove(batch.id());
            }
        }
    }

    String readyLine() {
        boolean once = pickUp.mode() == PickUpSettings.Mode.ONCE;
        StringBuilder line = new StringBuilder(once ? "Ready: taking the batches in " : "Ready: watching inbox ")
                .append(inboxShown).append(once ? " now" : "")
                .append(" (mode ").append(pickUp.mode().name().toLowerCase(java.util.Locale.ROOT)).append(")");
        if (pickUp.schedule() != null && !once) {
            line.append(", next pick-up ").append(nextPickUp(pickUp.schedule(), clock.instant()));
        }
        line.append(webhook.enabled() ? ", webhooks at " + webhookAddress()
                : ", webhooks off (orders are tracked by polling)");
        return line.toString();
    }

    /** An address one can post to: a wildcard listen address is no host name, so it shows as loopback. */
    private String webhookAddress() {
        String host = webhook.host();
        boolean everywhere = host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]");
        String shown = everywhere ? "127.0.0.1" : host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        String base = "http://" + shown + ":" + webhook.port();
        // each account's own address, the only one whose signed webhooks settle its orders: a named
        // account's is topup.webhook.path/NAME, the unnamed account's topup.webhook.path itself
        String paths = accountNames.stream()
                .map(name -> name == null ? webhook.path() : webhook.accountPath(name))
                .collect(java.util.stream.Collectors.joining(", "));
        return base + paths + (everywhere ? " (listening on all addresses)" : "");
    }

    /** The cron runs in the JVM's time zone (Quartz's default), so the time is shown in it, named. */
    static String nextPickUp(String quartzCron, Instant now) {
        try {
            Date next = new CronExpression(quartzCron).getNextValidTimeAfter(Date.from(now));
            ZoneId zone = ZoneId.systemDefault();
            return next == null ? "never (the schedule has no future time)"
                    : next.toInstant().atZone(zone).toLocalDateTime().withNano(0) + " " + zone.getId()
                    + " (schedule '" + quartzCron + "')";
        } catch (ParseException e) {
            return "unknown (schedule '" + quartzCron + "': " + e.getMessage() + ")";
        }
    }

    private String batchLine(BatchRecord batch, BatchProgress p, BatchStatus status) {
        long orders = p.rows() - p.count(RowState.REJECTED);
        long queued = p.count(RowState.ACCEPTED) + p.count(RowState.WAITING);
        long sent = orders - queued;
        long done = sent - p.count(RowState.SENDING) - p.count(RowState.PENDING) - p.count(RowState.UNKNOWN);
        Instant now = clock.instant();
        Sample before = last.put(batch.id(), new Sample(sent, now));
        double perMinute = before == null || !now.isAfter(before.at()) ? Double.NaN
                : (sent - before.sent()) * 60_000.0 / Duration.between(before.at(), now).toMillis();
        StringBuilder line = new StringBuilder("Batch ").append(batch.id()).append(" (").append(batch.fileName())
                .append("): ").append(status.word()).append(", ").append(done).append('/').append(orders).append(" done, ")
                .append(sent).append(" sent");
        if (!Double.isNaN(perMinute)) {
            line.append(", ").append(Math.round(perMinute)).append(" orders/min");
        }
        line.append(", spent ").append(Rupiah.format(statusJournal.charged(batch.id())));
        if (queued > 0 && !Double.isNaN(perMinute) && perMinute >= 1) {
            line.append(", about ").append(TimeSpan.minutes(Duration.ofSeconds(Math.round(queued * 60 / perMinute))))
                    .append(" left");
        }
        String waiting = waitingFor(queued);
        if (waiting != null) {
            line.append(", waiting: ").append(waiting);
        }
        return line.toString();
    }

    private String waitingFor(long queued) {
        if (queued == 0) {
            return null;
        }
        AccountLimits limits = budget.limits();
        if (limits.usedToday() >= limits.perDay()) {
            return "the daily limit of " + limits.perDay() + " requests is used up; sending resumes tomorrow";
        }
        if (budget.inWindow() >= limits.perMinute()) {
            return "the rate limit (" + limits.perMinute() + " requests per minute)";
        }
        // rows of a product the provider reports unavailable wait for it (docs/batch-files-and-reports.md#outages-rows-held-not-sent)
        String held = outages.productOutages().stream().filter(o -> o.held() && o.rowsWaiting() > 0)
                .map(o -> o.sku() + " (unavailable since " + o.sinceShown() + ")")
                .collect(java.util.stream.Collectors.joining(", "));
        return held.isEmpty() ? null : "rows held for products the provider reports unavailable: " + held;
    }
}
