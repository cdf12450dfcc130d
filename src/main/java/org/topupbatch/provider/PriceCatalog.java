package org.topupbatch.provider;

import java.util.Optional;


/** Looks up products of the provider's price list by SKU. */
public interface PriceCatalog {
    Optional<Product> find(String sku);
}
