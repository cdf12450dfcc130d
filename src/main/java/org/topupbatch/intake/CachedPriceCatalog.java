package org.topupbatch.intake;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.topupbatch.provider.Product;

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
 */
public final class CachedPriceCatalog implements PriceCatalog {

    public static final Duration DEFAULT_TTL = Duration.ofMinutes(5);
    public static final Duration DEFAULT_MAX_AGE = Duration.ofMinutes(30);
    public static final Duration DEFAULT_RETRY_AFTER_FAILURE = Duration.ofSeconds(30);

    private final Supplier<List<Product>> loader;
    private final Duration ttl;
    private final Duration maxAge;
    private final Duration retryAfterFailure;
    private final Clock clock;

    private volatile Snapshot snapshot;
    private Instant nextAttemptAfterFailure;
    private RuntimeException lastFailure;

    private record Snapshot(Map<String, Product> bySku, Instant loadedAt) {
    }

    public CachedPriceCatalog(Supplier<List<Product>> loader) {
        this(loader, DEFAULT_TTL, DEFAULT_MAX_AGE, DEFAULT_RETRY_AFTER_FAILURE, Clock.systemUTC());
    }

    /**
     * @param ttl how long a fetched list is used before asking again: 5 to 10 minutes
     * @param maxAge how old a list may get when refreshing fails; at least {@code ttl}
     */
    public CachedPriceCatalog(Supplier<List<Product>> loader, Duration ttl, Duration maxAge,
                              Duration retryAfterFailure, Clock clock) {
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
    }

    @Override
    public Optional<Product> find(String sku) {
        return Optional.ofNullable(current().bySku().get(sku));
    }

    /** Every product of the current list, in the provider's order. */
    public List<Product> products() {
        return List.copyOf(current().bySku().values());
    }

    private Snapshot current() {
        Snapshot s = snapshot;
        Instant now = clock.instant();
        if (s != null && now.isBefore(s.loadedAt().plus(ttl))) {
            return s;
        }
        return refresh(now);
    }

    private synchronized Snapshot refresh(Instant now) {
        Snapshot s = snapshot;
        if (s != null && now.isBefore(s.loadedAt().plus(ttl))) {
            return s; // another thread refreshed while this one waited
        }
        if (nextAttemptAfterFailure == null || !now.isBefore(nextAttemptAfterFailure)) {
            try {
                Map<String, Product> bySku = new LinkedHashMap<>();
                for (Product p : loader.get()) {
                    bySku.putIfAbsent(p.sku(), p);
                }
                snapshot = new Snapshot(java.util.Collections.unmodifiableMap(bySku), now);
                nextAttemptAfterFailure = null;
                lastFailure = null;
                return snapshot;
            } catch (RuntimeException e) {
                lastFailure = e;
                nextAttemptAfterFailure = now.plus(retryAfterFailure);
            }
        }
        if (s != null && !now.isAfter(s.loadedAt().plus(maxAge))) {
            return s;
        }
        throw new PriceListUnavailableException("the price list could not be fetched"
                + (s == null ? "" : " and the last one, from " + s.loadedAt() + ", is older than " + maxAge)
                + (lastFailure == null ? "" : ": " + lastFailure.getMessage()), lastFailure);
    }
}
