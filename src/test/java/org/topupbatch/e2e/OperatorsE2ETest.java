package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.FreePorts;

/**
 * The operators' commands as the built jar runs them, against the sandbox over HTTP: plan leaves
 * the file and the journal untouched and says so in its exit code; status reads the H2 journal
 * while the service holds it; retry-failed writes a file the next run takes.
 */
class OperatorsE2ETest {

    static final String GOOD = "ref_id,product_sku,customer_no,note\nP-1,FF100,12345678,a\nP-2,FF100,12345679,b\n";

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    final JarRun run = product.run();
    SandboxProvider sandbox;

    private void provider(SandboxConfig config) {
        sandbox = product.startSandbox(config);
        run.provider(sandbox.baseUrl());
    }

    @Test
    void plan_orders_nothing_leaves_the_file_as_it_was_and_exits_0_2_or_1() throws Exception {
        provider(SandboxConfig.defaults().setSeed(3L));
        Path good = Files.writeString(home.resolve("good.csv"), GOOD);
        Files.setLastModifiedTime(good, FileTime.fromMillis(1_700_000_000_000L));
        assertThat(product.command("plan", good.toString())).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("Rows:     2 read, 2 acceptable, 0 rejected")
                .contains("Cost:     Rp ").contains("Balance:  Rp ").contains("it covers the batch")
                .contains("orders per minute");
        assertThat(Files.readString(good)).isEqualTo(GOOD);
        assertThat(Files.getLastModifiedTime(good).toMillis()).isEqualTo(1_700_000_000_000L);
        assertThat(sandbox.ledger()).as("nothing ordered").isEmpty();

        Path bad = Files.writeString(home.resolve("bad.csv"), GOOD + "P-1,FF100,12345670,c\nP-4,NOPE,1,d\n");
        assertThat(product.command("plan", bad.toString())).as(product.commandOutput()).isEqualTo(2);
        assertThat(product.commandOutput()).contains("rejected  line 4  ref_id P-1: ref_id P-1 repeats line 2 of this file")
                .contains("rejected  line 5  ref_id P-4: product_sku NOPE is not in the price list");
        assertThat(product.command("status")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).as("no batch recorded").contains("No batch in the journal yet.");

        assertThat(product.command("plan", home.resolve("missing.csv").toString())).isEqualTo(1);
        assertThat(product.commandOutput()).contains("topup-batch: cannot read " + home.resolve("missing.csv") + ": no such file");
        run.env.put("TOPUP_BASE_URL", "http://127.0.0.1:" + FreePorts.pick());
        assertThat(product.command("plan", good.toString())).isEqualTo(1);
        assertThat(product.commandOutput()).contains("topup-batch: the provider could not be asked");
        StartupRefusalE2ETest.assertNoStackTrace(product.commandOutput());
    }

    @Test
    void status_reads_the_h2_journal_while_the_service_runs() throws Exception {
        // orders stay pending for a while: the batch is mid-flight when status looks
        provider(SandboxConfig.defaults().setSeed(5L).setFailRate(0)
                .setSettleDelay(new DurationRange(Duration.ofSeconds(60), Duration.ofSeconds(60))));
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
        run.start();
        StartupRefusalE2ETest.awaitOutput(run, "Rate budget:");
        run.drop("live.csv", GOOD);
        StartupRefusalE2ETest.awaitOutput(run, "Batch live.csv: 2 rows");
        assertThat(product.command("status")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).containsPattern("live.csv\\s+2\\s");
        assertThat(product.command("status", "live.csv")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("live.csv");
        assertThat(run.output()).doesNotContain("Exception");
    }

    @Test
    void retry_failed_writes_a_file_that_the_next_run_takes() throws Exception {
        provider(SandboxConfig.defaults().setSeed(9L).setFailRate(1.0));
        run.drop("nightly.csv", GOOD);
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        assertThat(product.command("retry-failed", "nightly.csv")).as(product.commandOutput()).isZero();
        assertThat(product.commandOutput()).contains("2 failed rows").contains("P-1 -> P-1-R1");
        Path retry = Files.list(run.inbox).filter(f -> f.getFileName().toString().startsWith("nightly.retry-"))
                .findFirst().orElseThrow();
        assertThat(Files.readString(retry, StandardCharsets.UTF_8)).contains("ref_id,product_sku,customer_no,customer_no_zone,max_price,notify_to,note")
                .contains("P-2-R1,FF100,12345679,,,,b");
        sandbox.close();
        provider(SandboxConfig.defaults().setSeed(9L).setFailRate(0));
        assertThat(run.runOnce(Duration.ofMinutes(2))).as(run.output()).isZero();
        assertThat(retry).as("taken by the run").doesNotExist();
        assertThat(sandbox.ledger()).extracting(e -> e.refId()).contains("P-1-R1", "P-2-R1");
    }
}
