package org.topupbatch.cluster;

/**
 * What the product does when this node's role changes; the cluster view calls these from its
 * polling thread, before the leader's routes start and as soon as leadership is lost.
 */
public interface LeaderDuties {

    /**
     * The leader's start-up work, before its routes start: the rate budget judged again from the
     * shared call record, the account's limits read, orders a dead leader left in SENDING made
     * UNKNOWN. Returns a fatal problem (the node gives the lock back and stops), or null.
     */
    String takeOver();

    /** Leadership is lost: no new provider request may start from now on. */
    void stepDown();

    /** The node cannot go on; the process ends with this exit code (a supervisor restarts it as a standby). */
    void exit(int code);

    /**
     * Several accounts on two nodes: this node takes the lead of {@code account}, before it sends there:
     * the account's rate budget judged again from the shared call record, and its orders the last
     * leader left SENDING made UNKNOWN (looked up, never sent again). Throws when it cannot.
     */
    default void takeAccount(String account) {
    }

    /**
     * Several accounts on two nodes: this node hands the lead of {@code account} over and starts no new
     * order there; waits (a bounded while) until its orders on the wire there are journaled. False
     * when some are still on the wire (the next leader looks them up).
     */
    default boolean awaitAccountQuiet(String account) {
        return true;
    }
}
