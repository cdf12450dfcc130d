package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.provider.PriceListKeeper;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.provider.Product;
import org.topupbatch.testing.MutableClock;

/**
 * Each account's last price list kept in the journal (docs/batch-files-and-reports.md#price-list, migration V22): read back
 * whole and in the provider's order after the journal is closed and opened again, per account and per
 * provider, replaced whole by the next list; and a catalog over a reopened journal (a restart) starts
 * from it, asks the provider nothing while it is within its cache time, and keeps serving it when the
 * provider refuses a read (Digiflazz's rc 83). Run on H2 and on PostgreSQL by the subclasses.
 */
abstract class PriceListKeepingContractTest extends JournalPerTest {

    static final Instant T0 = Instant.parse("2026-11-27T10:00:00Z");
    static final String DFZ_URL = "http://127.0.0.1:9/dfz";

    static Product product(String sku, long price, boolean available, String description) {
        return new Product(sku, sku + " item", "TELKOMSEL", "Pulsa", price, price + 500, available, description);
    }

    static List<Product> list(int size, long basePrice) {
        List<Product> products = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            products.add(product("SKU" + (size - i), basePrice + i, i % 7 != 0, "desc " + i));
        }
        return products;
    }

    @Test
    void nothingIsKeptAtFirst() {
        assertThat(journal.priceListOf("dfz", DFZ_URL).kept()).isEmpty();
        assertThat(journal.priceListOf(null, DFZ_URL).kept()).isEmpty();
    }

    @Test
    void aKeptListSurvivesReopeningWholeAndInTheProvidersOrder() {
        List<Product> products = list(1_200, 19_800);
        products.set(3, new Product("ODD", null, null, null, 5, 0, false, null));
        journal.priceListOf("dfz", DFZ_URL).keep(T0, products);
        journal.close();

        journal = open();
        PriceListKeeper.Kept kept = journal.priceListOf("dfz", DFZ_URL).kept().orElseThrow();
        assertThat(kept.readAt()).isEqualTo(T0);
        assertThat(kept.products()).containsExactlyElementsOf(products);
    }

    @Test
    void eachAccountAndProviderHasItsOwnAndTheNextListReplacesTheLastWhole() {
        journal.priceListOf("dfz", DFZ_URL).keep(T0, list(50, 19_800));
        journal.priceListOf("main", "http://127.0.0.1:9/main").keep(T0.plusSeconds(5), list(3, 21_708));
        journal.priceListOf(null, "http://127.0.0.1:9/single").keep(T0.plusSeconds(9), list(2, 100));
        journal.priceListOf("dfz", DFZ_URL).keep(T0.plusSeconds(300), list(4, 20_000));

        assertThat(journal.priceListOf("dfz", DFZ_URL).kept().orElseThrow())
                .isEqualTo(new PriceListKeeper.Kept(T0.plusSeconds(300), list(4, 20_000)));
        assertThat(journal.priceListOf("main", "http://127.0.0.1:9/main").kept().orElseThrow().products())
                .isEqualTo(list(3, 21_708));
        assertThat(journal.priceListOf(null, "http://127.0.0.1:9/single").kept().orElseThrow().products())
                .isEqualTo(list(2, 100));
        // a list from another provider (the account now points elsewhere) is never handed back
        assertThat(journal.priceListOf("dfz", "https://api.digiflazz.com").kept()).isEmpty();
        assertThat(journal.priceListOf("other", DFZ_URL).kept()).isEmpty();
    }

    @Test
    void aFieldLongerThanItsColumnIsKeptCutNotRefused() {
        String longText = "x".repeat(12_000);
        journal.priceListOf("dfz", DFZ_URL).keep(T0, List.of(product("LONG", 1_000, true, longText)));
        Product kept = journal.priceListOf("dfz", DFZ_URL).kept().orElseThrow().products().get(0);
        assertThat(kept.description()).hasSize(10_000);
        assertThat(kept.price()).isEqualTo(1_000);
    }

    @Test
    void aRestartWithinTheCacheTimeAsksTheProviderNothingAndARefusalLaterKeepsTheKeptList() {
        MutableClock clock = new MutableClock(T0);
        AtomicInteger reads = new AtomicInteger();
        List<Product> dfzList = List.of(product("TSEL10", 19_800, true, ""), product("FF100", 15_000, true, ""));
        // the first process reads the list and keeps it
        CachedPriceCatalog first = new CachedPriceCatalog(() -> {
            reads.incrementAndGet();
            return dfzList;
        }, CachedPriceCatalog.DEFAULT_TTL, CachedPriceCatalog.DEFAULT_MAX_AGE, Duration.ofSeconds(30), clock,
                journal.priceListOf("dfz", DFZ_URL), "account dfz");
        assertThat(first.find("TSEL10").orElseThrow().price()).isEqualTo(19_800);
        assertThat(reads).hasValue(1);
        journal.close();

        // a restart 40 s later, while the provider refuses every full list (rc 83 within its interval)
        journal = open();
        clock.advance(Duration.ofSeconds(40));
        CachedPriceCatalog restarted = new CachedPriceCatalog(() -> {
            reads.incrementAndGet();
            throw new ProviderException("price-list", "RC_83", 200, false,
                    "Anda telah mencapai limitasi pengecekan pricelist", null, null);
        }, CachedPriceCatalog.DEFAULT_TTL, CachedPriceCatalog.DEFAULT_MAX_AGE, Duration.ofSeconds(30), clock,
                journal.priceListOf("dfz", DFZ_URL), "account dfz");
        restarted.refreshIfDue(CachedPriceCatalog.DEFAULT_TTL);
        assertThat(restarted.find("TSEL10").orElseThrow().price()).isEqualTo(19_800);
        assertThat(restarted.loadedAt()).as("aged from its read, not from the restart").contains(T0);
        assertThat(reads).as("no read within the cache time of the kept list").hasValue(1);

        // past the cache time the read is refused: the kept list serves, the next reads back off
        clock.advance(Duration.ofMinutes(5));
        restarted.refreshIfDue(CachedPriceCatalog.DEFAULT_TTL);
        assertThat(reads).hasValue(2);
        assertThat(restarted.peek("TSEL10").orElseThrow().price()).isEqualTo(19_800);
        List<Integer> readsAt = new ArrayList<>();
        for (int s = 1; s <= 460; s++) {
            clock.advance(Duration.ofSeconds(1));
            int before = reads.get();
            restarted.refreshIfDue(CachedPriceCatalog.DEFAULT_TTL);
            if (reads.get() > before) {
                readsAt.add(s);
            }
        }
        assertThat(readsAt).as("seconds after the first refusal of each further read").containsExactly(30, 90, 210, 450);
    }
}
