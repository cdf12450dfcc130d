package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * Fair batches on the built jar: a small file dropped behind a large one is sent and reported while
 * the large one is still going, not after it. The seconds it took are printed, not asserted.
 */
class FairnessE2ETest {

    @RegisterExtension
    final ProductFixture product = ProductFixture.withoutSandbox();
    final Path home = product.home();
    SandboxProvider sandbox;
    final JarRun run = product.run();

    static String rows(String prefix, int rows, int customers) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no\n");
        for (int i = 1; i <= rows; i++) {
            csv.append(prefix).append(i).append(",FF100,").append(customers + i).append('\n');
        }
        return csv.toString();
    }

    @Test
    void a_small_batch_behind_a_large_one_is_reported_while_the_large_one_runs() throws Exception {
        sandbox = product.startSandbox(SandboxConfig.defaults().setSeed(31L)
                .setLatency(DurationRange.of(Duration.ofMillis(20), Duration.ofMillis(80))));
        run.provider(sandbox.baseUrl());
        run.env.put("TOPUP_WEBHOOK_PORT", "0");
        run.drop("large.csv", rows("L-", 400, 50_000_000));
        run.start();
        Poll.until("the large batch under way", Duration.ofSeconds(60), () -> sandbox.ledger().size() >= 20);
        long dropped = System.nanoTime();
        run.drop("small.csv", rows("S-", 10, 60_000_000));
        // the result is written first, the summary right after it: both, before either is read
        Path report = run.reports.resolve("small.result.csv");
        Path summary = run.reports.resolve("small.summary.json");
        Poll.until("the small batch's report", Duration.ofSeconds(90), () -> Files.exists(report) && Files.exists(summary));
        double seconds = (System.nanoTime() - dropped) / 1e9;
        long largeOrdered = sandbox.ledger().stream().filter(e -> e.refId().startsWith("L-")).count();
        System.out.printf("a 10-row batch dropped behind a 400-row one: reported %.1f s later, with %d of the large"
                + " batch's 400 orders placed%n", seconds, largeOrdered);
        assertThat(largeOrdered).as("the large batch is still going").isLessThan(400);
        Report small = Report.read(run.reports, "small", ',');
        assertThat(small.rows()).hasSize(10).allSatisfy(r -> assertThat(r.get("status")).isEqualTo("success"));
        List<String> smallOrders = sandbox.ledger().stream().map(e -> e.refId()).filter(ref -> ref.startsWith("S-")).toList();
        assertThat(smallOrders).as("each small row ordered once").hasSize(10).doesNotHaveDuplicates();
    }
}
