package org.topupbatch.provider;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;


class CachedPriceCatalogTest {

    static final class FakeClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    final FakeClock clock = new FakeClock();
    final AtomicInteger calls = new AtomicInteger();
    volatile long price = 1000;
    volatile boolean failing;

    final Supplier<List<Product>> loader = () -> {
        calls.incrementAndGet();
        if (failing) {
            throw new IllegalStateException("provider down");
        }
        return List.of(new Product("A", "A item", "TELKOMSEL", "pulsa", price, price + 500, true, ""));
    };

    CachedPriceCatalog catalog() {
        return new CachedPriceCatalog(loader, Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofSeconds(30), clock);
    }

    @Test
    void fetchesOncePerTtl() {
        CachedPriceCatalog catalog = catalog();
        assertThat(catalog.find("A").orElseThrow().price()).isEqualTo(1000);
        price = 2000;
        clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        assertThat(catalog.find("A").orElseThrow().price()).isEqualTo(1000);
        assertThat(catalog.find("B")).isEmpty();
        assertThat(calls).hasValue(1);
        clock.advance(Duration.ofSeconds(1));
        assertThat(catalog.find("A").orElseThrow().price()).isEqualTo(2000);
        assertThat(calls).hasValue(2);
    }

    @Test
    void failedRefreshServesTheLastListUntilMaxAgeWithoutHammeringTheProvider() {
        CachedPriceCatalog catalog = catalog();
        catalog.find("A");
        failing = true;
        clock.advance(Duration.ofMinutes(6));
        assertThat(catalog.find("A")).isPresent();
        assertThat(catalog.find("A")).isPresent();
        assertThat(calls).hasValue(2); // one failed attempt, then a pause
        clock.advance(Duration.ofSeconds(30));
        assertThat(catalog.find("A")).isPresent();
        assertThat(calls).hasValue(3);
        clock.advance(Duration.ofMinutes(24));
        assertThatThrownBy(() -> catalog.find("A"))
                .isInstanceOf(PriceListUnavailableException.class)
                .hasMessageContaining("older than PT30M").hasMessageContaining("provider down");
        failing = false;
        clock.advance(Duration.ofSeconds(30));
        assertThat(catalog.find("A")).isPresent();
    }

    @Test
    void noListAtAllThrows() {
        failing = true;
        assertThatThrownBy(() -> catalog().find("A"))
                .isInstanceOf(PriceListUnavailableException.class)
                .hasMessage("the price list could not be fetched: provider down");
    }

    @Test
    void ttlMustBeFiveToTenMinutes() {
        assertThatThrownBy(() -> new CachedPriceCatalog(loader, Duration.ofMinutes(1), Duration.ofMinutes(30), Duration.ofSeconds(1), clock))
                .isInstanceOf(IllegalArgumentException.class);
        new CachedPriceCatalog(loader, Duration.ofMinutes(10), Duration.ofMinutes(10), Duration.ofSeconds(1), clock);
    }

    @Test
    void concurrentReadersShareOneFetch() throws InterruptedException {
        CachedPriceCatalog catalog = catalog();
        Thread[] threads = new Thread[8];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new Thread(() -> {
                for (int j = 0; j < 1000; j++) {
                    catalog.find("A").orElseThrow();
                }
            });
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(calls).hasValue(1);
    }

    @Test
    void anAnswersNewPriceIsTakenAtOnceAndTheListIsReadAgain() {
        CachedPriceCatalog c = catalog();
        assertThat(c.find("A").orElseThrow().price()).isEqualTo(1000);
        assertThat(c.observe("A", 1000)).as("same price: nothing to do").isFalse();
        assertThat(c.changePending()).isFalse();
        price = 1300;
        assertThat(c.observe("A", 1300)).isTrue();
        assertThat(c.peek("A").orElseThrow().price()).isEqualTo(1300);
        assertThat(c.changePending()).isTrue();
        c.refreshIfDue(Duration.ofMinutes(5));
        assertThat(calls).hasValue(2);
        assertThat(c.changePending()).isFalse();
        c.refreshIfDue(Duration.ofMinutes(5));
        assertThat(calls).as("fresh and nothing observed: not read again").hasValue(2);
    }

    @Test
    void aListThatCannotBeReadDoesNotHoldSendingBack() {
        CachedPriceCatalog c = catalog();
        c.find("A");
        c.observe("A", 1300);
        failing = true;
        c.refreshIfDue(Duration.ofMinutes(5));
        assertThat(c.changePending()).isFalse();
        assertThat(c.peek("A").orElseThrow().price()).as("the observed price stays").isEqualTo(1300);
    }

    @Test
    void aShorterWantedAgeReadsSooner() {
        CachedPriceCatalog c = catalog();
        c.find("A");
        clock.advance(Duration.ofSeconds(61));
        c.refreshIfDue(Duration.ofMinutes(5));
        assertThat(calls).hasValue(1);
        c.refreshIfDue(Duration.ofMinutes(1));
        assertThat(calls).hasValue(2);
    }

    @Test
    void peekNeverAsksTheProvider() {
        CachedPriceCatalog c = catalog();
        assertThat(c.peek("A")).isEmpty();
        assertThat(calls).hasValue(0);
    }

    // ---- the kept list (docs/batch-files-and-reports.md#price-list)

    /** A keeper in memory, as the journal's behaves: what was kept last, with its read instant. */
    static final class KeptInMemory implements PriceListKeeper {
        volatile PriceListKeeper.Kept kept;

        @Override
        public java.util.Optional<Kept> kept() {
            return java.util.Optional.ofNullable(kept);
        }

        @Override
        public void keep(Instant readAt, List<Product> products) {
            kept = new Kept(readAt, products);
        }
    }

    CachedPriceCatalog catalog(PriceListKeeper keeper) {
        return new CachedPriceCatalog(loader, Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofSeconds(30), clock,
                keeper, "account dfz");
    }

    @Test
    void eachReadIsKeptAndAKeptListOlderThanTheMaxAgeIsNotUsed() {
        KeptInMemory keeper = new KeptInMemory();
        catalog(keeper).find("A");
        assertThat(keeper.kept.readAt()).isEqualTo(clock.now);
        assertThat(keeper.kept.products()).extracting(Product::price).containsExactly(1000L);

        clock.advance(Duration.ofMinutes(31));
        failing = true;
        assertThatThrownBy(() -> catalog(keeper).find("A")).isInstanceOf(PriceListUnavailableException.class);
    }

    @Test
    void aReadThatFailsWithNoListBehindItIsTriedAgainAfterTheFirstWaitEachTime() {
        failing = true;
        CachedPriceCatalog c = catalog(new KeptInMemory());
        for (int i = 0; i < 4; i++) {
            assertThatThrownBy(() -> c.refreshIfDue(Duration.ofMinutes(5))).isInstanceOf(PriceListUnavailableException.class);
            clock.advance(Duration.ofSeconds(30));
        }
        assertThat(calls).as("rows wait for a list: no longer pause than 30 s").hasValue(4);
    }

    @Test
    void aWaitTheProviderNamedIsKeptWhenItIsLongerThanTheBackOff() {
        KeptInMemory keeper = new KeptInMemory();
        keeper.keep(clock.now.minus(Duration.ofMinutes(6)), List.of(new Product("A", "A", "B", "c", 900, 0, true, "")));
        CachedPriceCatalog c = new CachedPriceCatalog(() -> {
            calls.incrementAndGet();
            throw new ProviderException("price-list", ProviderError.RATE_LIMIT_EXCEEDED, 429, false, "slow down", 200L, null);
        }, Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofSeconds(30), clock, keeper, "account dfz");
        c.refreshIfDue(Duration.ofMinutes(5));
        assertThat(c.peek("A").orElseThrow().price()).isEqualTo(900);
        clock.advance(Duration.ofSeconds(199));
        c.refreshIfDue(Duration.ofMinutes(5));
        assertThat(calls).hasValue(1);
        clock.advance(Duration.ofSeconds(1));
        c.refreshIfDue(Duration.ofMinutes(5));
        assertThat(calls).hasValue(2);
    }
}
