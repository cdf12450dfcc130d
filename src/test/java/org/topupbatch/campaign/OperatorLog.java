package org.topupbatch.campaign;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.sandbox.LedgerEntry;

/**
 * What an operator did to which batch and when ({@code hold}, {@code resume}, {@code cancel}, as the
 * commands returned), checked against the provider's ledger: no order of a batch may be created while
 * it is held or after it is cancelled, {@link #TAKES_EFFECT} after the command returned (README: a
 * hold or cancel takes effect within 2 s; an order whose request left just before may arrive a moment later).
 */
final class OperatorLog {

    static final Duration TAKES_EFFECT = Duration.ofSeconds(2);

    /** A span in which the batch may not be ordered: from a hold or cancel to its resume (null: never ended). */
    private record Stopped(String fileName, String action, Instant from, Instant until) {
    }

    private final List<Stopped> spans = new ArrayList<>();
    private final Map<String, Stopped> openHolds = new HashMap<>();

    /** A {@code hold} that took effect (the batch was not held or cancelled before), returned at {@code at}. */
    synchronized void held(String fileName, Instant at) {
        openHolds.putIfAbsent(fileName, new Stopped(fileName, "hold", at, null));
    }

    /** A {@code resume} about to be given: from now on the batch may be ordered again. */
    synchronized void resuming(String fileName, Instant at) {
        Stopped hold = openHolds.remove(fileName);
        if (hold != null) {
            spans.add(new Stopped(fileName, "hold", hold.from(), at));
        }
    }

    /** A {@code cancel} returned at {@code at}: the batch is never ordered again. */
    synchronized void cancelled(String fileName, Instant at) {
        Stopped hold = openHolds.remove(fileName);
        if (hold != null) {
            spans.add(new Stopped(fileName, "hold", hold.from(), at));
        }
        spans.add(new Stopped(fileName, "cancel", at, null));
    }

    synchronized int moves() {
        return spans.size() + openHolds.size();
    }

    /** Every order the ledger shows created in a span where its batch was held or cancelled. */
    synchronized List<String> ordersWhileStopped(Collection<LedgerEntry> ledger, Collection<CampaignBatch> batches) {
        Map<String, String> batchOfRef = new HashMap<>();
        batches.forEach(b -> b.refs().forEach(ref -> batchOfRef.put(ref, b.fileName())));
        List<Stopped> all = new ArrayList<>(spans);
        all.addAll(openHolds.values());
        List<String> anomalies = new ArrayList<>();
        for (LedgerEntry order : ledger) {
            String batch = batchOfRef.get(order.refId());
            for (Stopped span : all) {
                if (span.fileName().equals(batch) && order.createdAt().isAfter(span.from().plus(TAKES_EFFECT))
                        && (span.until() == null || order.createdAt().isBefore(span.until()))) {
                    anomalies.add("order " + order.refId() + " of " + batch + " was created at " + order.createdAt()
                            + ", after the operator's " + span.action() + " returned at " + span.from()
                            + (span.until() == null ? "" : " and before the resume at " + span.until()));
                }
            }
        }
        return anomalies;
    }
}
