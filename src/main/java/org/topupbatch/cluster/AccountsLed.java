package org.topupbatch.cluster;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The accounts whose orders this node sends and follows. Every account on a single node, or with one
 * account; with several accounts on a shared PostgreSQL journal (README "Two nodes"), the accounts
 * whose lead this node holds now, one leader per account, so that two nodes send at once, each for
 * its own accounts. Submission and tracking ask it before they take a row and again right before an
 * order leaves.
 */
public final class AccountsLed {

    /** Every account: one node, or one account. */
    public static final AccountsLed EVERY = new AccountsLed(false);

    private final boolean apart;
    private final Set<String> led = ConcurrentHashMap.newKeySet();
    /** Per account: marking a row SENDING (shared) against handing the lead over (exclusive). */
    private final java.util.Map<String, java.util.concurrent.locks.ReadWriteLock> sending = new ConcurrentHashMap<>();

    private AccountsLed(boolean apart) {
        this.apart = apart;
    }

    /** Several accounts on two nodes: none led until this node takes an account's lead. */
    public static AccountsLed separately() {
        return new AccountsLed(true);
    }

    /** Whether each account has a leader of its own (else this node sends for every account). */
    public boolean apart() {
        return apart;
    }

    /**
     * Whether this node sends and follows the orders of {@code account}. A row with no account (routed
     * under other settings, only ever rejected or moved unsent) is any leading node's.
     */
    public boolean leads(String account) {
        return !apart || (account == null ? !led.isEmpty() : led.contains(account));
    }

    /**
     * Runs {@code commit} (marking a row SENDING) only while this node leads {@code account}, and holds
     * the lead meanwhile: a hand-over waits until it is done, so that once the lead is released every
     * row this node marked SENDING there is in the journal for the hand-over to wait on. False, without
     * running it, when the lead is gone.
     */
    public boolean whileLeading(String account, java.util.function.BooleanSupplier commit) {
        if (!apart || account == null) {
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
