package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccountsCatalogTest {

    private static Product p(String sku, String brand, long price, boolean available) {
        return new Product(sku, sku, brand, "games", price, price, available, "");
    }

    @Test
    void a_product_is_known_when_some_account_lists_it_at_the_lowest_price_and_routing_decides_availability() {
        ProductMap map = ProductMap.identity(List.of("a", "b", "c"));
        AccountsCatalog catalog = new AccountsCatalog(map, Map.of(
                "a", Map.of("ML86", p("ML86", "MOBILE LEGENDS", 20_000, false)),
                "b", Map.of("ML86", p("ML86", "OTHER BRAND", 18_000, true))));
        Product found = catalog.find("ML86").orElseThrow();
        assertThat(found.sku()).isEqualTo("ML86");
        assertThat(found.brand()).as("from the most preferred account").isEqualTo("MOBILE LEGENDS");
        assertThat(found.price()).isEqualTo(18_000);
        assertThat(found.available()).isTrue();
        assertThat(catalog.find("FF50")).isEmpty();
    }
}
