package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.topupbatch.testing.MutableClock;

/** The balance follows every answer that carries one as of that answer, and only those. */
class BalanceSeenTest {

    @Test
    void create_order_answers_move_the_balance_and_check_order_answers_do_not() {
        MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
        BalanceSeen seen = new BalanceSeen(clock);
        assertThat(seen.last()).isEmpty();
        seen.answered(ProviderClient.CHECK_BALANCE, new Balance(10_000_000L, "IDR", "gold", "test"));
        clock.advance(Duration.ofSeconds(3));
        seen.answered(ProviderClient.CREATE_ORDER, order(9_955_000L));
        assertThat(seen.last()).contains(new BalanceSeen.Reading(9_955_000L, clock.instant()));
        clock.advance(Duration.ofSeconds(3));
        // a check-order's balance_after is as at the order's creation: old news
        seen.answered(ProviderClient.CHECK_ORDER, order(10_000_000L));
        seen.answered(ProviderClient.CREATE_ORDER, order(null)); // an answer without a balance
        assertThat(seen.last()).contains(new BalanceSeen.Reading(9_955_000L, clock.instant().minusSeconds(3)));
    }

    private static Order order(Long balanceAfter) {
        return new Order("R-1", "STEAM45K", "a@example.com", OrderStatus.PENDING, null, 45_000L,
                balanceAfter == null ? null : balanceAfter + 45_000L, balanceAfter, null);
    }
}
