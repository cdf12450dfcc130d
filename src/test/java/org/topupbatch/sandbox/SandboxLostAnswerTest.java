package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A lost answer: the order exists in the ledger although the client got nothing usable. */
class SandboxLostAnswerTest {

    private SandboxProvider sandbox;
    private SandboxTestClient client;

    @BeforeEach
    void start() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setSeed(9L).setLostAnswerRate(1.0), 0);
        client = new SandboxTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
    }

    @Test
    void dropClosesTheConnectionWithoutAnAnswer() {
        sandbox.config().setLostAnswerMode(LostAnswerMode.DROP);
        ObjectNode order = SandboxTestClient.order("LOST-1", "TSEL10", "081234567890", null);
        assertThatThrownBy(() -> client.sendRaw("/v1/create-order", order.toString())).isInstanceOf(IOException.class);
        assertThat(sandbox.ledger()).extracting(LedgerEntry::refId).containsExactly("LOST-1");
        assertThat(sandbox.ledger().get(0).status()).isEqualTo("success");
        // the re-send learns that the order exists
        sandbox.config().setLostAnswerRate(0.0);
        assertThat(client.createOrder("LOST-1", "TSEL10", "081234567890", null).code()).isEqualTo("DUPLICATE_REF_ID");
        assertThat(client.checkOrder("LOST-1").data().get("status").textValue()).isEqualTo("success");
    }

    @Test
    void gatewayTimeoutAnswers504WithHtml() throws IOException {
        sandbox.config().setLostAnswerMode(LostAnswerMode.GATEWAY_TIMEOUT);
        long before = sandbox.balance();
        HttpResponse<String> response = client.sendRaw("/v1/create-order",
                SandboxTestClient.order("LOST-2", "TSEL10", "081234567890", null).toString());
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
        assertThat(response.body()).contains("<html>").contains("504");
        assertThat(sandbox.ledger()).extracting(LedgerEntry::refId).containsExactly("LOST-2");
        assertThat(sandbox.balance()).isLessThan(before);
    }

    @Test
    void mixedGivesBothAndOnlyCreateOrderLosesAnswers() {
        sandbox.config().setLostAnswerMode(LostAnswerMode.MIXED);
        int dropped = 0;
        int gateway = 0;
        for (int i = 0; i < 20; i++) {
            try {
                if (client.sendRaw("/v1/create-order",
                        SandboxTestClient.order("MIX-" + i, "TSEL10", "081234567890", null).toString()).statusCode() == 504) {
                    gateway++;
                }
            } catch (IOException e) {
                dropped++;
            }
        }
        assertThat(dropped).isPositive();
        assertThat(gateway).isPositive();
        assertThat(dropped + gateway).isEqualTo(20);
        assertThat(sandbox.ledger()).hasSize(20);
        assertThat(client.balance().status()).isEqualTo(200);
        // a refused create-order created nothing, so it is answered
        assertThat(client.createOrder("MIX-0", "TSEL10", "081234567890", null).code()).isEqualTo("DUPLICATE_REF_ID");
    }
}
