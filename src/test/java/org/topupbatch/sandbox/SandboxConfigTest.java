package org.topupbatch.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxConfigTest {

    @Test
    void defaults() {
        SandboxConfig c = SandboxConfig.defaults();
        assertThat(c.apiKey()).isEqualTo("RSL-7F3A9C21");
        assertThat(c.apiSecret()).isEqualTo("s3cr3t-Kx9pQ2");
        assertThat(c.tier()).isEqualTo(SandboxTier.GOLD);
        assertThat(c.balance()).isEqualTo(10_000_000L);
        assertThat(c.webhookUrl()).isEmpty();
        assertThat(c.latency().isZero()).isTrue();
        assertThat(c.errorRate()).isZero();
        assertThat(c.lostAnswerRate()).isZero();
        assertThat(c.lostAnswerMode()).isEqualTo(LostAnswerMode.MIXED);
        assertThat(c.settleDelay()).isEqualTo(DurationRange.of(Duration.ofSeconds(2), Duration.ofSeconds(5)));
        assertThat(c.failRate()).isZero();
        assertThat(c.webhookDuplicateRate()).isZero();
        assertThat(c.webhookLateRate()).isZero();
        assertThat(c.webhookLateDelay()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.checkOrder()).isTrue();
        assertThat(c.ipWhitelistEnforced()).isFalse();
        assertThat(c.ipWhitelist()).containsExactly("127.0.0.1");
        assertThat(c.seed()).isNull();
    }

    @Test
    void readsEveryKnobFromTheLookup() {
        Map<String, String> props = Map.ofEntries(
                Map.entry("topup.sandbox.api-key", "RSL-1"), Map.entry("topup.sandbox.api-secret", "sec"),
                Map.entry("topup.sandbox.tier", "silver"), Map.entry("topup.sandbox.balance", "500000"),
                Map.entry("topup.sandbox.webhook-url", "http://127.0.0.1:9/hook"),
                Map.entry("topup.sandbox.latency", "20ms-150ms"), Map.entry("topup.sandbox.error-rate", "0.1"),
                Map.entry("topup.sandbox.lost-answer-rate", "0.2"), Map.entry("topup.sandbox.lost-answer-mode", "504"),
                Map.entry("topup.sandbox.settle-delay", "1s-2m"), Map.entry("topup.sandbox.fail-rate", "0.3"),
                Map.entry("topup.sandbox.webhook-duplicate-rate", "0.4"), Map.entry("topup.sandbox.webhook-late-rate", "0.5"),
                Map.entry("topup.sandbox.webhook-late-delay", "3s"), Map.entry("topup.sandbox.check-order", "false"),
                Map.entry("topup.sandbox.ip-whitelist-enforced", "true"),
                Map.entry("topup.sandbox.ip-whitelist", "10.0.0.1, 127.0.0.1"), Map.entry("topup.sandbox.seed", "42"));
        SandboxConfig c = SandboxConfig.fromLookup(props::get);
        assertThat(c.apiKey()).isEqualTo("RSL-1");
        assertThat(c.apiSecret()).isEqualTo("sec");
        assertThat(c.tier()).isEqualTo(SandboxTier.SILVER);
        assertThat(c.balance()).isEqualTo(500_000);
        assertThat(c.webhookUrl()).isEqualTo("http://127.0.0.1:9/hook");
        assertThat(c.latency()).isEqualTo(DurationRange.of(Duration.ofMillis(20), Duration.ofMillis(150)));
        assertThat(c.errorRate()).isEqualTo(0.1);
        assertThat(c.lostAnswerRate()).isEqualTo(0.2);
        assertThat(c.lostAnswerMode()).isEqualTo(LostAnswerMode.GATEWAY_TIMEOUT);
        assertThat(c.settleDelay()).isEqualTo(DurationRange.of(Duration.ofSeconds(1), Duration.ofMinutes(2)));
        assertThat(c.failRate()).isEqualTo(0.3);
        assertThat(c.webhookDuplicateRate()).isEqualTo(0.4);
        assertThat(c.webhookLateRate()).isEqualTo(0.5);
        assertThat(c.webhookLateDelay()).isEqualTo(Duration.ofSeconds(3));
        assertThat(c.checkOrder()).isFalse();
        assertThat(c.ipWhitelistEnforced()).isTrue();
        assertThat(c.ipWhitelist()).containsExactly("10.0.0.1", "127.0.0.1");
        assertThat(c.seed()).isEqualTo(42L);
    }

    @Test
    void badValuesNameTheKey() {
        assertThatThrownBy(() -> SandboxConfig.fromLookup(Map.of("topup.sandbox.tier", "platinum")::get))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("topup.sandbox.tier");
        assertThatThrownBy(() -> SandboxConfig.fromLookup(Map.of("topup.sandbox.error-rate", "1.5")::get))
                .hasMessageContaining("topup.sandbox.error-rate");
        assertThatThrownBy(() -> SandboxConfig.fromLookup(Map.of("topup.sandbox.latency", "150ms-20ms")::get))
                .hasMessageContaining("topup.sandbox.latency");
        assertThatThrownBy(() -> SandboxConfig.fromLookup(Map.of("topup.sandbox.settle-delay", "2h")::get))
                .hasMessageContaining("topup.sandbox.settle-delay");
        assertThatThrownBy(() -> SandboxConfig.fromLookup(Map.of("topup.sandbox.balance", "lots")::get))
                .hasMessageContaining("topup.sandbox.balance");
        assertThatThrownBy(() -> SandboxConfig.fromLookup(Map.of("topup.sandbox.check-order", "yes")::get))
                .hasMessageContaining("topup.sandbox.check-order");
        assertThatThrownBy(() -> SandboxConfig.defaults().set("no-such-knob", "1"))
                .hasMessageContaining("topup.sandbox.no-such-knob");
    }

    @Test
    void durationRanges() {
        assertThat(DurationRange.parse("0")).isEqualTo(DurationRange.ZERO);
        assertThat(DurationRange.parse("100ms")).isEqualTo(DurationRange.of(Duration.ofMillis(100), Duration.ofMillis(100)));
        assertThat(DurationRange.parse(" 2s - 5s ")).isEqualTo(DurationRange.of(Duration.ofSeconds(2), Duration.ofSeconds(5)));
        java.util.Random random = new java.util.Random(1);
        DurationRange range = DurationRange.parse("20ms-150ms");
        for (int i = 0; i < 1000; i++) {
            assertThat(range.pick(random)).isBetween(Duration.ofMillis(20), Duration.ofMillis(150));
        }
        assertThatThrownBy(() -> DurationRange.parse("100")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void environmentNames() {
        assertThat(SandboxMain.envName("topup.sandbox.lost-answer-rate")).isEqualTo("TOPUP_SANDBOX_LOST_ANSWER_RATE");
        SandboxConfig c = SandboxConfig.fromLookup(SandboxMain.lookup(k -> null,
                Map.of("TOPUP_SANDBOX_TIER", "basic")::get));
        assertThat(c.tier()).isEqualTo(SandboxTier.BASIC);
    }

    @Test
    void theSecretIsNeverShown() {
        SandboxConfig c = SandboxConfig.defaults();
        assertThat(c.describe().values()).doesNotContain("s3cr3t-Kx9pQ2");
        assertThatThrownBy(() -> c.set("api-secret", "")).hasMessageNotContaining("s3cr3t");
        assertThat(c.describe().values()).doesNotContain(SandboxConfig.DEMO_WEBHOOK_SECRET);
        assertThat(c.describe()).doesNotContainKey("webhook-secret");
    }

    @Test
    void webhookSecretAndRetrySchedule() {
        SandboxConfig c = SandboxConfig.fromLookup(Map.of("topup.sandbox.webhook-secret", "whsec-x",
                "topup.sandbox.webhook-retry-schedule", "100ms, 200ms,1m,2h")::get);
        assertThat(c.webhookSecret()).isEqualTo("whsec-x");
        assertThat(c.webhookRetrySchedule()).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200),
                Duration.ofMinutes(1), Duration.ofHours(2));
        assertThat(c.describe()).containsEntry("webhook-retry-schedule", "100ms,200ms,60000ms,7200000ms");
        assertThat(SandboxConfig.defaults().webhookSecret()).isEqualTo(SandboxConfig.DEMO_WEBHOOK_SECRET);
        assertThat(SandboxConfig.defaults().webhookRetrySchedule()).as("as the real provider documents it")
                .containsExactly(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2));
        assertThatThrownBy(() -> c.set("webhook-retry-schedule", "soon"))
                .hasMessageContaining("topup.sandbox.webhook-retry-schedule");
        assertThatThrownBy(() -> c.set("webhook-secret", "")).hasMessageContaining("topup.sandbox.webhook-secret")
                .hasMessageNotContaining("whsec-x");
    }
}
