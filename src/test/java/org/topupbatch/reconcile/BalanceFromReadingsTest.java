package org.topupbatch.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.ReconcileJournal.BalanceReading;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.OrderStatus;

/**
 * How the balance before a day's first order is found from the product's balance readings
 * (docs/reconcile.md): the orders before a reading are added back, a reading that cannot be placed
 * among the orders is passed over, and what cannot be known is said.
 */
class BalanceFromReadingsTest {

    static final Instant T = Instant.parse("2026-11-27T03:00:00Z");

    static OrderListEntry order(String ref, OrderStatus status, long price, Instant createdAt) {
        return new OrderListEntry(ref, "TSEL10", "Telkomsel 10.000", "081200000001", status, null, price, createdAt);
    }

    static RowRecord ours(String ref, RowState state, Instant sentAt, Instant updatedAt) {
        return new RowRecord(1, 1, 0, 2, ref, "TSEL10", "081200000001", null, null, List.of(), state, null, 10_000L, null,
                sentAt, updatedAt, sentAt, 0, null);
    }

    static BalanceReading reading(long balance, Instant askedAt, Instant answeredAt) {
        return new BalanceReading(null, balance, askedAt, answeredAt);
    }

    static BalanceFromReadings from(Map<String, RowRecord> ours) {
        return new BalanceFromReadings(ref -> Optional.ofNullable(ours.get(ref)));
    }

    @Test
    void another_clients_order_before_the_first_reading_is_added_back_and_later_orders_are_not() {
        List<OrderListEntry> orders = List.of(
                order("OTHER-1", OrderStatus.SUCCESS, 10_260, T),
                order("OTHER-2", OrderStatus.FAILED, 5_000, T.plusSeconds(1)), // refunded, as far as can be known
                order("R-1", OrderStatus.SUCCESS, 10_260, T.plusSeconds(60)));
        FirstBalance first = from(Map.of()).first(List.of(reading(9_989_740, T.plusSeconds(30).plusMillis(400),
                T.plusSeconds(30).plusMillis(700))), orders);
        assertThat(first.balance()).isEqualTo(10_000_000);
        assertThat(first.source()).isEqualTo(FirstBalance.BALANCE_READING);
        assertThat(first.readAt()).isEqualTo(T.plusSeconds(30).plusMillis(700));
    }

    @Test
    void a_reading_taken_while_an_order_of_the_same_second_was_made_is_passed_over_for_the_next() {
        // OTHER-1 listed at 03:00:30 (whole seconds): before or after the reading asked at 03:00:30.4? Cannot tell.
        List<OrderListEntry> orders = List.of(order("OTHER-1", OrderStatus.SUCCESS, 10_260, T.plusSeconds(30)));
        BalanceReading unsure = reading(10_000_000, T.plusSeconds(30).plusMillis(400), T.plusSeconds(30).plusMillis(600));
        BalanceReading later = reading(9_989_740, T.plusSeconds(90), T.plusSeconds(90).plusMillis(200));
        FirstBalance first = from(Map.of()).first(List.of(unsure, later), orders);
        assertThat(first.balance()).isEqualTo(10_000_000);
        assertThat(first.readAt()).isEqualTo(later.answeredAt());
    }

    @Test
    void our_order_of_the_readings_second_is_placed_by_when_its_request_left() {
        Instant asked = T.plusSeconds(30).plusMillis(100);
        Instant answered = T.plusSeconds(30).plusMillis(300);
        List<OrderListEntry> orders = List.of(order("R-1", OrderStatus.SUCCESS, 10_260, T.plusSeconds(30)));
        RowRecord r1 = ours("R-1", RowState.SUCCESS, answered.plusMillis(50), answered.plusMillis(500));
        FirstBalance first = from(Map.of("R-1", r1)).first(List.of(reading(10_000_000, asked, answered)), orders);
        assertThat(first.balance()).as("R-1 left after the answer: after the reading").isEqualTo(10_000_000);
    }

    @Test
    void our_failed_order_before_the_reading_counts_only_when_the_journal_knew_of_the_failure_before() {
        List<OrderListEntry> orders = List.of(order("R-1", OrderStatus.FAILED, 10_260, T));
        BalanceReading reading = reading(10_000_000, T.plusSeconds(30), T.plusSeconds(31));
        RowRecord failedEarly = ours("R-1", RowState.FAILED, T, T.plusSeconds(5));
        assertThat(from(Map.of("R-1", failedEarly)).first(List.of(reading), orders).balance())
                .as("refunded before the reading").isEqualTo(10_000_000);
        RowRecord failedLate = ours("R-1", RowState.FAILED, T, T.plusSeconds(40));
        FirstBalance unknown = from(Map.of("R-1", failedLate)).first(List.of(reading), orders);
        assertThat(unknown.known()).as("refunded before or after the reading: cannot tell").isFalse();
        assertThat(unknown.unknownWhy()).contains("cannot be placed");
    }

    @Test
    void without_a_reading_the_balance_is_unknown_and_said_so() {
        FirstBalance first = from(Map.of()).first(List.of(), List.of());
        assertThat(first.balance()).isNull();
        assertThat(first.source()).isNull();
        assertThat(first.unknownWhy()).contains("no balance read by the product on the day was journaled");
    }
}
