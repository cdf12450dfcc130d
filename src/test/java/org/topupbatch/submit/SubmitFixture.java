package org.topupbatch.submit;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.Balance;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.provider.Product;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.testing.MutableClock;

/** A real H2 journal with one batch of ACCEPTED rows, the submit beans over it, and a test clock. */
final class SubmitFixture implements AutoCloseable {

    static final Instant T0 = Instant.parse("2025-03-01T08:00:00Z");

    final MutableClock clock = new MutableClock(T0);
    final JdbcJournal journal;
    final long batchId;
    final AtomicInteger balanceReads = new AtomicInteger();
    final List<ProviderException> rateLimited = new ArrayList<>();
    volatile Supplier<Balance> balance = () -> new Balance(900_000, "IDR", "basic", "Demo");
    /** The provider's price list as the fixture's catalog reads it; change it and the next read sees it. */
    volatile List<Product> priceList = List.of(product("ML86", 20_000, true));
    final CachedPriceCatalog prices;
    final PriceGuard priceGuard;
    final ProductAvailability availability;
    final OrderQueue queue;
    final SubmitOutcomes outcomes;

    SubmitFixture(Path dir, int rows) {
        this(dir, rows, null);
    }

    /** @param maxPrice every row's max_price (null: none) */
    SubmitFixture(Path dir, int rows, Long maxPrice) {
        this(dir, rows, maxPrice, null);
    }

    /** @param route every row's route across several accounts (null: a single account) */
    SubmitFixture(Path dir, int rows, Long maxPrice, org.topupbatch.journal.RowRoute route) {
        journal = JdbcJournal.open(dir.resolve("data"), null, null, null, clock);
        try (BatchWriter writer = journal.intake().openBatch("orders.csv", ',', org.topupbatch.journal.BatchEncoding.UTF_8, List.of(), "archive/orders.csv", 900_000L, "sandbox")) {
            for (int i = 0; i < rows; i++) {
                writer.add(new NewRow(i, i + 2, "R-" + i, "ML86", "12345678" + i, "1234", maxPrice, List.of(),
                        RowState.ACCEPTED, 20_000L, null, null, route));
            }
            batchId = writer.commit();
        }
        BalanceBefore before = new BalanceBefore(journal.submission(), () -> {
            balanceReads.incrementAndGet();
            return balance.get();
        }, clock);
        prices = new CachedPriceCatalog(() -> {
            List<Product> list = priceList;
            if (list == null) {
                throw new IllegalStateException("the price list cannot be read");
            }
            return list;
        }, Duration.ofMinutes(5), Duration.ofMinutes(30),
                Duration.ofSeconds(30), clock);
        priceGuard = new PriceGuard(prices, BigDecimal.TEN);
        availability = new ProductAvailability(journal.outages(), prices, Duration.ofMinutes(30), Duration.ofMinutes(1), clock);
        queue = new OrderQueue(journal.submission(), before, clock, priceGuard, availability, () -> 300);
        outcomes = new SubmitOutcomes(journal.submission(), queue, rateLimited::add, clock, priceGuard, availability);
    }

    static Product product(String sku, long price, boolean available) {
        return new Product(sku, sku + " item", "MOBILE LEGENDS", "games", price, price + 1000, available, "");
    }

    RowRecord row(int i) {
        // a rejected row has no order ref_id any more: found among the batch's rows
        return journal.tracking().findOrder("R-" + i).orElseGet(() -> journal.status().rowsOfBatch(batchId, List.of(RowState.values()), 10_000)
                .stream().filter(r -> r.refId().equals("R-" + i)).findFirst().orElseThrow());
    }

    RowState state(int i) {
        return row(i).state();
    }

    /** Marks the row SENDING as the route does once its reservation is held. */
    RowRecord sending(int i) {
        RowRecord row = row(i);
        if (!journal.submission().markSending(row.id(), row.attempt(), clock.instant())) {
            throw new IllegalStateException("row " + i + " was not ACCEPTED");
        }
        return row(i);
    }

    @Override
    public void close() {
        journal.close();
    }
}
