package org.topupbatch.journal;

import java.time.Instant;
import java.util.List;

/**
 * Products the provider reports unavailable, whose not-yet-sent rows are held (kept ACCEPTED but not
 * sent) until the product is back or has been away for too long. Kept in the journal, so a hold
 * survives a restart and a held product shows in {@code status}.
 */
public interface ProductOutages {

    /** Holds the product's rows from now on; an outage already on record keeps its start. */
    void holdProduct(String sku, Instant since, String message);

    /** The product is listed as available again: its rows go out (the outage's start is kept). */
    void releaseProduct(String sku);

    /** An order of the product worked: its outage is over. */
    void endOutage(String sku);

    /** Every product with an outage on record, held or released, oldest first. */
    List<ProductOutage> productOutages();

    /**
     * ACCEPTED rows of the product in batches that go on become REJECTED with the message (they were
     * never sent); returns how many.
     */
    int rejectWaitingRows(String sku, String message);

    /**
     * A product's outage: since when, whether its rows are held, the provider's last word, when it last
     * changed, and the rows waiting for it.
     */
    record ProductOutage(String sku, Instant since, boolean held, String message, Instant updatedAt, long rowsWaiting) {

        private static final java.time.format.DateTimeFormatter HH_MM =
                java.time.format.DateTimeFormatter.ofPattern("HH:mm 'UTC'").withZone(java.time.ZoneOffset.UTC);

        /** When the outage began, as rejected rows and {@code status} show it: {@code 10:42 UTC}. */
        public String sinceShown() {
            return HH_MM.format(since);
        }

        /**
         * One line for {@code status} and the dashboard: {@code 12 rows of ML86 held: unavailable since
         * 10:42 UTC (PRODUCT_UNAVAILABLE: ...); rejected at 11:12 UTC unless it is back}.
         */
        public String describe(java.time.Duration wait) {
            return rowsWaiting + (rowsWaiting == 1 ? " row" : " rows") + " of " + sku + " held: unavailable since "
                    + sinceShown() + (message == null ? "" : " (" + message + ")") + "; rejected at "
                    + HH_MM.format(since.plus(wait)) + " unless it is back";
        }
    }
}
