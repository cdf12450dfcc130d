package org.topupbatch.notify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The callback's signature (docs/callbacks.md#verifying-the-signature): HMAC-SHA256 as RFC 4231
 * defines it (its test case 2 is the known vector), over {@code "<t>.<body>"}, in the header form
 * {@code t=<unix>,v1=<hex>}; and the Java verification docs/callbacks.md shows, run as written there.
 */
class CallbackSignatureTest {

    @Test
    void hmacSha256MatchesRfc4231TestCase2() {
        assertThat(CallbackSignature.hmacHex("Jefe", "what do ya want for nothing?"))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    }

    @Test
    void theHeaderSignsTheTimeAndTheBody() {
        String body = "{\"event\":\"batch_reported\"}";
        assertThat(CallbackSignature.header("Jefe", 1764230400L, body))
                .isEqualTo("t=1764230400,v1=" + CallbackSignature.hmacHex("Jefe", "1764230400." + body));
    }

    @Test
    void theDocumentedJavaCheckAcceptsAGoodSignatureAndRefusesATamperedBody() throws Exception {
        String body = "{\"event\":\"batch_reported\",\"batch\":7}";
        long now = 1764230400L;
        String header = CallbackSignature.header("s3cret", now, body);
        assertThat(VerifyCallback.verify("s3cret", header, body, now + 10)).isTrue();
        assertThat(VerifyCallback.verify("s3cret", header, body.replace('7', '8'), now + 10)).isFalse();
        assertThat(VerifyCallback.verify("other", header, body, now + 10)).isFalse();
        assertThat(VerifyCallback.verify("s3cret", header, body, now + 3600)).as("too old: a replay").isFalse();
    }

    @Test
    void docsCallbacksShowsTheJavaCheckWordForWord() throws Exception {
        String source = java.nio.file.Files.readString(java.nio.file.Path.of("src/test/java/org/topupbatch/notify/VerifyCallback.java"));
        String snippet = source.substring(source.indexOf("// docs/callbacks.md: java begin") + 33,
                source.indexOf("    // docs/callbacks.md: java end")).stripTrailing().stripIndent().strip();
        String page = java.nio.file.Files.readString(java.nio.file.Path.of("docs/callbacks.md"));
        assertThat(page.replace("\r", "")).contains(snippet);
    }
}
