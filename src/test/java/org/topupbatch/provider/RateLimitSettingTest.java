package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;

/**
 * Issue 37, item 5: {@code topup.rate-limit} sets the minute's limit only. The day's comes from the
 * provider's profile (the sandbox's gold account: 200,000) or from {@code topup.daily-limit}; before,
 * a rate of 60 silently lowered the day to 10,000. Against the sandbox over real HTTP.
 */
class RateLimitSettingTest {

    SandboxProvider sandbox;
    HttpProviderClient client;
    ProviderGateway gateway;
    RateBudget budget;
    final InMemoryCallLog memory = new InMemoryCallLog();
    /** The in-memory call record, with the refresh's pruning of old calls a no-op (nothing is old here). */
    final CallLog calls = new CallLog() {
        @Override
        public long reserveCall(java.time.Instant reservedAt, String operation) {
            return memory.reserveCall(reservedAt, operation);
        }

        @Override
        public void completeCall(long callId, java.time.Instant answeredAt, int httpStatus) {
            memory.completeCall(callId, answeredAt, httpStatus);
        }

        @Override
        public java.util.List<ProviderCall> callsSince(java.time.Instant since) {
            return memory.callsSince(since);
        }

        @Override
        public long countCallsSince(java.time.Instant since) {
            return memory.countCallsSince(since);
        }

        @Override
        public void pruneCalls(java.time.Instant before) {
        }

        @Override
        public void rememberLimits(AccountLimits limits) {
            memory.rememberLimits(limits);
        }

        @Override
        public java.util.Optional<AccountLimits> rememberedLimits() {
            return memory.rememberedLimits();
        }
    };

    @BeforeEach
    void start() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults(), 0);
        budget = new RateBudget(Clock.systemUTC(), calls, Duration.ofSeconds(40), RateBudget.Waiter.REAL, 300, 100_000);
        SandboxConfig demo = SandboxConfig.defaults();
        client = HttpProviderClient.standalone(ProviderEndpoint.of(sandbox.baseUrl(), new Signer(demo.apiKey(),
                demo.apiSecret())), budget);
        gateway = new ProviderGateway(client, budget, d -> { });
    }

    @AfterEach
    void stop() {
        client.close();
        sandbox.close();
    }

    @Test
    void the_minute_setting_leaves_the_providers_daily_limit() {
        new AccountLimitsRefresh(calls, gateway, budget, Clock.systemUTC(), 60).refreshLimits();
        assertThat(budget.limits().perMinute()).isEqualTo(60);
        assertThat(budget.limits().perDay()).as("the gold account's day, from its profile").isEqualTo(200_000);
    }

    @Test
    void a_setting_above_the_providers_figure_does_not_raise_it() {
        new AccountLimitsRefresh(calls, gateway, budget, Clock.systemUTC(), 1_000, 900_000).refreshLimits();
        assertThat(budget.limits().perMinute()).as("the gold account's minute, from its profile").isEqualTo(300);
        assertThat(budget.limits().perDay()).as("the gold account's day, from its profile").isEqualTo(200_000);
    }

    @Test
    void the_daily_setting_sets_the_day() {
        new AccountLimitsRefresh(calls, gateway, budget, Clock.systemUTC(), 60, 50_000).refreshLimits();
        assertThat(budget.limits().perMinute()).isEqualTo(60);
        assertThat(budget.limits().perDay()).isEqualTo(50_000);
        new AccountLimitsRefresh(calls, gateway, budget, Clock.systemUTC(), 0).refreshLimits();
        assertThat(budget.limits().perMinute()).as("the gold tier's minute").isEqualTo(300);
        assertThat(budget.limits().perDay()).isEqualTo(200_000);
    }
}
