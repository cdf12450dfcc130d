package org.topupbatch.provider;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Which accounts can take a row, best first (docs/accounts-and-dialects.md#several-accounts): a pure decision on the
 * product's {@link ProductMap.Route}, the row's max_price and each account's current price list.
 * An account whose price list could not be read has none here, so it takes nothing: a list we cannot
 * see says nothing about availability or price.
 */
public final class Routing {

    /** One account that can take the row: under which SKU, at which price. */
    public record Candidate(String account, String sku, long price) {
    }

    /** Why no account can take a row. */
    public enum Refusal {
        NOT_LISTED, UNAVAILABLE, DEARER_THAN_MAX_PRICE
    }

    /**
     * The candidates, best first; when there is none, the refusal and the one line that says it.
     */
    public record Decision(List<Candidate> candidates, Refusal refusal, String reason) {
        public Decision {
            candidates = List.copyOf(candidates);
        }

        public boolean routed() {
            return !candidates.isEmpty();
        }

        /** The account the row goes to first. */
        public Candidate first() {
            return candidates.get(0);
        }
    }

    private Routing() {
    }

    /**
     * @param maxPrice   the row's max_price, or null when it has none
     * @param priceLists each account's price list by SKU; an account missing here (or mapped to null)
     *                   counts as having no product at all
     */
    public static Decision route(ProductMap.Route route, Long maxPrice, Map<String, Map<String, Product>> priceLists) {
        List<Candidate> candidates = new ArrayList<>();
        List<String> listedAt = new ArrayList<>();
        List<String> dearerAt = new ArrayList<>();
        for (ProductMap.Listing listing : route.listings()) {
            Map<String, Product> list = priceLists.get(listing.account());
            Product product = list == null ? null : list.get(listing.sku());
            if (product == null) {
                continue;
            }
            listedAt.add(listing.account());
            if (!product.available()) {
                continue;
            }
            if (maxPrice != null && product.price() > maxPrice) {
                dearerAt.add(listing.account() + " " + product.price());
                continue;
            }
            candidates.add(new Candidate(listing.account(), listing.sku(), product.price()));
        }
        if (route.rule() == ProductMap.Rule.CHEAPEST) {
            // a stable sort: equal prices keep the map's order
            candidates.sort(Comparator.comparingLong(Candidate::price));
        }
        if (!candidates.isEmpty()) {
            return new Decision(candidates, null, null);
        }
        String product = route.product();
        if (listedAt.isEmpty()) {
            return new Decision(List.of(), Refusal.NOT_LISTED, "no account lists " + product + " ("
                    + accountsAsked(route) + ")");
        }
        if (dearerAt.isEmpty()) {
            return new Decision(List.of(), Refusal.UNAVAILABLE, product + " is not available now at any account that lists it ("
                    + String.join(", ", listedAt) + ")");
        }
        return new Decision(List.of(), Refusal.DEARER_THAN_MAX_PRICE, product + " costs more than max_price " + maxPrice
                + " at every account that has it available (" + String.join(", ", dearerAt) + ")");
    }

    private static String accountsAsked(ProductMap.Route route) {
        List<String> asked = new ArrayList<>();
        for (ProductMap.Listing l : route.listings()) {
            asked.add(l.sku().equals(route.product()) ? l.account() : l.account() + " as " + l.sku());
        }
        return asked.isEmpty() ? "no account is mapped" : "asked: " + String.join(", ", asked);
    }
}
