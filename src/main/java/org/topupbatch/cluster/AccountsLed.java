package org.topupbatch.cluster;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The accounts whose orders this node sends and follows. Every account on a single node, or with one
 * account; with several accounts on a shared PostgreSQL journal (docs/two-nodes.md#two-nodes), the accounts
 * whose lead this node holds now, one leader per account, so that two nodes send at once, each for
 * its own accounts. Submission and tracking ask it before they take a row and again right before an
 * order leaves.
 */
public final class AccountsLed {

    /** Every account: one node, or one account. */
    public static final AccountsLed EVERY = new AccountsLed(false, Set.of());

    private final boolean apart;
    /** The accounts of topup.providers: a row at any other account (or at none) is the active node's. */
    private final Set<String> configured;
    private final Set<String> led = ConcurrentHashMap.newKeySet();
    /** Whether this node holds the journal's lock (the active node). */
    private volatile boolean active;
    /** Per account: marking a row SENDING (shared) against handing the lead over (exclusive). */
    private final java.util.Map<String, java.util.concurrent.locks.ReadWriteLock> sending = new ConcurrentHashMap<>();

    private AccountsLed(boolean apart, java.util.Collection<String> configured) {
        this.apart = apart;
        this.configured = Set.copyOf(configured);
    }

    /** Several accounts on two nodes: none led until this node takes an account's lead. */
    public static AccountsLed separately(java.util.Collection<String> accounts) {
        return new AccountsLed(true, accounts);
    }

    /** Whether each account has a leader of its own (else this node sends for every account). */
    public boolean apart() {
        return apart;
    }

    /**
     * Whether this node sends and follows the orders of {@code account}. A row with no account, or at an
     * account topup.providers no longer names (queued rows there are moved on or rejected unsent, orders
     * there wait), is the active node's.
     */
    public boolean leads(String account) {
        if (!apart) {
            return true;
        }
        return account == null || !configured.contains(account) ? active : led.contains(account);
    }

    /** Whether this node also takes the rows of no account or of an account topup.providers does not name. */
    public boolean takesTheOthers() {
        return apart && active;
    }

    /** The rows this node takes now, by their account. */
    public org.topupbatch.journal.AccountScope scope() {
        return new org.topupbatch.journal.AccountScope(names(), takesTheOthers(), List.copyOf(configured));
    }

    /** The accounts of topup.providers (several accounts on two nodes). */
    public List<String> configured() {
        return List.copyOf(configured);
    }

    void active(boolean active) {
        this.active = active;
    }

    /**
     * Runs {@code commit} (marking a row SENDING) only while this node leads {@code account}, and holds
     * the lead meanwhile: a hand-over waits until it is done, so that once the lead is released every
     * row this node marked SENDING there is in the journal for the hand-over to wait on. False, without
     * running it, when the lead is gone.
     */
    public boolean whileLeading(String account, java.util.function.BooleanSupplier commit) {
        if (!apart || account == null || !configured.contains(account)) {
            return leads(account) && commit.getAsBoolean();
        }
        java.util.concurrent.locks.Lock shared = lockOf(account).readLock();
        shared.lock();
        try {
            return led.contains(account) && commit.getAsBoolean();
        } finally {
            shared.unlock();
        }
    }

    private java.util.concurrent.locks.ReadWriteLock lockOf(String account) {
        return sending.computeIfAbsent(account, a -> new java.util.concurrent.locks.ReentrantReadWriteLock());
    }

    /** The accounts led now, in no order (empty on a node leading none). */
    public List<String> names() {
        return List.copyOf(led);
    }

    public int count() {
        return led.size();
    }

    void take(String account) {
        led.add(account);
    }

    /**
     * The lead is lost (its lock session stopped answering): no marking starts here from now on, and
     * this does not wait for one under way, which may hang on the same cut link as the lock (docs/two-nodes.md#two-nodes: a lost lead does not wait; the next leader looks up what this node left SENDING).
     */
    void lost(String account) {
        led.remove(account);
    }

    /** No row is marked SENDING at {@code account} by this node once this returns. */
    void release(String account) {
        java.util.concurrent.locks.Lock exclusive = lockOf(account).writeLock();
        exclusive.lock();
        try {
            led.remove(account);
        } finally {
            exclusive.unlock();
        }
    }
}
