package org.topupbatch.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowRoute;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.ProviderException;

/**
 * Several accounts: a row refused in a way that proves its account made no order goes to its next
 * account under ref_id-F2; anything that leaves an order possible keeps it where it is.
 */
class AccountFallbackTest {

    @TempDir
    Path dir;
    SubmitFixture f;

    @BeforeEach
    void open() {
        f = new SubmitFixture(dir, 3, null, new RowRoute(List.of(new RowRoute.Stop("main", "ML86", 20_000),
                new RowRoute.Stop("dfz", "ML86D", 18_000))));
        f.clock.advance(Duration.ofMinutes(5));
    }

    @AfterEach
    void close() {
        f.close();
    }

    private static ProviderException refusal(String code, boolean unknown) {
        return new ProviderException("create-order", code, unknown ? 0 : 422, unknown, "msg", null, null);
    }

    @Test
    void a_row_starts_at_its_first_account_under_its_own_ref_id() {
        RowRecord row = f.row(0);
        assertThat(row.account()).isEqualTo("main");
        assertThat(row.orderRefId()).isEqualTo("R-0");
        assertThat(row.orderSku()).isEqualTo("ML86");
        assertThat(row.hasNextAccount()).isTrue();
    }

    @Test
    void a_product_unavailable_at_the_first_account_sends_the_row_to_the_next_under_a_new_ref_id() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, refusal("PRODUCT_UNAVAILABLE", false), true);
        RowRecord moved = f.row(0);
        assertThat(moved.state()).isEqualTo(RowState.ACCEPTED);
        assertThat(moved.attempt()).isEqualTo(2);
        assertThat(moved.account()).isEqualTo("dfz");
        assertThat(moved.orderRefId()).isEqualTo("R-0-F2");
        assertThat(moved.orderSku()).isEqualTo("ML86D");
        assertThat(moved.price()).as("the next account's price when accepted").isEqualTo(18_000L);
        assertThat(moved.sentAt()).isNull();
        assertThat(moved.message()).contains("main refused R-0").contains("sent to dfz as R-0-F2");
        assertThat(moved.hasNextAccount()).isFalse();
    }

    @Test
    void a_refusal_at_the_last_account_fails_the_row_there() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, refusal("PRODUCT_UNAVAILABLE", false), true);
        RowRecord atDfz = f.sending(0);
        f.outcomes.recordFailure(atDfz, refusal("PRODUCT_UNAVAILABLE", false), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.REFUSED);
        assertThat(f.row(0).attempt()).isEqualTo(2);
    }

    @Test
    void insufficient_balance_at_one_account_moves_the_row_on_and_does_not_stop_the_batch() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, refusal("INSUFFICIENT_BALANCE", false), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.ACCEPTED);
        assertThat(f.row(0).account()).isEqualTo("dfz");
        assertThat(f.journal.reporting().batch(f.batchId).orElseThrow().haltReason()).isNull();
    }

    @Test
    void an_unknown_outcome_keeps_the_row_at_its_account_never_placed_elsewhere() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, refusal("TIMEOUT", true), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.UNKNOWN);
        assertThat(f.row(0).attempt()).isEqualTo(1);
        assertThat(f.row(0).account()).isEqualTo("main");
    }

    @Test
    void a_refusal_of_the_row_itself_fails_it_where_it_is() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, refusal("INVALID_CUSTOMER_NO", false), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.REFUSED);
        assertThat(f.row(0).attempt()).isEqualTo(1);
    }

    @Test
    void once_an_account_refused_a_product_its_other_queued_rows_go_on_without_being_sent_there() {
        RowRecord first = f.sending(0);
        f.outcomes.recordFailure(first, refusal("PRODUCT_UNAVAILABLE", false), true);
        RowRecord queued = f.row(1);
        assertThat(f.queue.mayStart(queued)).as("not sent to main").isFalse();
        assertThat(f.row(1).state()).isEqualTo(RowState.ACCEPTED);
        assertThat(f.row(1).account()).isEqualTo("dfz");
        assertThat(f.row(1).message()).contains("not sent there, sent to dfz as R-1-F2");
        // a minute later main is asked again with the next row
        f.clock.advance(AccountOutages.RECHECK.plusSeconds(1));
        assertThat(f.queue.mayStart(f.row(2))).isTrue();
        assertThat(f.row(2).account()).isEqualTo("main");
    }

    @Test
    void an_account_that_cannot_be_connected_to_sends_the_row_to_the_next() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, new ProviderException("create-order", "CONNECTION_FAILED", 0, false, "refused", null, null),
                true);
        assertThat(f.row(0).state()).isEqualTo(RowState.ACCEPTED);
        assertThat(f.row(0).account()).isEqualTo("dfz");
        assertThat(f.queue.mayStart(f.row(1))).as("main is not asked again at once").isFalse();
        assertThat(f.row(1).message()).contains("main could not be reached moments ago");
    }

    @Test
    void a_row_whose_account_has_no_readable_price_list_moves_on_unsent() {
        f.priceList = null; // the account's list cannot be read
        assertThat(f.queue.mayStart(f.row(0))).isFalse();
        assertThat(f.row(0).state()).isEqualTo(RowState.ACCEPTED);
        assertThat(f.row(0).account()).isEqualTo("dfz");
        assertThat(f.row(0).message()).contains("main has a price list that cannot be read");
    }

    @Test
    void insufficient_balance_at_the_last_account_fails_that_row_only_and_its_next_rows_there_go_unsent() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, refusal("PRODUCT_UNAVAILABLE", false), true);
        f.outcomes.recordFailure(f.sending(0), refusal("INSUFFICIENT_BALANCE", false), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.REFUSED);
        assertThat(f.journal.reporting().batch(f.batchId).orElseThrow().haltReason()).as("the batch goes on").isNull();
        // row 1, moved to dfz too, is not sent to an account that just said its balance is short
        f.outcomes.recordFailure(f.sending(1), refusal("PRODUCT_UNAVAILABLE", false), true);
        assertThat(f.queue.mayStart(f.row(1))).isFalse();
        assertThat(f.row(1).state()).isEqualTo(RowState.REJECTED);
        assertThat(f.row(1).message()).contains("dfz reported insufficient balance moments ago; not sent");
    }

    @Test
    void a_late_refusal_of_an_order_a_takeover_made_unknown_leaves_it_where_it_is() {
        RowRecord row = f.sending(0);
        f.journal.tracking().sendingToUnknown(f.clock.instant()); // another node took over while the request was on the wire
        f.outcomes.recordFailure(row, refusal("PRODUCT_UNAVAILABLE", false), true);
        assertThat(f.row(0).state()).isEqualTo(RowState.UNKNOWN);
        assertThat(f.row(0).account()).isEqualTo("main");
    }

    @Test
    void a_row_moved_on_meanwhile_is_not_marked_sending_with_its_old_account() {
        RowRecord stale = f.row(0);
        assertThat(f.journal.submission().moveOnUnsent(stale.id(), 1, 18_000, "moved")).isTrue();
        assertThat(f.journal.submission().markSending(stale.id(), stale.attempt(), f.clock.instant())).isFalse();
        assertThat(f.journal.submission().markSending(stale.id(), 2, f.clock.instant())).isTrue();
    }

    @Test
    void a_row_at_an_account_the_settings_no_longer_name_moves_on_or_is_rejected_unsent() {
        PriceGuard onlyDfz = new PriceGuard(account -> "dfz".equals(account) ? f.prices : null, java.math.BigDecimal.TEN);
        OrderQueue queue = new OrderQueue(f.journal.submission(), new BalanceBefore(f.journal.submission(), () -> f.balance.get(), f.clock), f.clock,
                onlyDfz, f.availability, () -> 300);
        assertThat(queue.mayStart(f.row(0))).isFalse();
        assertThat(f.row(0).account()).isEqualTo("dfz");
        assertThat(f.row(0).message()).contains("main is not an account of topup.providers now; sent to dfz as R-0-F2");
        PriceGuard none = new PriceGuard(account -> null, java.math.BigDecimal.TEN);
        OrderQueue nowhere = new OrderQueue(f.journal.submission(), new BalanceBefore(f.journal.submission(), () -> f.balance.get(), f.clock), f.clock,
                none, f.availability, () -> 300);
        assertThat(nowhere.mayStart(f.row(1))).isFalse();
        assertThat(f.row(1).state()).isEqualTo(RowState.REJECTED);
        assertThat(f.row(1).message()).contains("its account main is not in topup.providers now; not sent");
    }

    @Test
    void a_node_leading_some_accounts_takes_only_their_rows_and_orders_and_recovers_only_their_sending_rows() {
        RowRecord row = f.sending(0);
        f.outcomes.recordFailure(row, refusal("PRODUCT_UNAVAILABLE", false), true); // R-0 now at dfz
        assertThat(f.journal.submission().nextToSubmitAt(10, scope("dfz"))).extracting(RowRecord::refId).containsExactly("R-0");
        assertThat(f.journal.submission().nextToSubmitAt(10, scope("main"))).extracting(RowRecord::refId).containsExactly("R-1", "R-2");
        assertThat(f.journal.submission().nextToSubmitAt(10, scope("main", "dfz"))).hasSize(3);
        assertThat(f.journal.submission().nextToSubmitAt(10, scope())).isEmpty();

        f.sending(1);
        f.sending(0);
        assertThat(f.journal.tracking().sendingAt("main")).isEqualTo(1);
        assertThat(f.journal.tracking().sendingAt("dfz")).isEqualTo(1);
        // the node taking main's lead makes only main's SENDING rows unknown: dfz's may be on the wire from its leader
        assertThat(f.journal.tracking().sendingToUnknownAt(f.clock.instant(), "main")).isEqualTo(1);
        assertThat(f.row(1).state()).isEqualTo(RowState.UNKNOWN);
        assertThat(f.row(0).state()).isEqualTo(RowState.SENDING);
        assertThat(f.journal.tracking().dueForCheckAt(f.clock.instant(), 10, scope("dfz"))).isEmpty();
        assertThat(f.journal.tracking().dueForCheckAt(f.clock.instant(), 10, scope("main"))).extracting(RowRecord::refId)
                .containsExactly("R-1");
        // with dfz no longer in topup.providers, its rows are the active node's, and none of main's leader
        org.topupbatch.journal.AccountScope active = new org.topupbatch.journal.AccountScope(List.of(), true, List.of("main"));
        assertThat(f.journal.tracking().sendingToUnknownElsewhere(f.clock.instant(), List.of("main"))).isEqualTo(1);
        assertThat(f.row(0).state()).isEqualTo(RowState.UNKNOWN);
        assertThat(f.journal.tracking().dueForCheckAt(f.clock.instant(), 10, active)).extracting(RowRecord::refId).containsExactly("R-0");
        assertThat(f.journal.submission().nextToSubmitAt(10, active)).isEmpty();
        assertThat(f.journal.submission().nextToSubmitAt(10, new org.topupbatch.journal.AccountScope(List.of(), true, List.of("dfz"))))
                .extracting(RowRecord::refId).containsExactly("R-2");
    }

    private static org.topupbatch.journal.AccountScope scope(String... led) {
        return new org.topupbatch.journal.AccountScope(List.of(led), false, List.of("main", "dfz"));
    }
}
