package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.Poll;

/**
 * The guards on the reseller's money at the moment of sending, on the built jar against the sandbox
 * over HTTP: a price rise in the middle of a batch (sandbox knob price-change), and a product that
 * goes out of stock in the middle of a batch (knob unavailable), once coming back, once not.
 */
class MoneyGuardsE2ETest {

    /** Gold prices of the sandbox's catalog (basic 19,500 and 14,000, less 5%). */
    static final long ML86 = 18_525;
    static final long FF100 = 13_300;
    static final int IN_FLIGHT = 4;

    // four orders on the wire at most: what "at most the orders in flight" is checked against
    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults().setSeed(19L)
                    .setLatency(DurationRange.of(Duration.ofMillis(20), Duration.ofMillis(60))))
            .env("TOPUP_WEBHOOK_PORT", "0").env("TOPUP_SUBMIT_CONCURRENCY", Integer.toString(IN_FLIGHT));
    final SandboxProvider sandbox = product.sandbox();
    final JarRun run = product.run();

    @AfterEach
    void stop() throws Exception {
        // what the guards logged, beside the figures in this class's test output
        run.output().lines().filter(l -> l.contains("Price") || l.contains("Product") || l.contains("rejected:"))
                .limit(40).forEach(System.out::println);
    }

    /** {@code rows} rows, ML86 (max_price 15% above today's price) and FF100 (no max_price) by turns. */
    static String batch(String prefix, int rows) {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone,max_price\n");
        for (int i = 1; i <= rows; i++) {
            String customer = "2" + String.format("%07d", i);
            csv.append(prefix).append(i).append(i % 2 == 1 ? ",ML86," + customer + ",2345," + ML86 * 115 / 100
                    : ",FF100," + customer + ",,").append('\n');
        }
        return csv.toString();
    }

    private Process startOnce() throws Exception {
        run.env.put("TOPUP_MODE", "once");
        return run.start();
    }

    private int awaitEnd(Process p) throws Exception {
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the run did not end; its output:\n" + run.output());
        }
        return p.exitValue();
    }

    @Test
    void a_price_rise_mid_batch_charges_at_most_the_orders_in_flight_and_rejects_the_rest_with_both_prices()
            throws Exception {
        run.drop("rise.csv", batch("PR-", 40));
        Process p = startOnce();
        Poll.until("ten orders placed", Duration.ofSeconds(60), () -> sandbox.ledger().size() >= 10);
        sandbox.config().set("price-change", "+30%");
        int ordersWhenRaised = sandbox.ledger().size();
        assertThat(awaitEnd(p)).as(run.output()).isZero();

        Report report = Report.read(run.reports, "rise", ',');
        // the ML86 rows, by turns with FF100, carry a max_price
        Map<String, Long> maxPrice = report.rows().stream().filter(r -> r.get("product_sku").equals("ML86"))
                .collect(Collectors.toMap(r -> r.get("ref_id"), r -> ML86 * 115 / 100));
        List<LedgerEntry> ledger = sandbox.ledger();
        long aboveMax = ledger.stream().filter(e -> maxPrice.containsKey(e.refId()) && e.price() > maxPrice.get(e.refId())).count();
        long atNewPrice = ledger.stream().filter(e -> e.price() > (e.productSku().equals("ML86") ? ML86 : FF100)).count();
        System.out.printf("price rise +30%% after %d orders: %d orders charged above max_price, %d at the new price,"
                + " %d rows rejected%n", ordersWhenRaised, aboveMax, atNewPrice,
                report.rows().stream().filter(r -> r.get("status").equals("rejected")).count());
        // the orders on the wire when the first answer at the new price came back: at most the submit workers
        assertThat(atNewPrice).as("orders at the risen price").isLessThanOrEqualTo(IN_FLIGHT);
        assertThat(aboveMax).as("orders charged above their max_price").isLessThanOrEqualTo(IN_FLIGHT);
        List<Map<String, String>> rejected = report.rows().stream().filter(r -> r.get("status").equals("rejected")).toList();
        assertThat(rejected).as("every row not sent before the rise").hasSizeGreaterThanOrEqualTo(40 - ordersWhenRaised - IN_FLIGHT);
        for (Map<String, String> row : rejected) {
            if (row.get("product_sku").equals("ML86")) {
                assertThat(row.get("message")).as(row.toString()).matches("price 24082 now, above max_price 21303 \\(18525 when"
                        + " accepted\\); not sent");
            } else {
                assertThat(row.get("message")).as(row.toString()).matches("price 17290 now, more than 10% above 13300 when"
                        + " accepted \\(topup.price-tolerance\\); not sent");
            }
        }
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(run.output()).contains("Price of ").contains("reading the price list again before sending more");
    }

    @Test
    void a_product_out_of_stock_is_held_after_a_few_refusals_then_sent_when_back_or_rejected_after_the_wait()
            throws Exception {
        run.env.put("TOPUP_OUTAGE_RECHECK", "1s");
        // FF100 is still held when a status JVM has started after ML86's return (4-5 s at load 5, up to 24 s at 26);
        // ML86 is back some 4 s into the outage, and the 5 s watch releases it long before the wait is out
        run.env.put("TOPUP_OUTAGE_WAIT", "30s");
        run.drop("stock.csv", batch("OS-", 60));
        Process p = startOnce();
        Poll.until("six orders placed", Duration.ofSeconds(60), () -> sandbox.ledger().size() >= 6);
        sandbox.config().set("unavailable", "ML86,FF100");
        long createOrdersAtOutage = sandbox.stats().requestsPerOperation().get("create-order");
        int ordersAtOutage = sandbox.ledger().size();
        StartupRefusalE2ETest.awaitOutput(run, "Product FF100 is unavailable");
        StartupRefusalE2ETest.awaitOutput(run, "Product ML86 is unavailable");
        long refused = sandbox.stats().requestsPerOperation().get("create-order") - createOrdersAtOutage
                - (sandbox.ledger().size() - ordersAtOutage);
        // ML86 comes back; FF100 does not
        Thread.sleep(2_000);
        long spentWhileHeld = sandbox.stats().requestsPerOperation().get("create-order") - createOrdersAtOutage
                - (sandbox.ledger().size() - ordersAtOutage);
        sandbox.config().set("unavailable", "FF100");
        // status, from another process, shows the held rows and when they will be rejected
        product.command("status");
        assertThat(product.commandOutput()).containsPattern("Held: \\d+ rows of FF100 held: unavailable since \\d\\d:\\d\\d UTC"
                + " \\(PRODUCT_UNAVAILABLE: product FF100 is currently unavailable\\); rejected at \\d\\d:\\d\\d UTC unless it is back");
        assertThat(awaitEnd(p)).as(run.output()).isZero();

        Report report = Report.read(run.reports, "stock", ',');
        System.out.printf("products down after %d orders: %d create-orders refused before the holds, %d two seconds"
                + " later; rows by product and status: %s%n", ordersAtOutage, refused, spentWhileHeld,
                report.rows().stream().collect(Collectors.groupingBy(r -> r.get("product_sku") + " " + r.get("status"),
                        java.util.TreeMap::new, Collectors.counting())));
        // per product: the orders on the wire when its first refusal came back, and that refusal
        assertThat(spentWhileHeld).as("create-orders spent on the two products once down").isLessThanOrEqualTo(2 * (IN_FLIGHT + 1));
        assertThat(report.rows()).hasSize(60);
        for (Map<String, String> row : report.rows()) {
            boolean ml86 = row.get("product_sku").equals("ML86");
            switch (row.get("status")) {
                case "success" -> { }
                case "failed" -> assertThat(row.get("message")).as(row.toString()).contains("PRODUCT_UNAVAILABLE");
                case "rejected" -> {
                    assertThat(ml86).as("only the product that stayed away is rejected: " + row).isFalse();
                    assertThat(row.get("message")).as(row.toString()).matches("unavailable since \\d\\d:\\d\\d UTC"
                            + " \\(PRODUCT_UNAVAILABLE: product FF100 is currently unavailable\\); not sent");
                }
                default -> throw new AssertionError("unexpected row " + row);
            }
        }
        assertThat(report.rows().stream().filter(r -> r.get("product_sku").equals("ML86") && r.get("status").equals("success")))
                .as("ML86's held rows went out when it was back; the run's output:\n" + run.output()).hasSizeGreaterThanOrEqualTo(30 - 5);
        LedgerCheck.assertConsistent(sandbox, List.of(report));
        assertThat(run.output()).contains("Product ML86 is listed available again")
                .contains("Product FF100 has been unavailable since");
    }
}
