package org.topupbatch.intake;

import java.util.Optional;
import org.topupbatch.provider.Product;

/** Looks up products of the provider's price list by SKU. */
public interface PriceCatalog {
    Optional<Product> find(String sku);
}
