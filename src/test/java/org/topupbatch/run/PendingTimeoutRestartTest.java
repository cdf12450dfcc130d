package org.topupbatch.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;
import org.topupbatch.submit.OrderSubmitter;
import org.topupbatch.submit.PriceGuard;
import org.topupbatch.submit.ProductAvailability;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.provider.HttpProviderClient;
import org.topupbatch.provider.ProviderEndpoint;
import org.topupbatch.provider.ProviderGateway;
import org.topupbatch.provider.RateBudget;
import org.topupbatch.provider.Signer;
import org.topupbatch.report.BatchReporter;
import org.topupbatch.report.ReportWriter;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.MutableClock;

/**
 * The pending timeout across restarts: its clock starts at the batch's last submission as the
 * journal records it, and a batch reported at its timeout stays timed out (once mode: exit 3) in
 * the next process. Each "process" is a new reporter on the journal closed and opened again; the
 * provider is the sandbox over HTTP (for the balance).
 */
class PendingTimeoutRestartTest {

    static final Instant SENT = Instant.parse("2026-03-01T10:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(30);

    @TempDir
    Path dir;

    final MutableClock clock = new MutableClock(SENT);
    SandboxProvider sandbox;
    CamelContext camel;
    HttpProviderClient client;
    final RateBudget budget = new RateBudget(clock, new org.topupbatch.provider.InMemoryCallLog(), java.time.Duration.ofSeconds(40), RateBudget.Waiter.REAL, 600, 100_000);
    JdbcJournal journal;
    long batchId;

    @BeforeEach
    void pendingOrder() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setBalance(750_000), 0);
        camel = new DefaultCamelContext();
        camel.start();
        client = HttpProviderClient.standalone(ProviderEndpoint.of(sandbox.baseUrl(),
                new Signer(sandbox.config().apiKey(), sandbox.config().apiSecret())), budget);
        journal = JdbcJournal.open(dir.resolve("data"), null, null, null, clock);
        try (BatchWriter writer = journal.intake().openBatch("slow.csv", ',', org.topupbatch.journal.BatchEncoding.UTF_8, List.of(), "archive/slow.csv", 800_000L, "sandbox")) {
            writer.add(new NewRow(0, 2, "PT-1", "ML86", "123456", "1234", null, List.of(), RowState.ACCEPTED, 20_000L, null));
            batchId = writer.commit();
        }
        long rowId = journal.tracking().findOrder("PT-1").orElseThrow().id();
        journal.submission().recordSubmitStart(batchId, 790_000L, SENT);
        journal.submission().markSending(rowId, SENT);
        journal.submission().recordOutcome(rowId, RowState.PENDING, null, 20_000L, "Processing");
    }

    @AfterEach
    void stop() {
        journal.close();
        client.close();
        camel.stop();
        sandbox.close();
    }

    /** A new process: the journal opened again, a reporter and run monitor with nothing in memory. */
    Process restart() {
        journal.close();
        journal = JdbcJournal.open(dir.resolve("data"), null, null, null, clock);
        return new Process();
    }

    final class Process {
        final ProviderGateway gateway = new ProviderGateway(client, budget, d -> { });
        final CachedPriceCatalog prices = new CachedPriceCatalog(gateway::priceList);
        final BatchReporter reporter = new BatchReporter(journal.reporting(), org.topupbatch.provider.Accounts.lone(gateway), new ReportWriter(dir.resolve("reports")), clock, TIMEOUT);
        final List<Integer> exits = new CopyOnWriteArrayList<>();
        final RunMonitor monitor;

        Process() {
            try {
                Files.createDirectories(dir.resolve("inbox"));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            monitor = new RunMonitor(InboxSnapshot.takenNow(dir.resolve("inbox")), journal.submission(),
                    new OrderSubmitter(journal.submission(), org.topupbatch.provider.Accounts.lone(gateway), clock, new PriceGuard(prices, java.math.BigDecimal.TEN),
                            new ProductAvailability(journal.outages(), prices, Duration.ofMinutes(30), Duration.ofMinutes(1), clock)),
                    reporter, exits::add);
        }
    }

    Path summary() {
        return dir.resolve("reports").resolve("slow.summary.json");
    }

    @Test
    void a_restart_neither_resets_the_pending_timeout_nor_forgets_it() throws Exception {
        Process first = new Process();
        clock.set(SENT.plus(Duration.ofMinutes(20)));
        first.reporter.reportDue();
        first.monitor.check();
        assertThat(Files.exists(summary())).isFalse();
        assertThat(first.exits).isEmpty();

        clock.set(SENT.plus(Duration.ofMinutes(25)));
        Process second = restart();
        second.reporter.reportDue();
        assertThat(Files.exists(summary())).isFalse();

        clock.set(SENT.plus(TIMEOUT).plusSeconds(1));
        second.reporter.reportDue();
        assertThat(Files.exists(summary())).as("30 min after the order went out, not after the restart").isTrue();
        JsonNode written = new ObjectMapper().readTree(summary().toFile());
        assertThat(written.path("pending").asInt()).isEqualTo(1);
        assertThat(written.path("balance_before").asLong()).isEqualTo(790_000L);
        assertThat(written.path("balance_after").asLong()).isEqualTo(sandbox.balance());

        Process third = restart();
        third.monitor.check();
        assertThat(third.exits).as("once mode after a restart still ends with 3").containsExactly(3);
    }

    @Test
    void balance_after_is_the_latest_known_when_the_provider_cannot_be_reached() throws Exception {
        clock.set(SENT.plus(TIMEOUT).plusSeconds(1));
        journal.submission().recordOutcome(journal.tracking().findOrder("PT-1").orElseThrow().id(), RowState.SUCCESS, "SN-1", 20_000L, "ok");
        sandbox.close(); // connection refused from now on
        Process process = restart();
        process.reporter.reportDue();

        JsonNode written = new ObjectMapper().readTree(summary().toFile());
        assertThat(written.path("balance_before").asLong()).isEqualTo(790_000L);
        assertThat(written.path("balance_after").isNumber()).isTrue();
        assertThat(written.path("balance_after").asLong()).isEqualTo(790_000L);
        process.monitor.check();
        assertThat(process.exits).containsExactly(0);
    }
}
