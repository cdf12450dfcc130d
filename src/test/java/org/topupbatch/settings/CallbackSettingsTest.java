package org.topupbatch.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The outbox's settings (docs/callbacks.md, docs/settings.md): defaults; a callback for every batch
 * needs the secret that signs it; a bad time names its setting in one line; the secret never shows.
 */
class CallbackSettingsTest {

    @Test
    void byDefaultNoCallbackAndTheNoticesBackOff() {
        CallbackSettings s = CallbackSettings.load(Map.<String, String>of()::get);
        assertThat(s.url()).isNull();
        assertThat(s.anyCallback()).isFalse();
        assertThat(s.retryDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.giveUpAfter()).isEqualTo(Duration.ofDays(2));
    }

    @Test
    void aCallbackForEveryBatchNeedsTheSecret() {
        assertThatThrownBy(() -> CallbackSettings.load(Map.of("topup.callback.url", "https://erp.example.com/cb")::get))
                .isInstanceOf(SettingsException.class)
                .hasMessage("topup.callback.url is set but topup.callback.secret is not: set TOPUP_CALLBACK_SECRET to the"
                        + " secret the ERP verifies callbacks with");
        CallbackSettings s = CallbackSettings.load(Map.of("topup.callback.url", "https://erp.example.com/cb",
                "topup.callback.secret", "s3cret-value", "topup.callback.allowed-hosts", " erp.example.com, 10.0.0.7 ")::get);
        assertThat(s.anyCallback()).isTrue();
        assertThat(s.allowedHosts()).containsExactly("erp.example.com", "10.0.0.7");
        assertThat(s.toString()).doesNotContain("s3cret-value");
        // the ERP's URL is called as written: its trailing slash may matter to the ERP's router
        assertThat(CallbackSettings.load(Map.of("topup.callback.url", "https://erp.example.com/cb/",
                "topup.callback.secret", "x")::get).url()).isEqualTo("https://erp.example.com/cb/");
    }

    @Test
    void badValuesNameTheirSetting() {
        assertThatThrownBy(() -> CallbackSettings.load(Map.of("topup.notify.give-up-after", "forever")::get))
                .hasMessageStartingWith("topup.notify.give-up-after: 'forever' is not a time");
        assertThatThrownBy(() -> CallbackSettings.load(Map.of("topup.callback.url", "ftp://erp.example.com/",
                "topup.callback.secret", "x")::get)).hasMessageStartingWith("topup.callback.url: ");
        assertThat(CallbackSettings.load(Map.of("topup.notify.retry-delay", "10s")::get).retryDelay())
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(CallbackSettings.load(Map.of("topup.notify.retry-delay", "100")::get).retryDelay())
                .isEqualTo(Duration.ofMillis(100));
    }
}
