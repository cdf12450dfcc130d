package org.topupbatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.topupbatch.sandbox.DurationRange;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.testing.CallbackReceiver;
import org.topupbatch.testing.CallbackReceiver.Received;
import org.topupbatch.testing.Poll;

/**
 * A {@code batch_stopped} notice survives a kill right after the stop (docs/operating.md#notifications),
 * on H2 and PostgreSQL: once intake has accepted the batch, the provider's balance falls to nothing
 * (every answer takes a second, so the orders come after it), its first order answers
 * INSUFFICIENT_BALANCE and the batch stops; the jar halts at crash point {@code stop-after-commit},
 * right after the stop's commit. The stop and its notice are one transaction, so the next run (which
 * never stops that batch again: a stopped batch sends nothing more) delivers the notice to an HTTP
 * endpoint of topup.notify.uris, once.
 */
class StopNoticeCrashE2ETest {

    static final String CSV = "ref_id,product_sku,customer_no\nST-1,FF100,31234567\nST-2,FF100,31234568\nST-3,FF100,31234569\n";

    @RegisterExtension
    final ProductFixture product = ProductFixture.on(() -> SandboxConfig.defaults()
                    .setLatency(DurationRange.of(Duration.ofSeconds(1), Duration.ofSeconds(1))))
            .env("TOPUP_WEBHOOK_PORT", "0").env("TOPUP_NOTIFY_RETRY_DELAY", "200");
    final JarRun run = product.run();
    CallbackReceiver endpoint;

    @BeforeEach
    void startEndpoint() throws Exception {
        endpoint = CallbackReceiver.start("/notices", "unused: notices are not signed");
    }

    @AfterEach
    void stopEndpoint() throws Exception {
        run.kill();
        endpoint.close();
    }

    @ParameterizedTest
    @EnumSource(JournalDatabase.class)
    void a_kill_right_after_a_batch_stops_loses_not_its_notice(JournalDatabase db) throws Exception {
        product.journalOn(db);
        run.env.put("TOPUP_NOTIFY_URIS", endpoint.url("127.0.0.1"));
        run.drop("short.csv", CSV);

        run.jvm.add("-Dtopup.internal.crash-at=stop-after-commit:1");
        run.env.put("TOPUP_MODE", "once");
        Process first = run.start();
        Poll.until("the batch accepted", Duration.ofMinutes(2), run::output, o -> o.contains("3 accepted"), run::output);
        product.sandbox().config().setBalance(0);
        assertThat(first.waitFor(3, TimeUnit.MINUTES)).as(run.output()).isTrue();
        assertThat(first.exitValue()).as(run.output()).isEqualTo(137);
        assertThat(run.output()).contains("Batch short.csv stopped: the provider reports insufficient balance");
        List<String> before = endpoint.received().stream().map(Received::body).toList();
        assertThat(before).as("nothing told of the stop before the kill").noneMatch(b -> b.contains("batch_stopped"));

        run.jvm.clear();
        int exit = run.runOnce(Duration.ofMinutes(3));
        List<Received> stopped = endpoint.received().stream().filter(r -> r.body().contains("\"batch_stopped\"")).toList();
        assertThat(stopped).as("exit %d, output:%n%s", exit, run.output()).hasSize(1);
        JsonNode notice = new ObjectMapper().readTree(stopped.get(0).body());
        assertThat(notice.get("batch").asText()).isEqualTo("short.csv");
        assertThat(notice.get("reason").asText()).contains("insufficient balance");
        assertThat(run.output()).doesNotContain("short.csv stopped"); // stopped once, by the killed run
    }
}
