package org.topupbatch.cluster;

import java.time.Clock;
import java.time.Instant;

/**
 * This node's name and what it does now, for whoever shows it: the log, {@code status}, health and
 * metrics (bound as {@code nodeRole}).
 */
public final class NodeRole {

    /** What a node does on a shared journal. */
    public enum Role {
        /** Started, has not yet asked for the journal lock. */
        STARTING,
        /** Another node is active; this one answers webhooks and waits for the lock. */
        STANDBY,
        /** Holds the lock and does the leader's start-up work before its routes start. */
        TAKING_OVER,
        /** Takes files, submits, tracks and reports. */
        LEADER,
        /** Lost the lock while active; stops and ends the process. */
        STEPPED_DOWN
    }

    private final String name;
    private final Clock clock;
    private volatile Role role = Role.STARTING;
    private volatile Instant since;

    public NodeRole(String name, Clock clock) {
        this.name = name;
        this.clock = clock;
        this.since = clock.instant();
    }

    public String name() {
        return name;
    }

    public Role role() {
        return role;
    }

    /** When the node took its present role. */
    public Instant since() {
        return since;
    }

    public boolean isLeader() {
        return role == Role.LEADER;
    }

    void become(Role next) {
        if (role != next) {
            role = next;
            since = clock.instant();
        }
    }

    @Override
    public String toString() {
        return "node " + name + " (" + role.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ")";
    }
}
