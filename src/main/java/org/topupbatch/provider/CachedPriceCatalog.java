package org.topupbatch.provider;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * The provider's price list, fetched through {@code loader} at most once per {@code ttl}
 * (the interface asks clients to cache it 5 to 10 minutes; every fetch costs rate budget).
 *
 * <p>When a refresh fails, the last list keeps serving while it is younger than {@code maxAge}
 * (prices change about every 30 minutes, so a slightly old list is still a good guess), and the
 * loader is not asked again before {@code retryAfterFailure} so that an outage does not turn every
 * row into a provider call. With no list young enough, {@link #find} throws
 * {@link PriceListUnavailableException}. Thread-safe: one refresh at a time, readers never block
 * on a fresh list.
 *
 * <p>Sending uses it too (submit's price guard): a create-order answer tells the real price, and one
 * that differs from the list is {@linkplain #observe observed}: the product's price is taken at once
 * and the whole list is read again at the next {@link #refreshIfDue}, whatever its age, because
 * prices move together. Until that read has succeeded, {@link #changePending} says so, and the
 * guard sends nothing that the old list would price.
 *
 * <p>Each list read is {@linkplain PriceListKeeper#keep kept} (in the journal), and before its first
 * read the catalog starts from the kept list when that is younger than {@code maxAge}, as of the
 * instant it was read: a restart within the cache time asks the provider nothing, and one after it
 * still has a list when the provider refuses (Digiflazz's rc 83 within its interval). After a failed
 * read the next waits longer each time while a list serves ({@link ReadBackOff}: 30 s doubling up to
 * the cache time), and 30 s while none does.
 */
public final class CachedPriceCatalog implements PriceCatalog {

    public static final Duration DEFAULT_TTL = Duration.ofMinutes(5);
    public static final Duration DEFAULT_MAX_AGE = Duration.ofMinutes(30);
    public static final Duration DEFAULT_RETRY_AFTER_FAILURE = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(CachedPriceCatalog.class);

    private final Supplier<List<Product>> loader;
    private final PriceListKeeper keeper;
    /** How logs name the list: "account dfz", or "the provider" for the single account. */
    private final String shownAs;
    private final ReadBackOff backOff;
    private volatile boolean keptListRestored;
    private final Duration ttl;
    private final Duration maxAge;
    private final Duration retryAfterFailure;
    private final Clock clock;

    private volatile Snapshot snapshot;
    /** Counts observed price changes; a load that began before the newest one cannot clear it. */
    private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
    private volatile long changesLoaded;
    /** Prices order answers showed since the last regular read: a list lagging behind them does not undo them. */
    private final Map<String, Long> observed = new java.util.concurrent.ConcurrentHashMap<>();
    private Instant nextAttemptAfterFailure;
    private RuntimeException lastFailure;

    private record Snapshot(Map<String, Product> bySku, Instant loadedAt) {
    }

    public CachedPriceCatalog(Supplier<List<Product>> loader) {
        this(loader, DEFAULT_TTL, DEFAULT_MAX_AGE, DEFAULT_RETRY_AFTER_FAILURE, Clock.systemUTC());
    }

    /** A run's catalog: each list read is kept by {@code keeper}, and the kept one serves after a restart. */
    public CachedPriceCatalog(Supplier<List<Product>> loader, PriceListKeeper keeper, String shownAs) {
        this(loader, DEFAULT_TTL, DEFAULT_MAX_AGE, DEFAULT_RETRY_AFTER_FAILURE, Clock.systemUTC(), keeper, shownAs);
    }

    public CachedPriceCatalog(Supplier<List<Product>> loader, Duration ttl, Duration maxAge,
                              Duration retryAfterFailure, Clock clock) {
        this(loader, ttl, maxAge, retryAfterFailure, clock, PriceListKeeper.NONE, "the provider");
    }

    /**
     * @param ttl how long a fetched list is used before asking again: 5 to 10 minutes
     * @param maxAge how old a list may get when refreshing fails; at least {@code ttl}
     * @param retryAfterFailure the first wait after a failed read; each further failure doubles it, up to {@code ttl}
     * @param keeper where each list read is kept, and the list to start from is found
     */
    public CachedPriceCatalog(Supplier<List<Product>> loader, Duration ttl, Duration maxAge,
                              Duration retryAfterFailure, Clock clock, PriceListKeeper keeper, String shownAs) {
        if (ttl.compareTo(Duration.ofMinutes(5)) < 0 || ttl.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("price list cache time must be 5 to 10 minutes, not " + ttl);
        }
        if (maxAge.compareTo(ttl) < 0) {
            throw new IllegalArgumentException("price list max age " + maxAge + " is shorter than its cache time " + ttl);
        }
        this.loader = loader;
        this.ttl = ttl;
        this.maxAge = maxAge;
        this.retryAfterFailure = retryAfterFailure;
        this.clock = clock;
        this.keeper = keeper;
        this.shownAs = shownAs;
        this.backOff = new ReadBackOff(retryAfterFailure, ttl);
    }

    @Override
    public Optional<Product> find(String sku) {
        return Optional.ofNullable(current().bySku().get(sku));
    }

    /** The product as the list last known it (with observed prices), without asking the provider. */
    public Optional<Product> peek(String sku) {
        Snapshot s = snapshot();
        return s == null ? Optional.empty() : Optional.ofNullable(s.bySku().get(sku));
    }

    /**
     * An order answer's price for {@code sku}: when it differs from the list, the list takes it at once
     * and is read again at the next {@link #refreshIfDue}. Returns whether the price had changed.
     */
    public boolean observe(String sku, long price) {
        synchronized (this) {
            Snapshot s = snapshot;
            Product known = s == null ? null : s.bySku().get(sku);
            if (known == null || known.price() == price || price <= 0) {
                return false;
            }
            Map<String, Product> bySku = new LinkedHashMap<>(s.bySku());
            bySku.put(sku, new Product(known.sku(), known.name(), known.brand(), known.category(), price,
                    known.sellingPrice(), known.available(), known.description()));
            snapshot = new Snapshot(java.util.Collections.unmodifiableMap(bySku), s.loadedAt());
            observed.put(sku, price);
            changes.incrementAndGet();
            nextAttemptAfterFailure = null;
            return true;
        }
    }

    /** When the list in use was read, if it was. */
    public Optional<Instant> loadedAt() {
        Snapshot s = snapshot();
        return s == null ? Optional.empty() : Optional.of(s.loadedAt());
    }

    /** True from an observed price change until a list read after it has arrived (or failed). */
    public boolean changePending() {
        return changes.get() != changesLoaded;
    }

    /**
     * Reads the list again when its cache time is over, an observed change asks for it, or it is older
     * than {@code maxAgeWanted} (to learn sooner that a product is back); otherwise does nothing.
     *
     * @throws PriceListUnavailableException when it is due, cannot be read and the last list is too old
     */
    public void refreshIfDue(Duration maxAgeWanted) {
        Duration wanted = maxAgeWanted.compareTo(ttl) < 0 ? maxAgeWanted : ttl;
        Snapshot s = snapshot();
        Instant now = clock.instant();
        if (s == null || changePending() || !now.isBefore(s.loadedAt().plus(wanted))) {
            refresh(now, wanted);
        }
    }

    /** Every product of the current list, in the provider's order. */
    public List<Product> products() {
        return List.copyOf(current().bySku().values());
    }

    private Snapshot current() {
        Snapshot s = snapshot();
        Instant now = clock.instant();
        if (s != null && now.isBefore(s.loadedAt().plus(ttl))) {
            return s;
        }
        return refresh(now, ttl);
    }

    /** The list in use; before the first read, the kept one when it is young enough. */
    private Snapshot snapshot() {
        if (!keptListRestored) {
            restoreKeptList();
        }
        return snapshot;
    }

    private synchronized void restoreKeptList() {
        if (keptListRestored) {
            return;
        }
        keptListRestored = true;
        try {
            Optional<PriceListKeeper.Kept> kept = keeper.kept();
            if (kept.isEmpty() || snapshot != null) {
                return;
            }
            Instant readAt = kept.get().readAt();
            Duration age = Duration.between(readAt, clock.instant());
            if (age.compareTo(maxAge) > 0) {
                LOG.info("Price list of {}: the kept one, read at {}, is older than {}; reading it again", shownAs, readAt,
                        maxAge);
                return;
            }
            snapshot = new Snapshot(bySku(kept.get().products()), readAt);
            LOG.info("Price list of {}: {} products kept from {} ({} s ago); {}", shownAs, kept.get().products().size(),
                    readAt, Math.max(0, age.toSeconds()), age.compareTo(ttl) < 0
                            ? "read again at " + readAt.plus(ttl) : "reading it again now, this one serves if that fails");
        } catch (RuntimeException e) {
            LOG.warn("Price list of {}: the kept one cannot be read ({}); asking the provider", shownAs, e.getMessage());
        }
    }

    private static Map<String, Product> bySku(List<Product> products) {
        Map<String, Product> bySku = new LinkedHashMap<>();
        for (Product p : products) {
            bySku.putIfAbsent(p.sku(), p);
        }
        return java.util.Collections.unmodifiableMap(bySku);
    }

    private synchronized Snapshot refresh(Instant now, Duration wantedAge) {
        Snapshot s = snapshot;
        long changesAtStart = changes.get();
        if (s != null && changesAtStart == changesLoaded && now.isBefore(s.loadedAt().plus(wantedAge))) {
            return s; // another thread refreshed while this one waited
        }
        if (nextAttemptAfterFailure == null || !now.isBefore(nextAttemptAfterFailure)) {
            try {
                List<Product> read = loader.get();
                Map<String, Product> bySku = new LinkedHashMap<>(bySku(read));
                if (changesAtStart == changesLoaded) {
                    observed.clear(); // a regular read: the list is the word on prices again
                } else {
                    // read because an answer showed a new price: where the list is still behind, the
                    // answer's price (what was really charged) stands until the next regular read
                    observed.forEach((sku, price) -> bySku.computeIfPresent(sku, (k, p) -> p.price() >= price ? p
                            : new Product(p.sku(), p.name(), p.brand(), p.category(), price, p.sellingPrice(),
                                    p.available(), p.description())));
                }
                snapshot = new Snapshot(java.util.Collections.unmodifiableMap(bySku), now);
                nextAttemptAfterFailure = null;
                lastFailure = null;
                backOff.reset();
                changesLoaded = changesAtStart;
                keep(now, read);
                return snapshot;
            } catch (RuntimeException e) {
                lastFailure = e;
                boolean serving = s != null && !now.isAfter(s.loadedAt().plus(maxAge));
                Duration wait = backOff.after(e, serving);
                nextAttemptAfterFailure = now.plus(wait);
                // the observed prices stay; waiting for a list that cannot be read would stop every batch
                changesLoaded = changesAtStart;
                LOG.warn("Price list of {} could not be read ({}); {}; next read in {} s", shownAs, e.getMessage(),
                        serving ? "the one read at " + s.loadedAt() + " stays in use" : "no list young enough to use",
                        wait.toSeconds());
            }
        }
        if (s != null && !now.isAfter(s.loadedAt().plus(maxAge))) {
            return s;
        }
        throw new PriceListUnavailableException("the price list could not be fetched"
                + (s == null ? "" : " and the last one, from " + s.loadedAt() + ", is older than " + maxAge)
                + (lastFailure == null ? "" : ": " + lastFailure.getMessage()), lastFailure);
    }

    /** Keeps a list just read; a journal that cannot take it costs only the restart's head start. */
    private void keep(Instant readAt, List<Product> products) {
        try {
            keeper.keep(readAt, products);
        } catch (RuntimeException e) {
            LOG.warn("Price list of {}: read, but it could not be kept in the journal ({})", shownAs, e.getMessage());
        }
    }
}
