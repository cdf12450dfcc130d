package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fault windows of the crash campaign's fault matrix: a 429 storm and an outage, each for a while. */
class SandboxFaultWindowTest {

    private SandboxProvider sandbox;
    private SandboxTestClient client;

    @BeforeEach
    void start() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults(), 0);
        client = new SandboxTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
    }

    @Test
    void aStormAnswers429ToEverythingUntilItEndsAndIsNotCountedAsTheAccountsLimit() {
        sandbox.config().set("rate-limit-storm", "1m");

        SandboxTestClient.Answer answer = client.createOrder("STORM-1", "TSEL10", "081234567890", null);

        assertThat(answer.status()).isEqualTo(429);
        assertThat(answer.response().headers().firstValue("Retry-After")).hasValue("1");
        assertThat(client.balance().status()).isEqualTo(429);
        assertThat(sandbox.ledger()).isEmpty();
        assertThat(sandbox.stats().rateLimited()).isZero();
        assertThat(sandbox.injectedFaults()).isEqualTo(2);

        sandbox.config().set("rate-limit-storm", "0");
        assertThat(client.createOrder("STORM-1", "TSEL10", "081234567890", null).status()).isEqualTo(200);
    }

    @Test
    void anOutageClosesConnectionsWithoutDoingAnythingUntilItEnds() {
        sandbox.config().set("outage", "1m");

        assertThatThrownBy(() -> client.sendRaw("/v1/create-order",
                SandboxTestClient.order("DOWN-1", "TSEL10", "081234567890", null).toString()))
                .isInstanceOf(IOException.class);
        assertThat(sandbox.ledger()).isEmpty();
        assertThat(sandbox.config().describe().get("outage")).isNotEqualTo("0ms");

        sandbox.config().set("outage", "0");
        assertThat(client.createOrder("DOWN-1", "TSEL10", "081234567890", null).status()).isEqualTo(200);
        assertThat(sandbox.config().describe().get("outage")).isEqualTo("0ms");
    }
}
