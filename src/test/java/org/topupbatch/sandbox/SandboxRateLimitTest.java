package org.topupbatch.sandbox;

import org.topupbatch.testing.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The rolling 60 s window per tier, the daily limit and the stats, driven by a hand-moved clock. */
class SandboxRateLimitTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private SandboxProvider sandbox;
    private SandboxTestClient client;
    private MutableClock clock;

    private void start(SandboxTier tier) {
        sandbox = SandboxProvider.start(SandboxConfig.defaults().setTier(tier).setSeed(3L), 0);
        clock = new MutableClock(T0);
        sandbox.setClock(clock);
        client = new SandboxTestClient(sandbox.baseUrl());
    }

    @AfterEach
    void stop() {
        sandbox.close();
    }

    @ParameterizedTest
    @EnumSource(SandboxTier.class)
    void limitPlusOneCallsInsideAMinuteGiveExactlyOne429(SandboxTier tier) {
        start(tier);
        int limit = tier.limitPerMinute();
        int refused = 0;
        for (int i = 0; i <= limit; i++) {
            // spread over 59 s: all inside one window; mixed operations share the budget
            clock.set(T0.plusMillis(59_000L * i / limit));
            int status = (i % 3 == 0 ? client.profile() : client.balance()).status();
            if (status == 429) {
                refused++;
                assertThat(i).as("only the last call is refused").isEqualTo(limit);
            }
        }
        assertThat(refused).isEqualTo(1);
        assertThat(sandbox.stats().rateLimited()).isEqualTo(1);
        assertThat(sandbox.stats().busiestWindow()).isEqualTo(limit);
        assertThat(sandbox.stats().totalRequests()).isEqualTo(limit + 1);
        // the window rolls: once the first call is 60 s old there is room for one more
        clock.set(T0.plusSeconds(60));
        assertThat(client.balance().status()).isEqualTo(200);
        assertThat(client.balance().status()).isEqualTo(429);
    }

    @Test
    void callsSpacedWithinTheLimitAreNeverRefused() {
        start(SandboxTier.BASIC);
        // 60 per minute = one per second, kept up for three minutes
        for (int i = 0; i < 180; i++) {
            assertThat(client.balance().status()).as("call %d", i).isEqualTo(200);
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(sandbox.stats().rateLimited()).isZero();
        assertThat(sandbox.stats().busiestWindow()).isEqualTo(60);
    }

    @Test
    void busiestWindowIsTheMostInAnyRollingMinute() {
        start(SandboxTier.GOLD);
        for (int i = 0; i < 10; i++) {
            client.balance();
        }
        clock.advance(Duration.ofSeconds(61));
        for (int i = 0; i < 25; i++) {
            client.balance();
        }
        clock.advance(Duration.ofSeconds(30));
        for (int i = 0; i < 5; i++) {
            client.balance();
        }
        clock.advance(Duration.ofSeconds(31));
        client.balance();
        // windows: 10, then 25, then 25+5 = 30 within 30 s, then 5+1
        assertThat(sandbox.stats().busiestWindow()).isEqualTo(30);
        assertThat(sandbox.stats().requestsPerOperation()).containsEntry("check-balance", 41L)
                .containsEntry("create-order", 0L).containsKeys("price-list", "order-history", "profile", "check-order");
    }

    @Test
    void refusedRequestsAreNotCountedButBadSignaturesAre() {
        start(SandboxTier.BASIC);
        ObjectNode badSign = SandboxTestClient.signed("balance");
        badSign.put("sign", "00000000000000000000000000000000");
        ObjectNode unknownKey = SandboxTestClient.signed("balance");
        unknownKey.put("api_key", "RSL-UNKNOWN");
        for (int i = 0; i < 10; i++) {
            assertThat(client.post("/v1/check-balance", unknownKey).status()).isEqualTo(401);
        }
        for (int i = 0; i < 10; i++) {
            assertThat(client.post("/v1/check-balance", badSign).status()).isEqualTo(401);
        }
        for (int i = 0; i < 50; i++) {
            assertThat(client.balance().status()).isEqualTo(200);
        }
        // 10 bad signatures + 50 good = 60: the window is full
        assertThat(client.balance().status()).isEqualTo(429);
        assertThat(client.balance().status()).isEqualTo(429);
        clock.advance(Duration.ofSeconds(61));
        assertThat(client.balance().status()).as("429s did not count").isEqualTo(200);
        assertThat(sandbox.stats().busiestWindow()).isEqualTo(60);
    }

    @Test
    void dailyLimitPerUtcDay() {
        start(SandboxTier.BASIC);
        clock.set(Instant.parse("2026-11-21T23:59:00Z"));
        sandbox.rateLimiterForTests().presetToday(SandboxTestClient.KEY, 9_999, clock.instant());
        assertThat(client.balance().status()).isEqualTo(200);
        SandboxTestClient.Answer refused = client.balance();
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.code()).isEqualTo("DAILY_LIMIT_EXCEEDED");
        assertThat(refused.response().headers().firstValue("Retry-After")).hasValue("60");
        SandboxTestClient.Answer profile = client.profile();
        assertThat(profile.code()).isEqualTo("DAILY_LIMIT_EXCEEDED");
        clock.set(Instant.parse("2026-11-22T00:00:00Z"));
        profile = client.profile();
        assertThat(profile.status()).isEqualTo(200);
        assertThat(profile.data().get("api_usage").get("today").longValue()).isEqualTo(1);
        assertThat(profile.data().get("api_usage").get("this_month").longValue()).isEqualTo(10_001);
    }
}
