package org.topupbatch.reconcile;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.ReconcileJournal;
import org.topupbatch.journal.ReconcileJournal.JournalOrder;
import org.topupbatch.journal.RowOutcomes;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.OrderListEntry;
import org.topupbatch.provider.OrderStatus;

/**
 * One order of the journal against what the provider says of it, the judgement both ways of
 * reconciling share: the provider's history (the default dialect) and the status check by re-sending
 * (Digiflazz). The journal follows the provider's truth, loudly: a different final status corrects
 * the row, a pending or unknown row is settled, and each is a line of the reconciliation.
 */
final class OrderComparison {

    private static final Logger LOG = LoggerFactory.getLogger(OrderComparison.class);
    static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** Where the provider's word came from, as the lines and the journal's messages name it. */
    enum Source {
        HISTORY("the provider's history"),
        STATUS_CHECK("the provider's status check");

        final String words;

        Source(String words) {
            this.words = words;
        }
    }

    enum Change { NONE, CORRECTED, SETTLED }

    /** The line an order makes (null when it matches) and what it changed in the journal. */
    record Comparison(ReconcileLine line, Change change) {
        static final Comparison SAME = new Comparison(null, Change.NONE);
    }

    private final ReconcileJournal journal;
    private final RowOutcomes outcomes;
    private final Duration pendingTimeout;
    private final Source source;

    OrderComparison(ReconcileJournal journal, RowOutcomes outcomes, Duration pendingTimeout, Source source) {
        this.journal = journal;
        this.outcomes = outcomes;
        this.pendingTimeout = pendingTimeout;
        this.source = source;
    }

    /** The provider's order under our ref_id is ours only for our product and customer (as tracking judges it). */
    static boolean ours(JournalOrder mine, OrderListEntry theirs) {
        return org.topupbatch.track.OrderOutcomes.matches(mine.row(), theirs.refId(), theirs.productSku(), theirs.customerNo());
    }

    /** {@code theirs} null: the provider does not know the order. */
    Comparison compare(ReconcileDay day, JournalOrder mine, OrderListEntry theirs, Instant now) {
        RowRecord row = mine.row();
        if (theirs == null) {
            return new Comparison(line(ExceptionKind.MISSING_AT_PROVIDER, mine, null, row.price(),
                    "the journal has this order " + row.state().name().toLowerCase(Locale.ROOT)
                            + (row.sentAt() == null ? "" : " (sent " + WHEN.format(row.sentAt()) + ")")
                            + "; " + source.words + " does not list it"), Change.NONE);
        }
        if (theirs.status() == OrderStatus.PENDING || theirs.status() == null) {
            if (theirs.createdAt() != null && theirs.createdAt().plus(pendingTimeout).isBefore(now)) {
                return new Comparison(line(ExceptionKind.PENDING_TOO_LONG, mine, theirs, theirs.price(),
                        "still pending at the provider " + Duration.between(theirs.createdAt(), now).toMinutes()
                                + " min after it was placed (pending timeout " + pendingTimeout.toMinutes() + " min)"), Change.NONE);
            }
            if (row.state() == RowState.SUCCESS || row.state() == RowState.FAILED) {
                return new Comparison(line(ExceptionKind.STATUS_DIFFERS, mine, theirs, theirs.price(),
                        "the journal has it " + row.state().name().toLowerCase(Locale.ROOT)
                                + ", the provider still pending; left as it is until the provider settles it"), Change.NONE);
            }
            return Comparison.SAME;
        }
        RowState providerState = theirs.status() == OrderStatus.SUCCESS ? RowState.SUCCESS : RowState.FAILED;
        if (row.state() == providerState) {
            if (providerState == RowState.SUCCESS && row.price() != null && theirs.price() != null
                    && !row.price().equals(theirs.price())) {
                return new Comparison(line(ExceptionKind.PRICE_DIFFERS, mine, theirs, theirs.price() - row.price(),
                        "the provider charged " + theirs.price() + ", the journal recorded " + row.price()), Change.NONE);
            }
            return Comparison.SAME;
        }
        String found = "found by the reconciliation of " + day + " at " + WHEN.format(now);
        String was = row.state().name().toLowerCase(Locale.ROOT);
        if (row.state() == RowState.PENDING || row.state() == RowState.UNKNOWN || row.state() == RowState.SENDING) {
            boolean done = outcomes.recordOutcome(row.id(), providerState, theirs.serialNumber(), theirs.price(),
                    theirs.status().wire() + " (settled from " + source.words + ", " + found + "; the journal had it " + was + ")");
            if (done) {
                LOG.warn("Reconcile: order {} of {} was {} in the journal, {} shows it {}: settled",
                        row.orderRefId(), mine.batchFile(), was, source.words, theirs.status().wire());
            }
            return new Comparison(line(ExceptionKind.STATUS_DIFFERS, mine, theirs, theirs.price(),
                    "the journal had it " + was + ", " + source.words + " shows it " + theirs.status().wire()
                            + ": settled as " + theirs.status().wire()), done ? Change.SETTLED : Change.NONE);
        }
        String what = row.state() == RowState.SUCCESS ? "refunded after success" : "charged after "
                + (row.state() == RowState.FAILED ? "failure" : row.state() == RowState.REFUSED ? "a refusal" : "being rejected");
        boolean done = journal.correctOutcome(row.id(), providerState, theirs.serialNumber(), theirs.price(),
                what + ": " + source.words + " shows " + theirs.status().wire() + " (" + found + "; this report said "
                        + was + ")", now);
        if (done) {
            LOG.warn("Reconcile: order {} of {} was {} in the journal, {} shows it {}: the journal"
                    + " follows the provider and the batch's report is written again", row.orderRefId(), mine.batchFile(), was,
                    source.words, theirs.status().wire());
        }
        return new Comparison(line(ExceptionKind.STATUS_DIFFERS, mine, theirs, theirs.price(),
                what + ": the journal had " + was + ", the provider shows " + theirs.status().wire()
                        + (done ? "; the journal now follows the provider" : "")), done ? Change.CORRECTED : Change.NONE);
    }

    /** A line about one of our orders; its ref_id is the one the order carries at its account. */
    static ReconcileLine line(ExceptionKind kind, JournalOrder mine, OrderListEntry theirs, Long amount, String message) {
        RowRecord row = mine.row();
        return new ReconcileLine(kind, row.orderRefId(), row.productSku(), row.customerNo(),
                theirs != null ? theirs.createdAt() : row.sentAt(), mine.batchFile(), row.line(),
                row.state().name().toLowerCase(Locale.ROOT), theirs == null ? null : wire(theirs.status()),
                row.price(), theirs == null ? null : theirs.price(), amount, message);
    }

    /** What an order takes from the deposit as it stands: success and pending are charged, failed refunded. */
    static long charge(OrderListEntry order) {
        return order.status() == OrderStatus.FAILED || order.price() == null ? 0 : order.price();
    }

    static String wire(OrderStatus status) {
        return status == null ? "" : status.wire();
    }
}
