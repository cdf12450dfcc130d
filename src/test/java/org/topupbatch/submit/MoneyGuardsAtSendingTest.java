package org.topupbatch.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.journal.ProductOutages.ProductOutage;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.OrderStatus;
import org.topupbatch.provider.ProviderException;

/** The price at the moment of sending and the hold of an unavailable product, on a real journal. */
class MoneyGuardsAtSendingTest {

    @TempDir
    Path dir;
    SubmitFixture f;
    final DefaultCamelContext camel = new DefaultCamelContext();

    @AfterEach
    void close() {
        f.close();
    }

    private boolean send(int i) {
        RowRecord row = f.row(i);
        f.queue.mayStart(row);
        return f.queue.markSending(row, new DefaultExchange(camel));
    }

    private void answered(int i, long price) {
        f.outcomes.record(f.row(i), f.row(i).sentAt(), new Order("R-" + i, "ML86", "x", OrderStatus.SUCCESS, "SN", price, 1L, 1L, "ok"));
    }

    private void refusedUnavailable(int i) {
        f.outcomes.recordFailure(f.row(i), new ProviderException("create-order", "PRODUCT_UNAVAILABLE", 422, false,
                "product ML86 is currently unavailable", null, null), true);
    }

    @Test
    void a_price_above_max_price_rejects_the_row_unsent_and_frees_its_ref_id() {
        f = new SubmitFixture(dir, 3, 21_000L);
        assertThat(send(0)).isTrue();
        f.priceList = List.of(SubmitFixture.product("ML86", 22_000, true));
        answered(0, 22_000);
        assertThat(f.priceGuard.waitingForPrices(null)).as("the answer's price differs from the list").isTrue();
        assertThat(send(1)).isFalse();
        RowRecord rejected = f.journal.status().rowsOfBatch(f.batchId, List.of(RowState.REJECTED), 10).get(0);
        assertThat(rejected.refId()).isEqualTo("R-1");
        assertThat(rejected.message()).contains("price 22000", "max_price 21000", "20000");
        assertThat(f.journal.tracking().findOrder("R-1")).as("never an order: the ref_id is free").isEmpty();
    }

    @Test
    void a_rise_within_the_tolerance_goes_out_and_beyond_it_does_not() {
        f = new SubmitFixture(dir, 3);
        f.prices.find("ML86");
        f.prices.observe("ML86", 22_000); // +10%: still within topup.price-tolerance
        assertThat(f.queue.markSending(f.row(0), new DefaultExchange(camel))).as("nothing leaves until the list is read again")
                .isFalse();
        f.priceList = List.of(SubmitFixture.product("ML86", 22_000, true));
        assertThat(send(0)).isTrue();
        f.priceList = List.of(SubmitFixture.product("ML86", 22_001, true));
        answered(0, 22_001);
        assertThat(send(1)).isFalse();
        assertThat(f.row(1).state()).isEqualTo(RowState.REJECTED);
        assertThat(f.row(1).message()).contains("price 22001", "10% above 20000");
    }

    @Test
    void while_the_new_list_is_awaited_a_row_waits_instead_of_going_out() {
        f = new SubmitFixture(dir, 2);
        f.prices.find("ML86");
        f.prices.observe("ML86", 20_500);
        // the row passed mayStart before the answer came: its reservation is given back, it stays ACCEPTED
        assertThat(f.queue.markSending(f.row(0), new DefaultExchange(camel))).isFalse();
        assertThat(f.state(0)).isEqualTo(RowState.ACCEPTED);
    }

    @Test
    void three_unavailable_refusals_hold_the_products_rows_and_a_success_ends_the_outage() {
        f = new SubmitFixture(dir, 6);
        f.prices.find("ML86"); // the list says available: only the count holds
        for (int i = 0; i < 3; i++) {
            assertThat(send(i)).isTrue();
            refusedUnavailable(i);
        }
        assertThat(f.journal.outages().productOutages()).extracting(ProductOutage::sku, ProductOutage::held, ProductOutage::rowsWaiting)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ML86", true, 3L));
        assertThat(f.queue.due(10)).as("held rows are not due").isEmpty();
        assertThat(send(3)).as("a row already taken is not sent").isFalse();
        assertThat(f.state(0)).as("refused rows stay as the provider said").isEqualTo(RowState.REFUSED);
        // the list shows it back at the next watch
        f.clock.advance(Duration.ofMinutes(1));
        f.availability.watch();
        assertThat(f.journal.outages().productOutages()).extracting(ProductOutage::held).containsExactly(false);
        assertThat(f.queue.due(10)).extracting(RowRecord::refId).containsExactly("R-3", "R-4", "R-5");
        assertThat(send(3)).isTrue();
        answered(3, 20_000);
        assertThat(f.journal.outages().productOutages()).isEmpty();
    }

    @Test
    void one_refusal_holds_at_once_when_a_fresh_list_agrees() {
        f = new SubmitFixture(dir, 3);
        f.priceList = List.of(SubmitFixture.product("ML86", 20_000, false));
        assertThat(send(0)).isTrue();
        f.clock.advance(Duration.ofSeconds(11));
        refusedUnavailable(0);
        assertThat(f.journal.outages().productOutages()).extracting(ProductOutage::held).containsExactly(true);
    }

    @Test
    void held_rows_are_rejected_once_the_outage_wait_is_over() {
        f = new SubmitFixture(dir, 5);
        f.priceList = List.of(SubmitFixture.product("ML86", 20_000, false));
        assertThat(send(0)).isTrue();
        refusedUnavailable(0);
        f.clock.advance(Duration.ofMinutes(29));
        f.availability.watch();
        assertThat(f.state(3)).isEqualTo(RowState.ACCEPTED);
        f.clock.advance(Duration.ofMinutes(1));
        f.availability.watch();
        assertThat(f.state(1)).isEqualTo(RowState.REJECTED);
        assertThat(f.state(0)).isEqualTo(RowState.REFUSED);
        assertThat(f.row(4).message()).startsWith("unavailable since 08:00 UTC").contains("PRODUCT_UNAVAILABLE");
        assertThat(f.journal.outages().productOutages()).isEmpty();
        assertThat(f.journal.reporting().batch(f.batchId).orElseThrow().haltReason()).isNull();
    }

    @Test
    void a_hold_from_refusals_is_not_lifted_by_the_list_that_let_them_happen() {
        f = new SubmitFixture(dir, 6);
        f.prices.find("ML86"); // lists ML86 available, and keeps saying so
        for (int i = 0; i < 3; i++) {
            assertThat(send(i)).isTrue();
            refusedUnavailable(i);
        }
        f.clock.advance(Duration.ofSeconds(5));
        f.availability.watch();
        assertThat(f.queue.due(10)).as("no list read since the hold: still held").isEmpty();
        f.clock.advance(Duration.ofMinutes(1));
        f.availability.watch();
        assertThat(f.queue.due(10)).as("a list read after the hold shows it available").hasSize(3);
    }

    @Test
    void a_late_answer_to_an_order_sent_before_the_outage_ends_nothing() {
        f = new SubmitFixture(dir, 6);
        f.prices.find("ML86");
        assertThat(send(0)).isTrue();
        f.clock.advance(Duration.ofMillis(10));
        for (int i = 1; i <= 3; i++) {
            assertThat(send(i)).isTrue();
            f.clock.advance(Duration.ofMillis(10));
            refusedUnavailable(i);
        }
        answered(0, 20_000); // on the wire since before the first refusal
        assertThat(f.journal.outages().productOutages()).extracting(ProductOutage::held).containsExactly(true);
        assertThat(f.queue.due(10)).isEmpty();
    }

    @Test
    void no_price_list_at_all_sends_nothing() {
        f = new SubmitFixture(dir, 1, 10_000L);
        f.priceList = null; // the provider's price list cannot be read
        assertThat(f.queue.mayStart(f.row(0))).isFalse();
        assertThat(f.state(0)).isEqualTo(RowState.ACCEPTED);
    }
}
