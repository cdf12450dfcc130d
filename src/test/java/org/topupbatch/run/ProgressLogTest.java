package org.topupbatch.run;

import org.topupbatch.testing.OperatorJournal;

import org.topupbatch.settings.Settings;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.testing.MutableClock;

/** The progress lines, from a real H2 journal and rate budget. */
class ProgressLogTest {

    @TempDir
    Path dir;

    @Test
    void says_ready_once_then_one_line_per_active_batch_with_pace_spend_and_why_it_waits() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        j.env.put("TOPUP_SCHEDULE", "0 2 * * *");
        Settings settings = Settings.load(j.settings());
        MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        ((Logger) LoggerFactory.getLogger(ProgressLog.class)).addAppender(lines);
        try (JdbcJournal journal = j.open()) {
            OperatorJournal.fiveRowBatch(journal, "daily.csv", "D-");
            try (var writer = journal.intake().openBatch("queued.csv", ',', List.of(), "archive/queued.csv")) {
                writer.add(new org.topupbatch.journal.NewRow(0, 2, "Q-1", "FF100", "12345678", null, null, List.of(),
                        org.topupbatch.journal.RowState.ACCEPTED, 1_000L, null));
                writer.commit();
            }
            RateBudget budget = new RateBudget(clock, journal.callLog(), Duration.ofSeconds(30), RateBudget.Waiter.REAL, 60, 4);
            budget.setLimits(60, 4, 4); // the day's requests are used up
            ProgressLog log = progressLog(settings, journal, budget, clock);
            log.tick();
            clock.advance(Duration.ofSeconds(30));
            log.tick();
        } finally {
            ((Logger) LoggerFactory.getLogger(ProgressLog.class)).detachAppender(lines);
        }
        List<String> messages = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(messages.get(0)).startsWith("Ready: watching inbox " + dir.resolve("inbox").toAbsolutePath()
                + " (mode watch), next pick-up 2026-03-0").contains("(schedule '0 0 2 * * ?')").contains("webhooks at http://");
        assertThat(messages).filteredOn(m -> m.startsWith("Ready")).hasSize(1);
        assertThat(messages.subList(1, 3)).containsExactly(
                "Batch 2 (queued.csv): queued, 0/1 done, 0 sent, spent Rp 0, waiting: the daily limit of 4 requests is used"
                        + " up; sending resumes tomorrow",
                "Batch 1 (daily.csv): tracking, 3/4 done, 4 sent, spent Rp 20.900");
        assertThat(messages.get(4)).isEqualTo("Batch 1 (daily.csv): tracking, 3/4 done, 4 sent, 0 orders/min, spent Rp 20.900");
    }

    @Test
    void the_ready_line_of_a_once_run_takes_the_inbox_now_and_shows_a_webhook_address_one_can_post_to() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        j.env.put("TOPUP_MODE", "once");
        j.env.put("TOPUP_WEBHOOK_HOST", "0.0.0.0");
        j.env.put("TOPUP_WEBHOOK_PORT", "8085");
        Settings settings = Settings.load(j.settings());
        ProgressLog log = progressLog(settings, null, null, Clock.systemUTC());
        assertThat(log.readyLine()).isEqualTo("Ready: taking the batches in " + dir.resolve("inbox").toAbsolutePath()
                + " now (mode once), webhooks at http://127.0.0.1:8085/webhook (listening on all addresses)");
        j.env.put("TOPUP_WEBHOOK_HOST", "10.1.2.3");
        assertThat(progressLog(Settings.load(j.settings()), null, null, Clock.systemUTC()).readyLine())
                .endsWith(", webhooks at http://10.1.2.3:8085/webhook");
    }

    /** Several accounts: each account's own address, where its signed webhooks settle its orders. */
    @Test
    void the_ready_line_with_several_accounts_shows_each_accounts_webhook_address() throws Exception {
        OperatorJournal j = new OperatorJournal(dir);
        j.env.put("TOPUP_WEBHOOK_HOST", "10.1.2.3");
        j.env.put("TOPUP_WEBHOOK_PORT", "8085");
        j.env.put("TOPUP_WEBHOOK_PATH", "/hooks/");
        j.env.put("TOPUP_PROVIDERS", "main,dfz");
        for (String name : List.of("MAIN", "DFZ")) {
            j.env.put("TOPUP_PROVIDER_" + name + "_BASE_URL", "http://127.0.0.1:1");
            j.env.put("TOPUP_PROVIDER_" + name + "_API_KEY", "key");
            j.env.put("TOPUP_PROVIDER_" + name + "_API_SECRET", "secret");
        }
        assertThat(progressLog(Settings.load(j.settings()), null, null, Clock.systemUTC()).readyLine())
                .endsWith(", webhooks at http://10.1.2.3:8085/hooks/main, /hooks/dfz");
    }

    /** As RunConfiguration makes it: the groups it reads, out of the whole settings. */
    private static ProgressLog progressLog(Settings settings, JdbcJournal journal, RateBudget budget, Clock clock) {
        return new ProgressLog(settings.pickUp(), settings.inboxShown(), settings.webhook(),
                org.topupbatch.settings.AccountList.names(settings), journal == null ? null : journal.status(),
                journal == null ? null : journal.reporting(), journal == null ? null : journal.outages(), budget, clock);
    }
}
