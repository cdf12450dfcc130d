package org.topupbatch.reconcile;

import java.time.Instant;

/**
 * One exception of a reconciliation, one line of {@code reconcile-DAY.csv}. {@code amount} is what
 * the difference means for the deposit in IDR (the provider's charge of an order unknown to the
 * journal, a refund, a price difference), null when none.
 */
public record ReconcileLine(ExceptionKind kind, String refId, String productSku, String customerNo, Instant createdAt,
                            String batch, Long line, String journalStatus, String providerStatus, Long journalPrice,
                            Long providerPrice, Long amount, String message) {
}
