package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.testing.FreePorts;
import org.topupbatch.testing.Poll;

/**
 * A batch of 40 orders that all settle asynchronously (GENSHIN IMPACT, STEAM, XL), with the
 * sandbox posting its webhooks to the running receiver; every route of a run is on. Counts the
 * provider look-ups (check-order and order-history requests at the sandbox) per pending order and
 * prints the figure. Subclasses: with and without a webhook secret.
 */
abstract class WebhookLookUpsSupport extends RouteTestSupport {

    static final String WEBHOOK_SECRET = "whsec-lookups-test";
    static final int ORDERS = 40;

    /** Settles after the first look-up polling alone would make (5 s). */
    static final DurationRange SETTLE = DurationRange.of(Duration.ofSeconds(6), Duration.ofSeconds(8));

    /** The webhook secret the product is given (null: none). */
    abstract String productWebhookSecret();

    @Override
    List<String> routes() {
        return List.of("intake", "submit", "submit-order", "mark-sending", "track", "track-webhook");
    }

    @Override
    SandboxConfig sandboxConfig() {
        return SandboxConfig.defaults().setSettleDelay(SETTLE).setWebhookSecret(WEBHOOK_SECRET);
    }

    @Override
    void environment(Map<String, String> env) {
        int port = FreePorts.pick();
        env.put("TOPUP_WEBHOOK_PORT", Integer.toString(port));
        if (productWebhookSecret() != null) {
            env.put("TOPUP_WEBHOOK_SECRET", productWebhookSecret());
        }
        sandbox.config().setWebhookUrl("http://127.0.0.1:" + port + "/webhook");
    }

    /** Look-ups per pending order, once every order is final. */
    double lookUpsPerPendingOrder() throws Exception {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        for (int i = 1; i <= ORDERS; i++) {
            String ref = "LU-%04d".formatted(i);
            switch (i % 3) {
                case 0 -> csv.append(ref).append(",GI60,8").append(10_000_000 + i).append(",asia\n");
                case 1 -> csv.append(ref).append(",STEAM45K,buyer").append(i).append("@example.com,\n");
                default -> csv.append(ref).append(",XL10,0817").append(10_000_000 + i).append(",\n");
            }
        }
        Instant started = Instant.now();
        drop("lookups.csv", csv.toString());
        List<RowRecord> rows = Poll.until("every order is final", Duration.ofSeconds(60), () -> rows("lookups.csv"),
                r -> r.size() == ORDERS && r.stream().allMatch(row -> row.state().isFinal()));
        long pending = sandbox.ledger().stream().filter(e -> e.settledAt() != null).count();
        var perOperation = sandbox.stats().requestsPerOperation();
        long checkOrder = perOperation.getOrDefault("check-order", 0L);
        long history = perOperation.getOrDefault("order-history", 0L);
        double perOrder = (checkOrder + history) / (double) pending;
        System.out.printf("LOOK-UPS %s: %d rows, %d pending orders, %d check-order + %d order-history = %.2f per pending"
                        + " order; all final after %d s%n", getClass().getSimpleName(), rows.size(), pending,
                checkOrder, history, perOrder, Duration.between(started, Instant.now()).toSeconds());
        assertThat(pending).as("async products: every order was pending first").isEqualTo(ORDERS);
        return perOrder;
    }

    /** Signed webhooks: every order is settled by its webhook, no look-up at all. */
    static class Signed extends WebhookLookUpsSupport {
        @Override
        String productWebhookSecret() {
            return WEBHOOK_SECRET;
        }
    }

    /** The receiver on but no secret: each webhook is a hint that brings a look-up. */
    static class Unsigned extends WebhookLookUpsSupport {
        @Override
        String productWebhookSecret() {
            return null;
        }
    }
}
