package org.topupbatch.track;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.commons.codec.digest.HmacAlgorithms;
import org.apache.commons.codec.digest.HmacUtils;
import org.junit.jupiter.api.Test;

/**
 * Digiflazz's webhook signature (docs/digiflazz.md): X-Hub-Signature is "sha1=" and the hex
 * HMAC-SHA1 of the raw body, keyed with the webhook secret.
 */
class WebhookHubSignatureTest {

    private final WebhookAuthenticator hub = new WebhookAuthenticator("Jefe", true);

    /** RFC 2202, HMAC-SHA1 test case 2. */
    @Test
    void theKnownAnswerOfRfc2202IsAuthentic() {
        byte[] body = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
        assertThat(hub.authenticBody(body, "sha1=effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")).isTrue();
        assertThat(hub.authenticBody(body, "SHA1=EFFCDF6AE5EB2FA2D27416D5F184DF9C259A7C79")).isTrue();
    }

    @Test
    void anotherBodyOrKeyOrFormIsNot() {
        String body = "{\"data\":{\"ref_id\":\"R-1\",\"status\":\"Sukses\"}}";
        String good = "sha1=" + new HmacUtils(HmacAlgorithms.HMAC_SHA_1, "Jefe").hmacHex(body);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        assertThat(hub.authenticBody(bytes, good)).isTrue();
        assertThat(hub.authenticBody(body.replace("Sukses", "Gagal").getBytes(StandardCharsets.UTF_8), good)).isFalse();
        assertThat(hub.authenticBody(bytes, "sha1=" + new HmacUtils(HmacAlgorithms.HMAC_SHA_1, "other").hmacHex(body))).isFalse();
        assertThat(hub.authenticBody(bytes, good.substring(5))).as("without sha1=").isFalse();
        assertThat(hub.authenticBody(bytes, "sha256=" + new HmacUtils(HmacAlgorithms.HMAC_SHA_256, "Jefe").hmacHex(body))).isFalse();
        assertThat(hub.authenticBody(bytes, null)).isFalse();
        assertThat(hub.authenticBody(bytes, "sha1=zz")).isFalse();
        assertThat(new WebhookAuthenticator(null, true).authenticBody(bytes, good)).as("no secret").isFalse();
    }

    /** One scheme per dialect: an in-body md5 never passes where the header is expected, nor the other way. */
    @Test
    void theSchemesDoNotMix() {
        byte[] bytes = "x".getBytes(StandardCharsets.UTF_8);
        String good = "sha1=" + new HmacUtils(HmacAlgorithms.HMAC_SHA_1, "Jefe").hmacHex(bytes);
        assertThat(new WebhookAuthenticator("Jefe").authenticBody(bytes, good)).isFalse();
        assertThat(hub.authentic("R-1", "success",
                org.apache.commons.codec.digest.DigestUtils.md5Hex("Jefe" + "R-1" + "success"))).isFalse();
    }
}
