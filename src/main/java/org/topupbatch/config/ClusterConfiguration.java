package org.topupbatch.config;

import java.time.Clock;
import java.util.function.Function;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
import org.topupbatch.cluster.AccountsLed;
import org.topupbatch.cluster.LeaderDuties;
import org.topupbatch.cluster.NodeName;
import org.topupbatch.cluster.NodeRole;
import org.topupbatch.cluster.TwoNodes;
import org.topupbatch.settings.Settings;

/**
 * This node: its name ({@code topup.node-name}, else the host's) and role, bound as
 * {@code nodeRole} on every journal; on a shared PostgreSQL journal also the journal-lock cluster
 * service and the leader-only route policy (docs/two-nodes.md#two-nodes).
 */
public final class ClusterConfiguration extends AreaConfiguration {

    private final Settings settings;
    private final NodeRole node;
    private final AccountsLed accountsLed;

    /** @throws org.topupbatch.settings.SettingsException when the configured node name is not usable */
    public ClusterConfiguration(Settings settings, Function<String, String> lookup, Clock clock) {
        this.settings = settings;
        String name = NodeName.resolve(lookup);
        this.node = TwoNodes.sharedJournal(settings.journal().url()) ? new NodeRole(name, clock) : NodeRole.single(name, clock);
        // several accounts on a shared journal: one leader per account (docs/two-nodes.md#two-nodes)
        java.util.List<String> accounts = settings.provider().accounts().stream().map(org.topupbatch.settings.ProviderAccount::name).toList();
        this.accountsLed = TwoNodes.sharedJournal(settings.journal().url()) && accounts.size() > 1 ? AccountsLed.separately(accounts)
                : AccountsLed.EVERY;
    }

    /** The accounts this node sends for: every one, or with several accounts on two nodes those it leads. */
    public AccountsLed accountsLed() {
        return accountsLed;
    }

    @BindToRegistry(TwoNodes.NODE_ROLE)
    public NodeRole node() {
        return node;
    }

    /**
     * Before the routes exist: on a shared journal the leader's routes run under the cluster's
     * route policy, and {@code duties} say what taking over and stepping down do. Null on a
     * journal no other process shares (embedded H2).
     */
    public TwoNodes install(CamelContext camelContext, LeaderDuties duties) {
        if (!TwoNodes.sharedJournal(settings.journal().url())) {
            return null;
        }
        return TwoNodes.install(camelContext, node, settings.journal().url(), settings.journal().user(), settings.journal().password(), duties,
                settings.provider().accounts().stream().map(org.topupbatch.settings.ProviderAccount::name).toList(), accountsLed);
    }
}
