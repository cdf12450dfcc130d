package org.topupbatch.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.topupbatch.sandbox.SandboxConfig;
import org.topupbatch.sandbox.SandboxProvider;
import org.topupbatch.testing.FreePorts;

/**
 * Issue 33, item 1: one list of accounts, the one account of topup.base-url a list of one. The list
 * must answer for a lone unnamed account exactly as that account's own gateway did (its balance record,
 * its failures unnamed, asked even after a failed connection), and for several as the accounts' gateway
 * did (a total, a dead account left out for a while, failures naming their account). Against the sandbox
 * over real HTTP; a dead account is a free port nothing listens on.
 */
class AccountsTest {

    private SandboxProvider sandbox;
    private final List<HttpProviderClient> clients = new ArrayList<>();
    private final InMemoryCallLog memory = new InMemoryCallLog();
    /** The in-memory call record, with the limits' pruning of old calls a no-op (nothing is old here). */
    private final CallLog calls = (CallLog) Proxy.newProxyInstance(CallLog.class.getClassLoader(),
            new Class<?>[] {CallLog.class}, (proxy, method, args) -> {
                if (method.getName().equals("pruneCalls")) {
                    return null;
                }
                try {
                    return method.invoke(memory, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });

    @BeforeEach
    void start() {
        sandbox = SandboxProvider.start(SandboxConfig.defaults(), 0);
    }

    @AfterEach
    void stop() {
        clients.forEach(HttpProviderClient::close);
        sandbox.close();
    }

    @Test
    void a_lone_account_answers_as_its_own_gateway() {
        Accounts.Account account = account(null, sandbox.baseUrl(), SandboxConfig.defaults().apiSecret());
        Accounts one = new Accounts(List.of(account));
        ProviderGateway gateway = account.gateway();

        Balance own = gateway.checkBalance();
        one.unreachable(null); // nothing else to go on with: a lone account is asked all the same
        Balance listed = one.checkBalance();
        assertThat(listed.tier()).as("its own record, tier included").isEqualTo(own.tier()).isNotNull();
        assertThat(listed.balance()).isEqualTo(own.balance());
        assertThat(one.requestsPerMinute()).isEqualTo(gateway.requestsPerMinute());
        assertThat(one.of(null)).isSameAs(gateway);
        assertThat(one.names()).containsExactly((String) null);
    }

    @Test
    void a_lone_unnamed_accounts_failure_is_the_providers_and_a_named_ones_names_it() {
        String dead = "http://127.0.0.1:" + FreePorts.pick();
        Accounts unnamed = new Accounts(List.of(account(null, dead, "x")));
        assertThatThrownBy(unnamed::refreshLimits).isInstanceOf(ProviderException.class)
                .satisfies(e -> assertThat(((ProviderException) e).is(ProviderError.CONNECTION_FAILED)).isTrue())
                .message().doesNotStartWith("account ");
        assertThatThrownBy(unnamed::checkBalance).isInstanceOf(ProviderException.class);

        Accounts named = new Accounts(List.of(account("dfz", dead, "x")));
        assertThatThrownBy(named::refreshLimits).isInstanceOf(ProviderException.class).message().startsWith("account dfz");
    }

    @Test
    void several_accounts_total_their_balances_and_leave_a_dead_one_out() {
        Accounts.Account main = account("main", sandbox.baseUrl(), SandboxConfig.defaults().apiSecret());
        Accounts.Account backup = account("backup", "http://127.0.0.1:" + FreePorts.pick(), "x");
        Accounts several = new Accounts(List.of(main, backup));

        several.refreshLimits(); // one answers: the start goes on
        assertThat(several.reachable("backup")).isFalse();
        assertThat(several.reachable("main")).isTrue();
        Balance total = several.checkBalance();
        assertThat(total.balance()).isEqualTo(main.gateway().checkBalance().balance());
        assertThat(total.name()).isEqualTo("1 of 2 accounts");
        assertThat(several.requestsPerMinute())
                .isEqualTo(main.gateway().requestsPerMinute() + backup.gateway().requestsPerMinute());
        assertThatThrownBy(() -> several.of(null)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> several.of("other")).isInstanceOf(IllegalStateException.class).hasMessageContaining("other");
    }

    /** An account (null name: the one of topup.base-url) with its own budget, client, gateway and limits. */
    private Accounts.Account account(String name, String baseUrl, String secret) {
        RateBudget budget = new RateBudget(Clock.systemUTC(), calls, Duration.ofSeconds(40), RateBudget.Waiter.REAL, 300, 100_000);
        HttpProviderClient client = HttpProviderClient.standalone(ProviderEndpoint.of(baseUrl,
                new Signer(SandboxConfig.defaults().apiKey(), secret)), budget);
        clients.add(client);
        ProviderGateway gateway = new ProviderGateway(client, budget, d -> { });
        AccountLimitsRefresh limits = new AccountLimitsRefresh(calls, gateway, budget, Clock.systemUTC());
        return name == null ? Accounts.Account.unnamed(gateway, limits) : Accounts.Account.named(name, gateway, limits);
    }
}
