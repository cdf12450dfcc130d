package org.topupbatch.provider;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProviderEndpointTest {

    private final Signer signer = new Signer("k", "s");

    @Test
    void defaultsAndOperationUrl() {
        ProviderEndpoint e = ProviderEndpoint.of("https://api.example.com/", signer);
        assertThat(e.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(e.responseTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(e.operationUrl("check-balance")).isEqualTo("https://api.example.com/v1/check-balance");
    }

    @Test
    void keepsAPathPrefix() {
        assertThat(ProviderEndpoint.of("http://h:8080/topup", signer).operationUrl("profile"))
                .isEqualTo("http://h:8080/topup/v1/profile");
    }

    @Test
    void refusesNonHttpAndOddUrls() {
        assertThatThrownBy(() -> ProviderEndpoint.of("ftp://h", signer)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProviderEndpoint.of("h:80", signer)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProviderEndpoint.of("http://h/?a=b", signer)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProviderEndpoint.of("not a url", signer)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ProviderEndpoint("http://h", signer, Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
