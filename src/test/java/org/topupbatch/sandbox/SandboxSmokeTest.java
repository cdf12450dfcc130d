package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SandboxSmokeTest {

    @Test
    void startsAndAnswersEveryOperation() {
        try (SandboxProvider sandbox = SandboxProvider.start(SandboxConfig.defaults().setSettleDelay(DurationRange.parse("50ms-100ms")), 0)) {
            SandboxTestClient client = new SandboxTestClient(sandbox.baseUrl());
            System.out.println(client.balance().body());
            System.out.println(client.priceList().body().substring(0, 400));
            System.out.println(client.createOrder("A-1", "ML86", "12345678", "1234").body());
            System.out.println(client.createOrder("A-2", "GI60", "812345678", "asia").body());
            System.out.println(client.history(null).body());
            System.out.println(client.profile().body());
            System.out.println(client.checkOrder("A-2").body());
            assertThat(client.balance().status()).isEqualTo(200);
        }
    }
}
