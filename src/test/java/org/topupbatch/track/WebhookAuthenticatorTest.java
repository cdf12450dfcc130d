package org.topupbatch.track;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

/** The documented webhook signature: md5(webhook_secret + ref_id + status), lower-case hex. */
class WebhookAuthenticatorTest {

    private final WebhookAuthenticator authenticator = new WebhookAuthenticator("whsec-1");

    @Test
    void aKnownAnswerSignatureIsAuthentic() {
        String signature = DigestUtils.md5Hex("whsec-1" + "TB-1" + "success");
        assertThat(authenticator.authentic("TB-1", "success", signature)).isTrue();
        assertThat(authenticator.authentic("TB-1", "success", signature.toUpperCase(Locale.ROOT))).isTrue();
        assertThat(authenticator.verifies()).isTrue();
    }

    @Test
    void anythingElseIsNot() {
        String signature = DigestUtils.md5Hex("whsec-1" + "TB-1" + "success");
        assertThat(authenticator.authentic("TB-1", "failed", signature)).as("another status").isFalse();
        assertThat(authenticator.authentic("TB-2", "success", signature)).as("another ref_id").isFalse();
        assertThat(authenticator.authentic("TB-1", "success", DigestUtils.md5Hex("other" + "TB-1" + "success"))).isFalse();
        assertThat(authenticator.authentic("TB-1", "success", null)).isFalse();
        assertThat(authenticator.authentic("TB-1", "success", "")).isFalse();
        assertThat(authenticator.authentic("TB-1", "success", "zz" + signature.substring(2))).isFalse();
        assertThat(authenticator.authentic("TB-1", "success", signature + "00")).isFalse();
        assertThat(authenticator.authentic(null, "success", signature)).isFalse();
    }

    @Test
    void withoutASecretNothingIsAuthentic() {
        WebhookAuthenticator none = new WebhookAuthenticator("");
        assertThat(none.verifies()).isFalse();
        assertThat(none.authentic("TB-1", "success", DigestUtils.md5Hex("TB-1" + "success"))).isFalse();
        assertThat(new WebhookAuthenticator(null).verifies()).isFalse();
    }

    @Test
    void theSecretNeverShows() {
        assertThat(authenticator.toString()).doesNotContain("whsec-1");
    }
}
