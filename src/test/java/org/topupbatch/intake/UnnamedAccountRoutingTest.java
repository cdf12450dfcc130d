package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowRoute;
import org.topupbatch.provider.ProductMap;
import org.topupbatch.settings.BalancePolicy;

/**
 * The one account of topup.base-url is a list of one whose name is null, and intake always routes: a
 * batch routed to it must be journaled exactly as the batch checked against its price list alone (no
 * route on any row, the same states, prices and reasons), so that its report keeps its columns.
 */
class UnnamedAccountRoutingTest {

    /** Every kind of row the checks and the routing decide on: listed, unknown, unavailable, too dear, a -F2 ref_id. */
    private static final String BATCH = """
            ref_id,product_sku,customer_no,customer_no_zone,max_price
            A1,ML86,123456,2001,25000
            A2,NOPE,123456,,
            A3,ML_OFF,123456,2001,
            A4,TSEL10,081234567890,,10000
            A5-F2,TSEL10,081234567891,,
            A6,FF100,123456,2001,
            A7,GP50,081234567892,,
            """;

    private static List<NewRow> plan(RowRouter router, long balance) throws IOException {
        InMemoryBatchWriter writer = new InMemoryBatchWriter();
        RowValidator validator = new RowValidator(router == null ? new TestCatalog() : router.catalog(),
                CustomerRules.loadDefault());
        try (CsvBatchReader reader = CsvBatchReader.open(new ByteArrayInputStream(BATCH.getBytes(StandardCharsets.UTF_8)))) {
            new BatchPlanner(validator, BalancePolicy.BEST_EFFORT).routedBy(router).plan(reader, writer, balance);
        }
        return writer.rows;
    }

    private static RowRouter routerFor(String... accounts) {
        Map<String, List<org.topupbatch.provider.Product>> lists = new HashMap<>();
        for (String account : accounts) {
            lists.put(account, TestCatalog.PRODUCTS);
        }
        return new RowRouter(ProductMap.identity(Arrays.asList(accounts)), lists);
    }

    @Test
    void the_unnamed_accounts_batch_is_journaled_as_its_price_list_alone_decides_it() throws IOException {
        RowRouter unnamed = routerFor((String) null);
        for (long balance : new long[] {1_000_000, 30_000}) {
            List<NewRow> routed = plan(unnamed, balance);
            List<NewRow> alone = plan(null, balance);
            assertThat(routed).as("balance " + balance).isEqualTo(alone);
            assertThat(routed).extracting(NewRow::route).as("no row of the unnamed account carries a route")
                    .containsOnlyNulls();
        }
        assertThat(unnamed.namesAccounts()).isFalse();
        RowRouter.Routed one = unnamed.route("TSEL10", null);
        assertThat(one.route()).isNull();
        assertThat(one.price()).isEqualTo(10_450);
        assertThat(one.refusal()).isNull();
    }

    @Test
    void a_named_accounts_rows_carry_their_route_and_refuse_a_ref_id_like_a_fallbacks() throws IOException {
        List<NewRow> routed = plan(routerFor("main"), 1_000_000);
        NewRow a1 = routed.get(0);
        assertThat(a1.route()).isEqualTo(new RowRoute(List.of(new RowRoute.Stop("main", "ML86", 20_000))));
        NewRow a5 = routed.stream().filter(r -> r.refId().equals("A5-F2")).findFirst().orElseThrow();
        assertThat(a5.message()).startsWith("ref_id A5-F2 ends like the ref_ids a row gets at its next account");
        // the unnamed account's batch takes that ref_id: its row never moves to a next account
        assertThat(plan(routerFor((String) null), 1_000_000).stream().filter(r -> r.refId().equals("A5-F2"))
                .findFirst().orElseThrow().message()).isNull();
    }
}
