package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxDialect;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.AwayFromMidnight;
import org.topupbatch.testing.Poll;

/**
 * Issue 37, item 4: {@code reconcile} explains every rupiah on a provider without check-order, from
 * the balance the product itself read before the day's first batch (journaled with its moment) and
 * the orders after it. A day with another client's order before the batch, and a Rp 500.000 deposit
 * made while the batch is sent: {@code unexplained} is the deposit exactly, on the default dialect
 * with check-order turned off (the five operations of docs/provider.md) and on Digiflazz's
 * (no history, no check-order). Today is reconciled, so the summary and the console say it is partial.
 */
class ReconcileEveryRupiahE2ETest {

    static final long DEPOSIT = 500_000;
    static final int ROWS = 18;

    enum Provider { FIVE_OPERATIONS, DIGIFLAZZ }

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    SandboxProvider sandbox;
    final JarRun run = product.run();
    /** The business zone: one where it is about noon, so that "today" cannot turn during the test (Jakarta's does at 17:00 UTC). */
    final ZoneId zone = AwayFromMidnight.zone();

    private void startSandbox(Provider provider) {
        SandboxConfig config = SandboxConfig.defaults().setSeed(37L)
                .setLatency(DurationRange.of(Duration.ofMillis(60), Duration.ofMillis(120)))
                .setSettleDelay(DurationRange.of(Duration.ofMillis(300), Duration.ofMillis(800)));
        if (provider == Provider.DIGIFLAZZ) {
            // reconcile takes a Digiflazz account as one of topup.providers (status checks; docs/reconcile.md#with-several-accounts): here the only one
            sandbox = product.startSandbox(config.setDialect(SandboxDialect.DIGIFLAZZ));
            run.env.put("TOPUP_PROVIDERS", "dfz");
            run.env.put("TOPUP_PROVIDER_DFZ_DIALECT", "digiflazz");
            run.env.put("TOPUP_PROVIDER_DFZ_BASE_URL", sandbox.baseUrl());
            run.env.put("TOPUP_PROVIDER_DFZ_API_KEY", sandbox.config().username());
            run.env.put("TOPUP_PROVIDER_DFZ_API_SECRET", sandbox.config().apiKey());
            run.env.put("TOPUP_PROVIDER_DFZ_RATE_LIMIT", "300");
        } else {
            sandbox = product.startSandbox(config.setCheckOrder(false));
            run.provider(sandbox.baseUrl());
        }
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
        run.env.put("TOPUP_MODE", "once");
        run.env.put("TOPUP_SUBMIT_CONCURRENCY", "1");
        run.env.put("TOPUP_PENDING_TIMEOUT", "60s");
        run.env.put("TOPUP_BUSINESS_ZONE", zone.getId());
    }

    static String batch() {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        for (int i = 1; i <= ROWS; i++) {
            csv.append("ER-").append(i).append(",TSEL10,08121235").append(String.format("%04d", i)).append(",\n");
        }
        return csv.toString();
    }

    @ParameterizedTest
    @EnumSource(Provider.class)
    void a_deposit_mid_day_is_explained_to_the_rupiah_without_check_order(Provider provider) throws Exception {
        startSandbox(provider);
        LocalDate day = LocalDate.now(zone);
        long balanceAtStart = sandbox.balance();
        // another client's order on the account before the product read anything
        LedgerEntry foreign = sandbox.foreignOrder("OTHER-37", "TSEL10", "081299990001", null);
        Poll.until("the other client's order settled", Duration.ofSeconds(30),
                () -> sandbox.ledger().stream().filter(e -> e.refId().equals("OTHER-37")).findFirst().orElseThrow().status(),
                status -> !"pending".equalsIgnoreCase(String.valueOf(status)));

        run.drop("orders.csv", batch());
        Process once = run.start();
        Poll.until("a third of the batch ordered", Duration.ofSeconds(90), () -> sandbox.ledger().size() >= 1 + ROWS / 3,
                ok -> ok, run::output);
        sandbox.deposit(DEPOSIT);
        assertThat(once.waitFor(3, TimeUnit.MINUTES)).as("the once run ends").isTrue();
        assertThat(once.exitValue()).as(run.output()).isZero();
        assertThat(sandbox.ledger()).hasSize(1 + ROWS);

        int exit = product.command("reconcile", day.toString());
        assertThat(exit).as(product.commandOutput()).isIn(0, 2);
        assertThat(product.commandOutput()).contains("unexplained Rp 500.000").contains("PARTIAL: " + day + " is not over yet")
                .doesNotContainPattern("[A-Za-z]+Exception\\b");
        JsonNode file = new ObjectMapper().readTree(run.reports.resolve("reconcile-" + day + ".summary.json").toFile());
        assertThat(file.get("partial").asBoolean()).as("today is not over").isTrue();
        JsonNode summary = provider == Provider.DIGIFLAZZ ? file.get("accounts").get("dfz") : file;
        assertThat(summary.get("balance_now").asLong()).isEqualTo(sandbox.balance());
        assertThat(summary.get("unexplained").asLong()).as("the deposit, exactly").isEqualTo(DEPOSIT);
        assertThat(summary.get("balance_first_source").asText()).isEqualTo("balance_reading");
        if (provider == Provider.FIVE_OPERATIONS) {
            // the other client's order, listed by the history before the first reading, is counted in
            assertThat(summary.get("balance_first").asLong()).isEqualTo(balanceAtStart);
        } else {
            // no history: the other client's order before the reading cannot be seen, it is in the reading
            assertThat(summary.get("balance_first").asLong()).isEqualTo(balanceAtStart - foreign.price());
        }
        assertThat(sandbox.ledger()).as("reconciling orders nothing").hasSize(1 + ROWS);
        System.out.printf("EVERY RUPIAH (%s): balance_first %d, balance_now %d, unexplained %d%n", provider,
                summary.get("balance_first").asLong(), summary.get("balance_now").asLong(),
                summary.get("unexplained").asLong());
    }
}
