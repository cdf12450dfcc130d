package org.topupbatch.cluster;

import java.time.Duration;
import org.apache.camel.support.cluster.AbstractCamelClusterService;
import org.topupbatch.journal.JournalDataSource;

/**
 * Camel's cluster service backed by the PostgreSQL journal: the leader of a namespace is the node
 * whose session holds the journal's advisory lock. Nothing but the journal is shared, and the lock
 * needs no expiry or cleanup: it dies with the session of a node that dies or is cut off.
 */
public final class JournalLockClusterService extends AbstractCamelClusterService<LockClusterView> {

    private final String url;
    private final String user;
    private final String password;
    private final NodeRole node;
    private final LeaderDuties duties;
    private final Duration pollInterval;
    /** Several accounts on two nodes: the accounts, each led apart (empty: one leader for everything). */
    private final java.util.List<String> accounts;
    private final AccountsLed accountsLed;
    private final Object shareLock = new Object();
    private java.time.Instant lastHandOver = java.time.Instant.EPOCH;

    /** A pause between two hand-overs of this node, so that the other node takes the first before it is counted. */
    static final Duration BETWEEN_HAND_OVERS = Duration.ofSeconds(10);
    /** Namespaces of the accounts' leads: this, then the account's name. */
    static final String ACCOUNT_NAMESPACE = "topup-batch-account-";

    public JournalLockClusterService(String url, String user, String password, NodeRole node, LeaderDuties duties,
                                     Duration pollInterval) {
        this(url, user, password, node, duties, pollInterval, java.util.List.of(), AccountsLed.EVERY);
    }

    public JournalLockClusterService(String url, String user, String password, NodeRole node, LeaderDuties duties,
                                     Duration pollInterval, java.util.List<String> accounts, AccountsLed accountsLed) {
        super("journal-lock");
        this.url = url;
        this.user = user;
        this.password = password;
        this.node = node;
        this.duties = duties;
        this.pollInterval = pollInterval;
        this.accounts = java.util.List.copyOf(accounts);
        this.accountsLed = accountsLed;
    }

    @Override
    protected LockClusterView createView(String namespace) {
        // the journal's lock, or one account's lead (several accounts on two nodes)
        if (namespace.startsWith(ACCOUNT_NAMESPACE)) {
            return new AccountLeadView(this, namespace, namespace.substring(ACCOUNT_NAMESPACE.length()));
        }
        return new JournalLockClusterView(this, namespace);
    }

    /** Starts asking for the lock; called once Camel and its route policies are up. */
    public void beginPolling(String namespace) throws Exception {
        getView(namespace).unwrap(JournalLockClusterView.class).beginPolling();
    }

    /** Several accounts on two nodes: starts asking for each account's lead. */
    public void beginLeadingAccounts() throws Exception {
        for (String account : accounts) {
            getView(ACCOUNT_NAMESPACE + account).unwrap(AccountLeadView.class).beginPolling();
        }
    }

    java.util.List<String> accounts() {
        return accounts;
    }

    AccountsLed accountsLed() {
        return accountsLed;
    }

    Object shareLock() {
        return shareLock;
    }

    /** The accounts a node leads at most while {@code nodes} are connected: all of them divided evenly, rounded up. */
    int share(int nodes) {
        int n = Math.max(1, nodes);
        return (accounts.size() + n - 1) / n;
    }

    /** Whether this node may take one more account's lead. */
    boolean belowShare(int nodes) {
        return accountsLed.count() < share(nodes);
    }

    /**
     * Whether the account of {@code view} is to be handed over now: this node leads more than its
     * share while another node is connected, it is the last of its accounts in topup.providers' order,
     * held long enough, and no other hand-over of this node is recent. True reserves the hand-over.
     */
    boolean handsOver(AccountLeadView view, int nodes, java.time.Instant heldSince, java.time.Instant now) {
        synchronized (shareLock) {
            if (nodes < 2 || accountsLed.count() <= share(nodes) || heldSince == null
                    || heldSince.plus(AccountLeadView.HELD_BEFORE_HANDED_OVER).isAfter(now)
                    || lastHandOver.plus(BETWEEN_HAND_OVERS).isAfter(now)) {
                return false;
            }
            String last = null;
            for (String account : accounts) {
                if (accountsLed.leads(account)) {
                    last = account;
                }
            }
            if (!view.account().equals(last)) {
                return false;
            }
            lastHandOver = now;
            return true;
        }
    }

    void handedOver(java.time.Instant at) {
        synchronized (shareLock) {
            lastHandOver = at;
        }
    }

    String url() {
        return url;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    /** The URL as logs may show it (no password). */
    String shownUrl() {
        return JournalDataSource.redact(url);
    }

    NodeRole node() {
        return node;
    }

    LeaderDuties duties() {
        return duties;
    }

    Duration pollInterval() {
        return pollInterval;
    }

    @Override
    public String toString() {
        return "journal lock cluster service on " + shownUrl() + " (" + node + ")";
    }
}
