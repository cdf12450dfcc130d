package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.topupbatch.intake.RowValidator;

class FallbackRefIdsTest {

    @Test
    void attempt_n_is_the_original_with_a_suffix() {
        assertThat(FallbackRefIds.of("TB-20261121-0001", 2)).isEqualTo("TB-20261121-0001-F2");
        assertThat(FallbackRefIds.of("TB-20261121-0001", 3)).isEqualTo("TB-20261121-0001-F3");
        assertThat(FallbackRefIds.of("SO.1_a", 12)).isEqualTo("SO.1_a-F12");
    }

    @Test
    void the_limit_is_the_intakes() {
        assertThat(FallbackRefIds.MAX_LENGTH).isEqualTo(RowValidator.MAX_REF_ID_LENGTH);
    }

    @Test
    void a_long_ref_id_is_shortened_deterministically_with_a_hash_that_keeps_it_apart() {
        String a = "A".repeat(40) + "-0001-xyz";
        String b = "A".repeat(40) + "-0002-xyz";
        String fa = FallbackRefIds.of(a, 2);
        assertThat(fa).hasSize(50).endsWith("-F2").startsWith("A".repeat(37)).matches("[A-Za-z0-9._-]+");
        assertThat(FallbackRefIds.of(a, 2)).isEqualTo(fa);
        assertThat(FallbackRefIds.of(b, 2)).isNotEqualTo(fa).hasSize(50);
        assertThat(FallbackRefIds.of(a, 3)).isNotEqualTo(fa).hasSize(50);
        String exact = "B".repeat(47);
        assertThat(FallbackRefIds.of(exact, 2)).isEqualTo(exact + "-F2");
        assertThat(FallbackRefIds.of("B".repeat(48), 2)).hasSize(50).contains("-F2").doesNotStartWith("B".repeat(48));
    }

    @Test
    void the_first_attempt_has_no_fallback_ref_id() {
        assertThatThrownBy(() -> FallbackRefIds.of("X", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FallbackRefIds.of("", 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
