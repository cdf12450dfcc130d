package org.topupbatch.routes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.sandbox.LedgerEntry;
import org.topupbatch.testing.Poll;

/** submit.yaml: every accepted row becomes exactly one order at the provider, within its rate limit. */
class SubmitRouteTest extends RouteTestSupport {

    static final int ROWS = 24;

    @Override
    List<String> routes() {
        return List.of("intake", "submit");
    }

    /** Slow answers: a round of rows outlasts the timer's period. */
    @Override
    org.topupbatch.sandbox.SandboxConfig sandboxConfig() {
        return org.topupbatch.sandbox.SandboxConfig.defaults().setLatency(
                org.topupbatch.sandbox.DurationRange.of(java.time.Duration.ofMillis(300), java.time.Duration.ofMillis(800)));
    }

    @Test
    void accepted_rows_become_orders_once_each_without_a_429() throws Exception {
        StringBuilder csv = new StringBuilder("ref_id,product_sku,customer_no,customer_no_zone\n");
        IntStream.rangeClosed(1, ROWS).forEach(i -> csv.append(String.format("SB-%04d,ML86,1234567%02d,2345%n", i, i)));
        csv.append("SB-BAD,NOPE1,123456,\n");
        drop("submit.csv", csv.toString());

        List<RowRecord> rows = Poll.until("every accepted row has an outcome", WAIT, () -> rows("submit.csv"),
                r -> r.size() == ROWS + 1 && r.stream().noneMatch(x -> x.state() == RowState.ACCEPTED || x.state() == RowState.SENDING));

        List<LedgerEntry> ledger = sandbox.ledger();
        assertThat(ledger).extracting(LedgerEntry::refId)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, ROWS).mapToObj(i -> String.format("SB-%04d", i)).toList());
        Map<String, LedgerEntry> byRef = ledger.stream().collect(Collectors.toMap(LedgerEntry::refId, Function.identity()));
        for (RowRecord row : rows) {
            if (row.refId().equals("SB-BAD")) {
                assertThat(row.state()).isEqualTo(RowState.REJECTED);
                continue;
            }
            LedgerEntry order = byRef.get(row.refId());
            assertThat(order.productSku()).isEqualTo("ML86");
            assertThat(order.customerNo()).isEqualTo(row.customerNo());
            assertThat(order.customerNoZone()).isEqualTo("2345");
            // ML86 settles at creation: the journal holds the provider's own answer
            assertThat(row.state()).as(row.refId()).isEqualTo(RowState.SUCCESS);
            assertThat(row.serialNumber()).isEqualTo(order.serialNumber()).isNotBlank();
            assertThat(row.price()).isEqualTo(order.price());
        }
        assertThat(sandbox.stats().rateLimited()).as("429 answers").isZero();
        // every create-order reservation of the rate budget was a request: no slot spent on a row
        // that was taken twice while it waited
        assertThat(journal().callsSince(java.time.Instant.EPOCH))
                .filteredOn(call -> call.operation().equals("create-order")).hasSize(ROWS);
        assertThat(batch("submit.csv").orElseThrow().balanceBefore()).isNotNull();
    }
}
