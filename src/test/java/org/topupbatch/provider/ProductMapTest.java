package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.topupbatch.settings.SettingsException;

class ProductMapTest {

    private static final List<String> ACCOUNTS = List.of("main", "backup");

    private static ProductMap parse(String text) throws Exception {
        return ProductMap.parse(new StringReader(text), "map.csv", ACCOUNTS);
    }

    private static void rejects(String text, String message) {
        assertThatThrownBy(() -> parse(text)).isInstanceOf(SettingsException.class).hasMessage(message);
    }

    @Test
    void lines_of_a_product_in_file_order_are_its_preference_and_routing_is_said_once_or_on_every_line() throws Exception {
        ProductMap map = parse("""
                product,provider,sku,routing
                ML86,backup,MLBB86,
                ML86,main,ML86
                TSEL10,main,TSEL10,cheapest

                TSEL10,backup,S10,cheapest
                FF50,main,FF50,Cheapest
                FF50,backup,FF50
                """);
        assertThat(map.routeFor("ML86")).isEqualTo(new ProductMap.Route("ML86", ProductMap.Rule.ORDERED,
                List.of(new ProductMap.Listing("backup", "MLBB86"), new ProductMap.Listing("main", "ML86"))));
        assertThat(map.routeFor("TSEL10").rule()).isEqualTo(ProductMap.Rule.CHEAPEST);
        assertThat(map.routeFor("FF50").rule()).isEqualTo(ProductMap.Rule.CHEAPEST);
        assertThat(map.mappedProducts()).isEqualTo(3);
    }

    @Test
    void a_product_not_in_the_map_is_sold_under_its_own_code_by_every_account_in_their_order() throws Exception {
        ProductMap map = parse("product,provider,sku\nML86,backup,MLBB86\n");
        assertThat(map.routeFor("GP50K")).isEqualTo(new ProductMap.Route("GP50K", ProductMap.Rule.ORDERED,
                List.of(new ProductMap.Listing("main", "GP50K"), new ProductMap.Listing("backup", "GP50K"))));
        assertThat(ProductMap.identity(ACCOUNTS).routeFor("X")).isEqualTo(map.routeFor("X"));
    }

    @Test
    void the_header_may_be_in_any_order_and_case_and_the_routing_column_is_optional() throws Exception {
        ProductMap map = parse("SKU , Provider,product\r\nS10,backup,TSEL10\r\n");
        assertThat(map.routeFor("TSEL10").listings()).containsExactly(new ProductMap.Listing("backup", "S10"));
    }

    @Test
    void every_bad_line_names_file_line_and_field() {
        rejects("product,provider,sku\nML86,bakup,ML86\n",
                "topup.product-map: map.csv:2: provider 'bakup' is not an account of topup.providers (main, backup)");
        rejects("product,provider,sku\nML86,main,\n", "topup.product-map: map.csv:2: sku is empty");
        rejects("product,provider,sku\n,main,X\n", "topup.product-map: map.csv:2: product is empty");
        rejects("product,provider,sku\nML86,,X\n", "topup.product-map: map.csv:2: provider is empty");
        rejects("product,provider,sku\nML86,main,A\n\nFF50,main,B\nML86,main,C\n",
                "topup.product-map: map.csv:5: provider 'main' is named for product 'ML86' on line 2 already");
        rejects("product,provider,sku,routing\nML86,main,A,cheapest\nML86,backup,B,\nML86,x,C,ordered\n",
                "topup.product-map: map.csv:4: provider 'x' is not an account of topup.providers (main, backup)");
        rejects("product,provider,sku,routing\nML86,main,A,cheapest\nML86,backup,B,ordered\n",
                "topup.product-map: map.csv:3: routing 'ordered' disagrees with 'cheapest' on line 2 for product 'ML86'"
                        + " (one rule per product)");
        rejects("product,provider,sku,routing\nML86,main,A,fastest\n",
                "topup.product-map: map.csv:2: routing 'fastest' is neither ordered nor cheapest");
        rejects("product,provider,sku,price\n", "topup.product-map: map.csv:1: column 'price' is not one of product,"
                + " provider, sku, routing");
        rejects("product,sku\n", "topup.product-map: map.csv:1: the header has no 'provider' column (it must be"
                + " product,provider,sku and may add routing)");
        rejects("product,provider,sku,Product\n", "topup.product-map: map.csv:1: column 'product' appears twice");
    }

    @Test
    void a_quoted_line_break_does_not_shift_the_line_named() {
        rejects("product,provider,sku\n\"ML\n86\",main,A\nFF50,nope,B\n",
                "topup.product-map: map.csv:4: provider 'nope' is not an account of topup.providers (main, backup)");
        rejects("product,provider,sku\n\"ML\n86\",nope,A\n",
                "topup.product-map: map.csv:2: provider 'nope' is not an account of topup.providers (main, backup)");
    }

    @Test
    void a_file_is_read_as_utf8_with_or_without_a_mark_and_a_missing_one_is_one_line(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("map.csv");
        Files.writeString(file, "\uFEFFproduct,provider,sku\nML86,backup,MLBB86\n");
        assertThat(ProductMap.load(file, ACCOUNTS).routeFor("ML86").listings())
                .containsExactly(new ProductMap.Listing("backup", "MLBB86"));
        assertThatThrownBy(() -> ProductMap.load(dir.resolve("none.csv"), ACCOUNTS))
                .hasMessage("topup.product-map: " + dir.resolve("none.csv") + ": no such file");
    }
}
