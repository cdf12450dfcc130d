package org.topupbatch.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a node shares out the accounts' leads (docs/two-nodes.md#several-accounts-on-two-nodes-one-leader-per-account): its share is the
 * accounts divided by the nodes connected, rounded up; a node above its share hands over its last
 * account, one at a time, only after leading it a while.
 */
class AccountSharesTest {

    private final AccountsLed led = AccountsLed.separately(List.of("main", "dfz", "backup"));
    private final JournalLockClusterService service = new JournalLockClusterService("jdbc:postgresql://127.0.0.1:1/none",
            null, null, new NodeRole("a", Clock.systemUTC()), new LeaderDuties() {
                @Override
                public String takeOver() {
                    return null;
                }

                @Override
                public void stepDown() {
                }

                @Override
                public void exit(int code) {
                }
            }, Duration.ofSeconds(1), List.of("main", "dfz", "backup"), led);

    @Test
    void a_node_alone_leads_every_account_and_two_nodes_share_them_rounded_up() {
        assertThat(service.share(1)).isEqualTo(3);
        assertThat(service.share(2)).isEqualTo(2);
        assertThat(service.share(3)).isEqualTo(1);
        assertThat(service.share(0)).as("a node counts itself even before the server lists it").isEqualTo(3);
        led.take("main");
        led.take("dfz");
        assertThat(service.belowShare(1)).isTrue();
        assertThat(service.belowShare(2)).isFalse();
    }

    @Test
    void a_node_above_its_share_hands_over_its_last_account_once_it_led_it_a_while_and_one_at_a_time() {
        AccountLeadView main = view("main");
        AccountLeadView dfz = view("dfz");
        AccountLeadView backup = view("backup");
        led.take("main");
        led.take("dfz");
        led.take("backup");
        Instant now = Instant.parse("2026-11-27T08:00:00Z");
        Instant longAgo = now.minus(Duration.ofMinutes(1));
        assertThat(service.handsOver(backup, 1, longAgo, now)).as("no other node to take it").isFalse();
        assertThat(service.handsOver(backup, 3, now.minusSeconds(2), now)).as("led for 2 s only").isFalse();
        assertThat(service.handsOver(main, 3, longAgo, now)).as("not its last account").isFalse();
        assertThat(service.handsOver(dfz, 3, longAgo, now)).as("not its last account").isFalse();
        assertThat(service.handsOver(backup, 3, longAgo, now)).isTrue();
        led.release("backup");
        assertThat(service.handsOver(dfz, 3, longAgo, now.plusSeconds(1))).as("one hand-over at a time").isFalse();
        assertThat(service.handsOver(dfz, 3, longAgo, now.plusSeconds(11))).isTrue();
        led.release("dfz");
        assertThat(service.handsOver(main, 3, longAgo, now.plusSeconds(30))).as("at its share").isFalse();
    }

    @Test
    void a_node_leads_only_its_accounts_rows_when_accounts_are_led_apart_and_every_row_otherwise() {
        assertThat(AccountsLed.EVERY.leads("dfz")).isTrue();
        assertThat(AccountsLed.EVERY.leads(null)).isTrue();
        assertThat(led.leads(null)).as("rows of no account are the active node's").isFalse();
        led.take("main");
        assertThat(led.leads("main")).isTrue();
        assertThat(led.leads("dfz")).isFalse();
        assertThat(led.leads(null)).isFalse();
        assertThat(led.leads("gone")).as("an account topup.providers does not name").isFalse();
        assertThat(led.names()).containsExactly("main");
        assertThat(led.scope().isEmpty()).isFalse();
        led.active(true);
        assertThat(led.leads(null)).isTrue();
        assertThat(led.leads("gone")).isTrue();
        assertThat(led.leads("dfz")).as("the active node does not send at an account the other leads").isFalse();
        assertThat(led.scope().others()).isTrue();
    }

    @Test
    void a_row_is_marked_sending_only_while_its_account_is_led_and_a_hand_over_waits_for_the_marking() throws Exception {
        assertThat(led.whileLeading("dfz", () -> true)).as("not led").isFalse();
        led.take("dfz");
        java.util.concurrent.CountDownLatch marking = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean committed = new java.util.concurrent.atomic.AtomicBoolean();
        Thread worker = new Thread(() -> led.whileLeading("dfz", () -> {
            marking.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            committed.set(true);
            return true;
        }));
        worker.start();
        marking.await();
        Thread handOver = new Thread(() -> led.release("dfz"));
        handOver.start();
        handOver.join(300);
        assertThat(handOver.isAlive()).as("the hand-over waits while a row is being marked").isTrue();
        release.countDown();
        handOver.join(5_000);
        worker.join(5_000);
        assertThat(committed).isTrue();
        assertThat(led.leads("dfz")).isFalse();
        assertThat(led.whileLeading("dfz", () -> true)).isFalse();
        assertThat(AccountsLed.EVERY.whileLeading("dfz", () -> true)).isTrue();
    }

    private AccountLeadView view(String account) {
        return new AccountLeadView(service, JournalLockClusterService.ACCOUNT_NAMESPACE + account, account);
    }
}
