package org.topupbatch.submit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.ProductOutages;
import org.topupbatch.journal.ProductOutages.ProductOutage;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.provider.PriceListUnavailableException;
import org.topupbatch.provider.Product;
import org.topupbatch.provider.ProviderException;
import org.topupbatch.text.OneLine;

/**
 * Outages: hold, don't burn (docs/batch-files-and-reports.md#outages-rows-held-not-sent). When the provider refuses a
 * product as unavailable {@value #REFUSALS_TO_HOLD} times in a row, or once while a fresh price list
 * also lists it unavailable, the product's remaining rows are held in the journal instead of being
 * sent one by one into the same refusal. While a refusal's list read is under way, nothing more of
 * the product is sent either: only the orders already on the wire can be refused alike.
 *
 * <p>The watch ({@link #watch}, routes/submit.yaml) reads the price list every
 * {@code topup.outage-recheck} while something is held. Rows are rejected with "unavailable since
 * HH:MM" once {@code topup.outage-wait} has passed since the outage began; before that, a product that
 * a list read <em>after</em> its hold shows available goes on. Only an order sent after the latest
 * refusal of its product proves the product works again: an answer to an order sent before the outage
 * ends nothing.
 */
public final class ProductAvailability {

    /** Consecutive "unavailable" refusals of one product that hold its rows. */
    static final int REFUSALS_TO_HOLD = 3;
    /** How old a price list may be when a refusal asks it whether the product is down. */
    static final Duration FRESH_ENOUGH = Duration.ofSeconds(10);
    /** Refusals of many products at once read the list at most this often. */
    static final Duration LIST_READS_APART = Duration.ofSeconds(1);
    /** Refusals further apart than this are not "in a row". */
    static final Duration STREAK_GAP = Duration.ofMinutes(10);

    private static final Logger LOG = LoggerFactory.getLogger(ProductAvailability.class);

    private record Streak(int refusals, Instant lastAt) {
    }

    private final ProductOutages journal;
    private final CachedPriceCatalog prices;
    private final Duration wait;
    private final Duration recheck;
    private final Clock clock;
    private final Map<String, Streak> streaks = new ConcurrentHashMap<>();
    /** When an order of each product last worked: a list read before that cannot know of an outage since. */
    private final Map<String, Instant> lastWorked = new ConcurrentHashMap<>();
    /** Products with an outage on record (held or released), and those held: mirrors of the journal. */
    private final Set<String> onRecord = ConcurrentHashMap.newKeySet();
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    /** Products refused as unavailable whose list entry is being read, by how many threads: nothing is sent meanwhile. */
    private final Map<String, Integer> suspect = new ConcurrentHashMap<>();

    public ProductAvailability(ProductOutages journal, CachedPriceCatalog prices, Duration wait, Duration recheck,
                               Clock clock) {
        this.journal = journal;
        this.prices = prices;
        this.wait = wait;
        this.recheck = recheck;
        this.clock = clock;
    }

    /**
     * Whether the product's rows wait now (a row already taken is not sent): it is held, or a refusal
     * has just made it suspect and the price list is being asked.
     */
    boolean held(String sku) {
        return held.contains(sku) || suspect.containsKey(sku);
    }

    /** The provider refused an order of the row's product as unavailable. */
    void refused(RowRecord row, ProviderException e) {
        String sku = row.productSku();
        Instant now = clock.instant();
        int inARow = streaks.merge(sku, new Streak(1, now), (old, one) -> new Streak(
                now.isAfter(old.lastAt().plus(STREAK_GAP)) ? 1 : old.refusals() + 1, now)).refusals();
        if (held.contains(sku)) {
            return;
        }
        suspect.merge(sku, 1, Integer::sum);
        try {
            if (inARow >= REFUSALS_TO_HOLD || listedUnavailable(sku)) {
                hold(sku, e.code() + (e.providerMessage() == null ? "" : ": " + OneLine.of(e.providerMessage(), 200)));
            }
        } finally {
            suspect.computeIfPresent(sku, (k, n) -> n <= 1 ? null : n - 1);
        }
    }

    /**
     * An order of the product was taken. It proves the product works only when it was sent after the
     * product's latest refusal: an order on the wire since before the outage may answer late.
     */
    void worked(String sku, Instant sentAt) {
        Streak streak = streaks.get(sku);
        if (streak != null && sentAt != null && sentAt.isBefore(streak.lastAt())) {
            return;
        }
        streaks.remove(sku);
        lastWorked.put(sku, clock.instant());
        if (onRecord.remove(sku)) {
            synchronized (this) {
                held.remove(sku);
                journal.endOutage(sku);
            }
            LOG.info("Product {} is ordered again: its outage is over", sku);
        }
    }

    private boolean listedUnavailable(String sku) {
        Instant worked = lastWorked.get(sku);
        boolean listFromBefore = worked != null && prices.loadedAt().map(at -> at.isBefore(worked)).orElse(true);
        try {
            prices.refreshIfDue(listFromBefore ? LIST_READS_APART : FRESH_ENOUGH);
        } catch (PriceListUnavailableException e) {
            return false;
        }
        return prices.peek(sku).map(p -> !p.available()).orElse(false);
    }

    private void hold(String sku, String why) {
        boolean first;
        synchronized (this) {
            journal.holdProduct(sku, clock.instant(), why);
            onRecord.add(sku);
            first = held.add(sku);
        }
        // the count starts again, the time of the latest refusal stays: it dates the answers that prove nothing
        streaks.computeIfPresent(sku, (k, streak) -> new Streak(0, streak.lastAt()));
        if (first) {
            LOG.warn("Product {} is unavailable ({}): its rows are held, not sent; the price list is read every {}s to see"
                    + " whether it is back, and they are rejected if it is not back within {} min of the outage's start",
                    sku, why, recheck.toSeconds(), wait.toMinutes());
        }
    }

    /**
     * The watch, every few seconds: takes up outages on record (also those of an earlier run or the
     * other node), and while a product is held reads the price list every {@code topup.outage-recheck}:
     * one away longer than {@code topup.outage-wait} has its waiting rows rejected; one that a list read
     * after its hold shows available goes on.
     */
    public void watch() {
        List<ProductOutage> outages;
        synchronized (this) {
            // under the lock hold() takes: a hold made meanwhile is in this reading, never trimmed away
            outages = journal.productOutages();
            onRecord.retainAll(outages.stream().map(ProductOutage::sku).toList());
            held.retainAll(outages.stream().filter(ProductOutage::held).map(ProductOutage::sku).toList());
            outages.forEach(o -> onRecord.add(o.sku()));
            outages.stream().filter(ProductOutage::held).forEach(o -> held.add(o.sku()));
        }
        Instant now = clock.instant();
        boolean listRead = false;
        for (ProductOutage outage : outages) {
            if (!outage.held()) {
                if (now.isAfter(outage.updatedAt().plus(wait))) {
                    forget(outage.sku()); // released long ago and not refused since
                }
                continue;
            }
            if (!now.isBefore(outage.since().plus(wait))) {
                int rejected = journal.rejectWaitingRows(outage.sku(), unavailableSince(outage));
                forget(outage.sku());
                LOG.warn("Product {} has been unavailable since {}: {} waiting rows rejected", outage.sku(),
                        outage.sinceShown(), rejected);
                continue;
            }
            if (!listRead) {
                listRead = readList();
            }
            Optional<Product> listed = prices.peek(outage.sku());
            // a list read before the hold (or the one that let the refusals happen) says nothing new
            boolean readSinceHold = prices.loadedAt().map(at -> at.isAfter(outage.updatedAt())).orElse(false);
            if (listRead && readSinceHold && listed.isPresent() && listed.get().available()) {
                synchronized (this) {
                    journal.releaseProduct(outage.sku());
                    held.remove(outage.sku());
                }
                LOG.info("Product {} is listed available again: its {} waiting rows go out", outage.sku(), outage.rowsWaiting());
            }
        }
    }

    private synchronized void forget(String sku) {
        journal.endOutage(sku);
        onRecord.remove(sku);
        held.remove(sku);
    }

    private boolean readList() {
        try {
            prices.refreshIfDue(recheck);
            return true;
        } catch (PriceListUnavailableException e) {
            LOG.warn("Held products: {}", e.getMessage());
            return false;
        }
    }

    /** The message of a row rejected after the wait. */
    static String unavailableSince(ProductOutage outage) {
        return "unavailable since " + outage.sinceShown()
                + (outage.message() == null ? "" : " (" + outage.message() + ")") + "; not sent";
    }
}
