package org.topupbatch.reconcile;

import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One exception of a reconciliation, one line of {@code reconcile-DAY.csv}. {@code amount} is what
 * the difference means for the deposit in IDR (the provider's charge of an order unknown to the
 * journal, a refund, a price difference), null when none.
 */
public record ReconcileLine(ExceptionKind kind, String refId, String productSku, String customerNo, Instant createdAt,
                            String batch, Long line, String journalStatus, String providerStatus, Long journalPrice,
                            Long providerPrice, Long amount, String message) {

    /** The lines' order in reconcile-DAY.csv: by kind, then by when the order was placed. */
    static final Comparator<ReconcileLine> ORDER = Comparator.comparing(ReconcileLine::kind)
            .thenComparing(l -> l.createdAt() == null ? Instant.MIN : l.createdAt());

    /** Every kind, in its order, with how many lines are of it (0 when none), as the summary gives them. */
    static Map<String, Long> countByKind(List<ReconcileLine> lines) {
        Map<ExceptionKind, Long> byKind = new EnumMap<>(ExceptionKind.class);
        lines.forEach(l -> byKind.merge(l.kind(), 1L, Long::sum));
        Map<String, Long> counts = new LinkedHashMap<>();
        for (ExceptionKind kind : ExceptionKind.values()) {
            counts.put(kind.wire(), byKind.getOrDefault(kind, 0L));
        }
        return counts;
    }
}
