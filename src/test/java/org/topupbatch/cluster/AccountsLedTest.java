package org.topupbatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The accounts a node leads, as the lead views change them (docs/two-nodes.md#two-nodes). */
class AccountsLedTest {

    @Test
    void a_lost_lead_stops_new_markings_at_once_even_while_one_hangs_on_a_cut_link() throws Exception {
        AccountsLed led = AccountsLed.separately(List.of("main", "dfz"));
        led.take("main");
        CountDownLatch marking = new CountDownLatch(1);
        CountDownLatch journalAnswers = new CountDownLatch(1);
        // a row being marked SENDING, its journal update stuck on the cut link
        CompletableFuture<Boolean> stuck = CompletableFuture.supplyAsync(() -> led.whileLeading("main", () -> {
            marking.countDown();
            try {
                return journalAnswers.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }));
        try {
            assertThat(marking.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Void> lose = CompletableFuture.runAsync(() -> led.lost("main"));
            assertThat(lose).as("losing the lead waits for nothing").succeedsWithin(Duration.ofSeconds(2));
            assertThat(led.leads("main")).isFalse();
            assertThat(led.whileLeading("main", () -> true)).as("no new marking there").isFalse();
        } finally {
            journalAnswers.countDown();
        }
        assertThat(stuck).succeedsWithin(Duration.ofSeconds(10));
    }
}
