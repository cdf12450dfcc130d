package org.topupbatch.intake;

import org.topupbatch.provider.PriceCatalog;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.topupbatch.provider.Product;

/** A fixed price list for tests. */
final class TestCatalog implements PriceCatalog {
    static final List<Product> PRODUCTS = List.of(
            product("ML86", "MOBILE LEGENDS", "games", 20000, true),
            product("GI60", "GENSHIN IMPACT", "games", 15000, true),
            product("FF100", "FREE FIRE", "games", 14000, true),
            product("PUBG60", "PUBG MOBILE", "games", 15500, true),
            product("VAL125", "VALORANT", "games", 15000, true),
            product("GP50", "GOOGLE PLAY", "voucher", 50500, true),
            product("STEAM60", "STEAM", "voucher", 60000, true),
            product("TSEL10", "TELKOMSEL", "pulsa", 10450, true),
            product("ISAT10", "INDOSAT", "pulsa", 10500, true),
            product("XL10", "XL", "pulsa", 10400, true),
            product("TRI10", "TRI", "pulsa", 10300, true),
            product("SF10", "SMARTFREN", "pulsa", 10200, true),
            product("OTHER1", "SOME NEW GAME", "games", 5000, true),
            product("ML_OFF", "MOBILE LEGENDS", "games", 1000, false));

    private final Map<String, Product> bySku = PRODUCTS.stream()
            .collect(Collectors.toMap(Product::sku, Function.identity()));

    static Product product(String sku, String brand, String category, long price, boolean available) {
        return new Product(sku, sku + " item", brand, category, price, price + 500, available, "");
    }

    @Override
    public Optional<Product> find(String sku) {
        return Optional.ofNullable(bySku.get(sku));
    }
}
