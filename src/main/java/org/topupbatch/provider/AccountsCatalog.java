package org.topupbatch.provider;

import java.util.Map;
import java.util.Optional;

/**
 * The price list the intake's checks see (the unnamed account's own list, as it is; see below for named ones).
 * When several accounts sell a product: a product code is
 * known when some account mapped to it lists it, at the lowest price any of them asks. Availability is
 * left to {@link Routing}, which knows each account's, and says which of them is out of stock; so is
 * the account a row goes to. A row is then rejected for its price only when every account that lists
 * the product asks more than its max_price.
 */
public final class AccountsCatalog implements PriceCatalog {

    private final ProductMap map;
    private final Map<String, Map<String, Product>> priceLists;

    /** @param priceLists each account's list by SKU; an account whose list could not be read is left out */
    public AccountsCatalog(ProductMap map, Map<String, Map<String, Product>> priceLists) {
        this.map = map;
        this.priceLists = priceLists;
    }

    @Override
    public Optional<Product> find(String code) {
        Product first = null;
        long lowest = Long.MAX_VALUE;
        for (ProductMap.Listing listing : map.routeFor(code).listings()) {
            Map<String, Product> list = priceLists.get(listing.account());
            Product p = list == null ? null : list.get(listing.sku());
            if (p != null && listing.account() == null) {
                // the unnamed account of topup.base-url (never beside another): its list is checked as the
                // provider's list always was, availability included
                return Optional.of(p);
            }
            if (p != null) {
                // name, brand and category (the customer rules go by the brand) from the most preferred account
                first = first == null ? p : first;
                lowest = Math.min(lowest, p.price());
            }
        }
        if (first == null) {
            return Optional.empty();
        }
        return Optional.of(new Product(code, first.name(), first.brand(), first.category(), lowest, first.sellingPrice(),
                true, first.description()));
    }
}
