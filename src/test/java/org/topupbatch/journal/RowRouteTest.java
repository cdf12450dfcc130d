package org.topupbatch.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RowRouteTest {

    private final RowRoute route = new RowRoute(List.of(new RowRoute.Stop("main", "TSEL10", 10_250),
            new RowRoute.Stop("dfz", "T10 \"x\",y", 9_900)));

    @Test
    void a_route_is_kept_as_written_even_with_odd_skus() {
        assertThat(RowRoute.read(RowRoute.write(route))).isEqualTo(route);
        assertThat(RowRoute.write(null)).isNull();
        assertThat(RowRoute.read(null)).isNull();
        assertThat(RowRoute.read(" ")).isNull();
    }

    @Test
    void attempts_count_from_one_and_stay_within_the_route() {
        assertThat(route.at(1).account()).isEqualTo("main");
        assertThat(route.at(2).account()).isEqualTo("dfz");
        assertThat(route.at(3).account()).isEqualTo("dfz");
        assertThatThrownBy(() -> new RowRoute(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_row_at_its_second_account_carries_the_derived_ref_id_and_that_accounts_sku() {
        RowRecord row = new RowRecord(1, 1, 0, 2, "ERP-1", "TSEL10", "08123", null, null, List.of(), RowState.ACCEPTED,
                null, 9_900L, null, null, null, null, 0, null, route, 2);
        assertThat(row.account()).isEqualTo("dfz");
        assertThat(row.orderRefId()).isEqualTo("ERP-1-F2");
        assertThat(row.orderSku()).isEqualTo("T10 \"x\",y");
        assertThat(row.hasNextAccount()).isFalse();
        RowRecord single = new RowRecord(1, 1, 0, 2, "ERP-1", "TSEL10", "08123", null, null, List.of(), RowState.ACCEPTED,
                null, 9_900L, null, null, null, null, 0, null);
        assertThat(single.account()).isNull();
        assertThat(single.orderRefId()).isEqualTo("ERP-1");
        assertThat(single.orderSku()).isEqualTo("TSEL10");
        assertThat(single.hasNextAccount()).isFalse();
    }
}
