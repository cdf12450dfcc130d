package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.Outbox.OutboxEntry;

/**
 * The voucher to the customer in the journal (migration V28, docs/customer-messages.md): a row's
 * notify_to is kept; its SUCCESS writes one outbox message for the customer in the same transaction,
 * with the row's event id; a second report of the same success writes nothing; a failed or pending
 * order, a row without notify_to and a customer no channel reaches get none. The report's
 * customer_notified follows the message. Run on H2 and PostgreSQL.
 */
abstract class CustomerVoucherContractTest extends JournalPerTest {

    static final Duration LEASE = Duration.ofMinutes(10);

    static NewRow row(int seq, String refId, String notifyTo) {
        return new NewRow(seq, seq + 2L, refId, "FF100", "3123456" + seq, null, null, null, RowState.ACCEPTED, 14_000L, null,
                null, null, null, notifyTo);
    }

    /** Records a batch of these rows, sends each, and returns their ids in file order. */
    List<Long> sent(NewRow... rows) {
        long batch;
        try (BatchWriter writer = journal.intake().openBatch("v.csv", ',', List.of(), "archive/v.csv")) {
            for (NewRow r : rows) {
                writer.add(r);
            }
            batch = writer.commit();
        }
        List<Long> ids = new ArrayList<>();
        journal.reporting().forEachRow(batch, r -> ids.add(r.id()));
        ids.forEach(id -> assertThat(journal.submission().markSending(id, Instant.now())).isTrue());
        return ids;
    }

    long batchOf(long rowId) {
        long[] batch = {0};
        journal.reporting().batchesToReport().forEach(b -> journal.reporting().forEachRow(b.id(), r -> {
            if (r.id() == rowId) {
                batch[0] = b.id();
            }
        }));
        return batch[0];
    }

    List<OutboxEntry> due() {
        return journal.outbox().claimDue(Instant.now().plusSeconds(1), "node-a", LEASE, 50);
    }

    @Test
    void aSuccessWritesOneMessageForItsCustomerAndASecondReportNone() {
        journal.reachCustomers(to -> true);
        List<Long> ids = sent(row(0, "V-0", "+6281234567890"), row(1, "V-1", "budi@example.com"));

        assertThat(journal.tracking().recordOutcome(ids.get(0), RowState.SUCCESS, "SN-123", 14_000L, null)).isTrue();
        assertThat(journal.tracking().recordOutcome(ids.get(0), RowState.SUCCESS, "SN-123", 14_000L, null))
                .as("the second report of the same success").isFalse();
        assertThat(journal.tracking().recordOutcome(ids.get(1), RowState.PENDING, null, null, null)).isTrue();

        List<OutboxEntry> due = due();
        assertThat(due).singleElement().satisfies(e -> {
            assertThat(e.eventId()).isEqualTo("voucher_" + ids.get(0));
            assertThat(e.event()).isEqualTo("customer_voucher");
            assertThat(e.targetKind()).isEqualTo("customer");
            assertThat(e.target()).isEqualTo("+6281234567890");
            assertThat(e.body()).contains("\"ref_id\":\"V-0\"").contains("\"serial\":\"SN-123\"")
                    .contains("\"product_sku\":\"FF100\"").as("no price list kept: the SKU is its name")
                    .contains("\"product\":\"FF100\"");
        });
        long batch = batchOf(ids.get(0));
        assertThat(journal.reporting().customerNotices(batch)).containsExactlyInAnyOrderEntriesOf(
                Map.of(ids.get(0), "", ids.get(1), ""));
        assertThat(journal.reporting().customerMessagesWaiting(batch, Instant.now().minusSeconds(15))).isTrue();

        journal.outbox().delivered(due.get(0).id(), "node-a", Instant.now());
        assertThat(journal.reporting().customerNotices(batch)).containsEntry(ids.get(0), "sent");
        assertThat(journal.reporting().customerMessagesWaiting(batch, Instant.now().minusSeconds(15))).isFalse();
    }

    @Test
    void aFailedOrAPendingOrderARowWithoutNotifyToAndACustomerNoChannelReachesGetNone() {
        journal.reachCustomers(to -> to.startsWith("+62")); // no e-mail channel
        List<Long> ids = sent(row(0, "N-0", "+6281234567890"), row(1, "N-1", "+6281234567891"), row(2, "N-2", null),
                row(3, "N-3", "budi@example.com"));
        journal.tracking().recordOutcome(ids.get(0), RowState.FAILED, null, 0L, "nomor salah");
        journal.tracking().recordOutcome(ids.get(1), RowState.PENDING, null, null, null);
        journal.tracking().recordOutcome(ids.get(2), RowState.SUCCESS, "SN-2", null, null);
        journal.tracking().recordOutcome(ids.get(3), RowState.SUCCESS, "SN-3", null, null);

        assertThat(due()).isEmpty();
        assertThat(journal.reporting().customerNotices(batchOf(ids.get(0)))).doesNotContainKey(ids.get(2))
                .containsEntry(ids.get(3), "");
    }

    @Test
    void aGivenUpMessageShowsFailedWithItsReason() {
        journal.reachCustomers(to -> true);
        List<Long> ids = sent(row(0, "G-0", "+6281234567890"));
        journal.tracking().recordOutcome(ids.get(0), RowState.SUCCESS, "SN-9", null, null);
        OutboxEntry entry = due().get(0);
        journal.outbox().giveUp(entry.id(), "node-a", Instant.now(), "HTTP 500");

        assertThat(journal.reporting().customerNotices(batchOf(ids.get(0)))).containsEntry(ids.get(0), "failed: HTTP 500");
    }

    @Test
    void withoutAnyChannelASuccessIsThePlainUpdate() {
        List<Long> ids = sent(row(0, "P-0", "+6281234567890"));
        assertThat(journal.tracking().recordOutcome(ids.get(0), RowState.SUCCESS, "SN-1", null, null)).isTrue();
        assertThat(due()).isEmpty();
    }
}
