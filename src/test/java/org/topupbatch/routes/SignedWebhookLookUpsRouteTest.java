package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** With the webhook secret, signed webhooks settle a batch of pending orders with no look-up. */
class SignedWebhookLookUpsRouteTest extends WebhookLookUpsSupport.Signed {

    @Test
    void signed_webhooks_settle_pending_orders_without_look_ups() throws Exception {
        assertThat(lookUpsPerPendingOrder()).isZero();
    }
}
