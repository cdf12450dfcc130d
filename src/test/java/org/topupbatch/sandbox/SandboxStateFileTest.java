package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.testing.MutableClock;
import org.topupbatch.testing.Poll;

/** The account kept in a state file: what a restarted embedded sandbox still knows. */
class SandboxStateFileTest {

    @TempDir
    Path dir;

    private SandboxConfig config(Path stateFile, String settleDelay) {
        return SandboxConfig.defaults().setSeed(3L).setSettleDelay(DurationRange.parse(settleDelay)).setStateFile(stateFile);
    }

    @Test
    void aPendingOrderOutlivesTheSandboxAndSettlesAfterTheRestartWithItsWebhook() throws Exception {
        Path state = dir.resolve("sandbox/state.json");
        long balanceAfterOrders;
        // K-1 must still be pending when the first sandbox closes, however slow the machine: it settles a
        // minute after creation, on a clock an hour behind, so that the restarted sandbox finds it due at once
        try (SandboxProvider first = SandboxProvider.start(config(state, "1m"), 0)) {
            first.setClock(new MutableClock(Instant.now().minus(Duration.ofHours(1))));
            SandboxTestClient client = new SandboxTestClient(first.baseUrl());
            JsonNode pending = client.createOrder("K-1", "GI60", "812345678", "asia").data();
            assertThat(pending.get("status").textValue()).isEqualTo("pending");
            assertThat(client.createOrder("K-2", "TSEL10", "081234567890", null).data().get("status").textValue())
                    .isEqualTo("success");
            balanceAfterOrders = first.balance();
            assertThat(first.ledger().get(0).status()).as("K-1 when the first sandbox closes").isEqualTo("pending");
            assertThat(state).exists();
        } // closed while K-1 is pending, as by a SIGTERM or a crash: its settlement never ran here

        try (WebhookReceiver receiver = new WebhookReceiver(0);
             SandboxProvider second = SandboxProvider.start(config(state, "400ms").setWebhookUrl(receiver.url()), 0)) {
            SandboxTestClient client = new SandboxTestClient(second.baseUrl());
            assertThat(second.balance()).isEqualTo(balanceAfterOrders);
            assertThat(client.checkOrder("K-2").data().get("status").textValue()).isEqualTo("success");
            Poll.until("K-1 settles to success", Duration.ofSeconds(10), () -> client.checkOrder("K-1").data().get("status").textValue(),
                    "success"::equals);
            assertThat(client.checkOrder("K-1").data().get("serial_number").isTextual()).isTrue();
            List<WebhookReceiver.Delivery> got = receiver.await(d -> !d.isEmpty(), Duration.ofSeconds(10));
            assertThat(got).anySatisfy(d -> assertThat(new String(d.body(), StandardCharsets.UTF_8)).contains("\"ref_id\":\"K-1\""));
            // the ref_ids are remembered: a re-send learns that its order exists
            assertThat(client.createOrder("K-1", "GI60", "812345678", "asia").code()).isEqualTo("DUPLICATE_REF_ID");
            assertThat(second.ledger()).extracting(LedgerEntry::refId).containsExactly("K-1", "K-2");
        }

        // the settlement was written too: a third start finds K-1 settled, the balance unchanged
        try (SandboxProvider third = SandboxProvider.start(config(state, "400ms"), 0)) {
            assertThat(third.ledger().get(0).status()).isEqualTo("success");
            assertThat(third.balance()).isEqualTo(balanceAfterOrders);
        }
    }

    @Test
    void aReadOnlyStateIsLoadedButNeverWritten() throws Exception {
        Path state = dir.resolve("state.json");
        try (SandboxProvider owner = SandboxProvider.start(config(state, "1m"), 0)) {
            new SandboxTestClient(owner.baseUrl()).createOrder("R-1", "GI60", "812345678", "asia");
        }
        byte[] before = Files.readAllBytes(state);
        try (SandboxProvider reader = SandboxProvider.start(config(state, "1m").setStateReadOnly(true), 0)) {
            SandboxTestClient client = new SandboxTestClient(reader.baseUrl());
            assertThat(client.checkOrder("R-1").data().get("status").textValue()).isEqualTo("pending");
            long balance = client.balance().data().get("balance").longValue();
            assertThat(balance).isEqualTo(reader.balance()).isLessThan(SandboxConfig.defaults().balance());
            client.createOrder("R-2", "TSEL10", "081234567890", null);
        }
        assertThat(Files.readAllBytes(state)).isEqualTo(before);
        assertThat(Files.list(dir)).containsExactly(state);
    }

    @Test
    void withoutAStateFileNothingIsKept() throws Exception {
        try (SandboxProvider first = SandboxProvider.start(SandboxConfig.defaults(), 0)) {
            new SandboxTestClient(first.baseUrl()).createOrder("N-1", "TSEL10", "081234567890", null);
        }
        try (SandboxProvider second = SandboxProvider.start(SandboxConfig.defaults(), 0)) {
            assertThat(new SandboxTestClient(second.baseUrl()).checkOrder("N-1").code()).isEqualTo("ORDER_NOT_FOUND");
        }
    }

    @Test
    void aDamagedStateFileIsRefusedNamingTheFile() throws Exception {
        Path state = dir.resolve("state.json");
        Files.writeString(state, "{ half", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> SandboxProvider.start(config(state, "1s"), 0))
                .isInstanceOf(SandboxStateException.class)
                .hasMessageStartingWith("the sandbox state file " + state + " cannot be read (")
                .hasMessageEndingWith("move it away to start the sandbox's account afresh");
    }
}
