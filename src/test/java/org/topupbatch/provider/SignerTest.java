package org.topupbatch.provider;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SignerTest {

    /** The known-answer rows of docs/provider.md. */
    @ParameterizedTest
    @CsvSource({
            "balance, b1311981041ec3bc83b44c13bc497703",
            "pricelist, 9d3c4a210ce8305110a4fb2c6ec975a7",
            "history, 9879e6b27cac86c51a30f071a8551023",
            "profile, bf26124b73cc601a6f4849da23a5f94e",
            "ERP-20261121-000123, d4681da0e2f24990fe6d6a363aef5018",
    })
    void signsKnownAnswers(String component, String expected) {
        assertThat(new Signer("RSL-7F3A9C21", "s3cr3t-Kx9pQ2").sign(component)).isEqualTo(expected);
    }

    @Test
    void constantsAreTheInterfaceWords() {
        Signer s = new Signer("RSL-7F3A9C21", "s3cr3t-Kx9pQ2");
        assertThat(s.sign(Signer.BALANCE)).isEqualTo("b1311981041ec3bc83b44c13bc497703");
        assertThat(s.sign(Signer.PRICE_LIST)).isEqualTo("9d3c4a210ce8305110a4fb2c6ec975a7");
        assertThat(s.sign(Signer.HISTORY)).isEqualTo("9879e6b27cac86c51a30f071a8551023");
        assertThat(s.sign(Signer.PROFILE)).isEqualTo("bf26124b73cc601a6f4849da23a5f94e");
    }

    @Test
    void secretNeverShows() {
        Signer s = new Signer("RSL-7F3A9C21", "s3cr3t-Kx9pQ2");
        assertThat(s.toString()).contains("RSL-7F3A9C21").doesNotContain("s3cr3t-Kx9pQ2");
        assertThat(ProviderEndpoint.of("http://127.0.0.1:1", s).toString()).doesNotContain("s3cr3t-Kx9pQ2");
    }

    @Test
    void refusesEmptyCredentials() {
        assertThatThrownBy(() -> new Signer("", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Signer("k", "")).isInstanceOf(IllegalArgumentException.class);
    }
}
