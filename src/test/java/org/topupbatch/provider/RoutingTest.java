package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoutingTest {

    private final Map<String, Map<String, Product>> lists = new HashMap<>();

    private void list(String account, String sku, long price, boolean available) {
        lists.computeIfAbsent(account, a -> new HashMap<>())
                .put(sku, new Product(sku, sku + " name", "BRAND", "games", price, price, available, ""));
    }

    private static ProductMap.Route route(ProductMap.Rule rule, String... accountSku) {
        List<ProductMap.Listing> listings = new java.util.ArrayList<>();
        for (String as : accountSku) {
            String[] p = as.split(":");
            listings.add(new ProductMap.Listing(p[0], p[1]));
        }
        return new ProductMap.Route("ML86", rule, listings);
    }

    @Test
    void ordered_keeps_the_maps_order_and_skips_accounts_without_the_product_available() {
        list("a", "ML86", 20_000, false);
        list("b", "MLBB86", 19_000, true);
        list("c", "ML86", 18_000, true);
        Routing.Decision d = Routing.route(route(ProductMap.Rule.ORDERED, "a:ML86", "b:MLBB86", "c:ML86"), null, lists);
        assertThat(d.candidates()).containsExactly(new Routing.Candidate("b", "MLBB86", 19_000),
                new Routing.Candidate("c", "ML86", 18_000));
        assertThat(d.routed()).isTrue();
        assertThat(d.first().account()).isEqualTo("b");
        assertThat(d.refusal()).isNull();
    }

    @Test
    void max_price_leaves_out_dearer_accounts() {
        list("a", "ML86", 20_000, true);
        list("b", "ML86", 18_000, true);
        Routing.Decision d = Routing.route(route(ProductMap.Rule.ORDERED, "a:ML86", "b:ML86"), 19_000L, lists);
        assertThat(d.candidates()).containsExactly(new Routing.Candidate("b", "ML86", 18_000));
        assertThat(Routing.route(route(ProductMap.Rule.ORDERED, "a:ML86", "b:ML86"), 20_000L, lists).first().account())
                .as("max_price is inclusive").isEqualTo("a");
    }

    @Test
    void cheapest_sorts_by_price_and_ties_keep_the_maps_order() {
        list("a", "ML86", 20_000, true);
        list("b", "ML86", 18_000, true);
        list("c", "ML86", 18_000, true);
        list("d", "ML86", 15_000, false);
        Routing.Decision d = Routing.route(route(ProductMap.Rule.CHEAPEST, "a:ML86", "c:ML86", "b:ML86", "d:ML86"), null, lists);
        assertThat(d.candidates()).extracting(Routing.Candidate::account).containsExactly("c", "b", "a");
    }

    @Test
    void an_account_whose_price_list_could_not_be_read_has_none() {
        list("b", "ML86", 18_000, true);
        lists.put("a", null);
        assertThat(Routing.route(route(ProductMap.Rule.ORDERED, "a:ML86", "b:ML86", "x:ML86"), null, lists).candidates())
                .extracting(Routing.Candidate::account).containsExactly("b");
    }

    @Test
    void no_account_says_why_not_listed_unavailable_or_dearer() {
        list("a", "OTHER", 1, true);
        Routing.Decision none = Routing.route(route(ProductMap.Rule.ORDERED, "a:ML86", "b:MLBB86"), null, lists);
        assertThat(none.routed()).isFalse();
        assertThat(none.refusal()).isEqualTo(Routing.Refusal.NOT_LISTED);
        assertThat(none.reason()).isEqualTo("no account lists ML86 (asked: a, b as MLBB86)");

        list("a", "ML86", 20_000, false);
        list("b", "MLBB86", 19_000, false);
        Routing.Decision down = Routing.route(route(ProductMap.Rule.CHEAPEST, "a:ML86", "b:MLBB86"), 30_000L, lists);
        assertThat(down.refusal()).isEqualTo(Routing.Refusal.UNAVAILABLE);
        assertThat(down.reason()).isEqualTo("ML86 is not available now at any account that lists it (a, b)");

        list("b", "MLBB86", 19_000, true);
        Routing.Decision dear = Routing.route(route(ProductMap.Rule.ORDERED, "a:ML86", "b:MLBB86"), 15_000L, lists);
        assertThat(dear.refusal()).isEqualTo(Routing.Refusal.DEARER_THAN_MAX_PRICE);
        assertThat(dear.reason()).isEqualTo("ML86 costs more than max_price 15000 at every account that has it available (b 19000)");
    }

    @Test
    void a_route_without_accounts_is_refused_as_not_listed() {
        Routing.Decision d = Routing.route(new ProductMap.Route("ML86", ProductMap.Rule.ORDERED, List.of()), null, lists);
        assertThat(d.reason()).isEqualTo("no account lists ML86 (no account is mapped)");
    }
}
