package org.topupbatch.intake;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.topupbatch.journal.RowRoute;
import org.topupbatch.provider.AccountsCatalog;
import org.topupbatch.provider.PriceCatalog;
import org.topupbatch.provider.ProductMap;
import org.topupbatch.provider.Product;
import org.topupbatch.provider.Routing;

/**
 * Which accounts can take an accepted row, best first (docs/accounts-and-dialects.md#several-accounts),
 * decided when the batch is taken, from each account's price list as it is then. A row no account
 * can take is rejected with the reason. The price lists the intake's checks see are the same ones.
 *
 * <p>The unnamed account of topup.base-url is a list of one: every row it can take goes to it, and a row
 * there carries no route, as its rows always were journaled (its report keeps its columns).
 */
public final class RowRouter {

    /** An accepted row's route and its price at its first account; or, when no account can take it, why. */
    public record Routed(RowRoute route, long price, String refusal) {
    }

    private final ProductMap map;
    private final Map<String, Map<String, Product>> priceLists;

    /** @param priceLists each account's price list; an account whose list could not be read is left out */
    public RowRouter(ProductMap map, Map<String, List<Product>> priceLists) {
        this.map = map;
        this.priceLists = new HashMap<>();
        priceLists.forEach((account, products) -> {
            Map<String, Product> bySku = new HashMap<>();
            products.forEach(p -> bySku.putIfAbsent(p.sku(), p));
            this.priceLists.put(account, bySku);
        });
    }

    /** The price list the row checks see: a product is known when some account mapped to it lists it. */
    public PriceCatalog catalog() {
        return new AccountsCatalog(map, priceLists);
    }

    public Routed route(String product, Long maxPrice) {
        Routing.Decision decision = Routing.route(map.routeFor(product), maxPrice, priceLists);
        if (!decision.routed()) {
            return new Routed(null, 0, decision.reason());
        }
        List<RowRoute.Stop> stops = new ArrayList<>();
        for (Routing.Candidate c : decision.candidates()) {
            if (c.account() != null) { // the unnamed account's row has no route to journal
                stops.add(new RowRoute.Stop(c.account(), c.sku(), c.price()));
            }
        }
        return new Routed(stops.isEmpty() ? null : new RowRoute(stops), decision.first().price(), null);
    }

    /**
     * Whether a row may be routed to a named account, whose order carries ref_id-F2, -F3... at its next
     * accounts: then a ref_id that ends like those is refused. Not so for the unnamed account.
     */
    public boolean namesAccounts() {
        return map.accounts().stream().anyMatch(java.util.Objects::nonNull);
    }
}
