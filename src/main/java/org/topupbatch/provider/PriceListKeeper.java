package org.topupbatch.provider;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where one account's last price list is kept across restarts (the journal), with the instant it was
 * read. A provider may refuse a full list more often than its interval (Digiflazz answers rc 83 and
 * tells buyers to keep the list in their own database), so a restart starts from the kept list instead
 * of asking at once. The kept list is a cache: prices are still checked at sending, as with a list read
 * moments ago.
 */
public interface PriceListKeeper {

    /** A kept list and when it was read from the provider. */
    record Kept(Instant readAt, List<Product> products) {
        public Kept {
            products = List.copyOf(products);
        }
    }

    /** The last list kept for this account and provider, if any. */
    Optional<Kept> kept();

    /** Keeps a list just read, in the provider's order, replacing the one kept before. */
    void keep(Instant readAt, List<Product> products);

    /** Nothing kept, nothing read back: a catalog that lives in memory only ({@code plan}, tests). */
    PriceListKeeper NONE = new PriceListKeeper() {
        @Override
        public Optional<Kept> kept() {
            return Optional.empty();
        }

        @Override
        public void keep(Instant readAt, List<Product> products) {
        }
    };
}
