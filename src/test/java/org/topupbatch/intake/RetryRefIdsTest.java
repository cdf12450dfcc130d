package org.topupbatch.intake;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RetryRefIdsTest {

    @Test
    void a_first_retry_adds_r1_and_a_retry_of_a_retry_counts_on() {
        assertThat(RetryRefIds.next("INV-2026-0001")).isEqualTo("INV-2026-0001-R1");
        assertThat(RetryRefIds.next("INV-2026-0001-R1")).isEqualTo("INV-2026-0001-R2");
        assertThat(RetryRefIds.next("INV-2026-0001-R9")).isEqualTo("INV-2026-0001-R10");
        assertThat(RetryRefIds.next("A-R")).isEqualTo("A-R-R1");
    }

    @Test
    void a_long_ref_id_is_shortened_deterministically_and_stays_apart_from_its_neighbours() {
        String a = "X".repeat(45) + "-000001";
        String b = "X".repeat(45) + "-000002";
        String ra = RetryRefIds.next(a);
        assertThat(ra).hasSize(RowValidator.MAX_REF_ID_LENGTH).endsWith("-R1").startsWith("X".repeat(38))
                .isEqualTo(RetryRefIds.next(a)).isNotEqualTo(RetryRefIds.next(b));
        String rra = RetryRefIds.next(ra);
        assertThat(rra).hasSize(RowValidator.MAX_REF_ID_LENGTH).isEqualTo(ra.substring(0, 47) + "-R2");
        assertThat(new RowValidator(sku -> java.util.Optional.empty(), CustomerRules.loadDefault())
                .validate(new BatchRow(0, 2, rra, "", "1", "", "", java.util.List.of(), null)).reason())
                .as("the provider's ref_id rules hold").isEqualTo("required field product_sku is empty");
    }

    @Test
    void ref_ids_near_the_limit_get_the_suffix_while_it_fits() {
        String fits = "Y".repeat(47);
        assertThat(RetryRefIds.next(fits)).isEqualTo(fits + "-R1");
        assertThat(RetryRefIds.next("Y".repeat(48))).hasSize(50).endsWith("-R1").doesNotStartWith("Y".repeat(39));
    }
}
