package org.topupbatch.submit;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.provider.Order;
import org.topupbatch.provider.PriceListUnavailableException;
import org.topupbatch.provider.Product;

/**
 * The price at the moment of sending (docs/batch-files-and-reports.md#prices-at-sending): a row goes out only while its
 * product's price is within the row's max_price and at most {@code topup.price-tolerance} above the
 * price the row was accepted at. Prices come from the shared price list, read again at its cache
 * time during a batch and at once after an order answer showed a price the list did not have; until
 * that read is back nothing is sent, so only orders already on the wire can be charged more than a
 * row allows.
 */
public final class PriceGuard {

    private static final Logger LOG = LoggerFactory.getLogger(PriceGuard.class);
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /** The price list of a row's account (null: the single account). */
    private final java.util.function.Function<String, CachedPriceCatalog> lists;
    private final BigDecimal tolerancePercent;
    private volatile Instant lastWarned;

    /** @param tolerancePercent how far (in percent) a price may rise above the accepted one, e.g. 10 */
    public PriceGuard(CachedPriceCatalog prices, BigDecimal tolerancePercent) {
        this(account -> prices, tolerancePercent);
    }

    /** Several accounts: each row's price is checked in its account's list, under its SKU there. */
    public PriceGuard(java.util.function.Function<String, CachedPriceCatalog> lists, BigDecimal tolerancePercent) {
        this.lists = lists;
        this.tolerancePercent = tolerancePercent;
    }

    /**
     * Before a row waits for the rate budget: reads the list again when its cache time is over or an
     * answer showed a new price. False when there is no list to check prices against (none could be
     * read, or the last one is older than the catalog's maximum age): then nothing is sent, as intake
     * takes nothing, until a read succeeds.
     */
    boolean refreshIfDue(RowRecord row) {
        CachedPriceCatalog prices = lists.apply(row.account());
        try {
            prices.refreshIfDue(CachedPriceCatalog.DEFAULT_TTL);
            return prices.loadedAt().isPresent();
        } catch (PriceListUnavailableException e) {
            Instant now = Instant.now();
            Instant last = lastWarned;
            if (last == null || now.isAfter(last.plusSeconds(60))) {
                lastWarned = now;
                LOG.warn("Rows wait: their prices cannot be checked: {}", e.getMessage());
            }
            return false;
        }
    }

    /** True while an answer showed a price the list has not been read again for: nothing goes out meanwhile. */
    boolean waitingForPrices(RowRecord row) {
        return lists.apply(row == null ? null : row.account()).changePending();
    }

    /** Several accounts: whether the row's account is one of this run's (a single account's rows always are). */
    boolean knows(RowRecord row) {
        return knows(row.account());
    }

    boolean knows(String account) {
        return lists.apply(account) != null;
    }

    /** How far a price may rise above the accepted one, in percent. */
    public BigDecimal tolerancePercent() {
        return tolerancePercent;
    }

    /** Why the row must not go out at the product's current price, or empty when it may. */
    Optional<String> refusal(RowRecord row) {
        Optional<Product> product = lists.apply(row.account()).peek(row.orderSku());
        if (product.isEmpty()) {
            return Optional.empty(); // not listed now: the provider decides
        }
        long now = product.get().price();
        Long accepted = row.price();
        Long max = row.maxPrice();
        if (max != null && now > max) {
            return Optional.of("price " + now + " now, above max_price " + max
                    + (accepted == null ? "" : " (" + accepted + " when accepted)") + "; not sent");
        }
        if (accepted != null && accepted > 0 && BigDecimal.valueOf(now).multiply(HUNDRED)
                .compareTo(BigDecimal.valueOf(accepted).multiply(HUNDRED.add(tolerancePercent))) > 0) {
            return Optional.of("price " + now + " now, more than " + tolerancePercent.stripTrailingZeros().toPlainString()
                    + "% above " + accepted + " when accepted (topup.price-tolerance); not sent");
        }
        return Optional.empty();
    }

    /** An order answer: a price the list did not have makes the list read again before anything else goes out. */
    void observe(Order order, RowRecord row) {
        if (order.price() != null && lists.apply(row.account()).observe(row.orderSku(), order.price())) {
            LOG.info("Price of {} is now {} (order {}); reading the price list again before sending more",
                    row.orderSku(), order.price(), row.orderRefId());
        }
    }
}
