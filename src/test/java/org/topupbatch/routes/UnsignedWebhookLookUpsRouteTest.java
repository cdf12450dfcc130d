package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Without a webhook secret, webhooks are hints: the provider's answer settles every order. */
class UnsignedWebhookLookUpsRouteTest extends WebhookLookUpsSupport.Unsigned {

    @Test
    void unsigned_webhooks_are_hints_and_each_order_is_looked_up() throws Exception {
        assertThat(lookUpsPerPendingOrder()).isPositive();
    }
}
