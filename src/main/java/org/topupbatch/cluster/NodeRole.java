package org.topupbatch.cluster;

import java.time.Clock;
import java.time.Instant;
import java.util.Locale;

/**
 * This node's name and what it does now, for whoever shows it: the log, {@code status}, health and
 * metrics (bound as {@code nodeRole}).
 */
public final class NodeRole {

    /** What a node does on its journal. */
    public enum Role {
        /** The only node: an embedded H2 journal, which one process serves; it does the leader's work. */
        SINGLE,
        /** Started on a shared journal, has not yet asked for the journal lock. */
        STARTING,
        /** Another node is active; this one answers webhooks and waits for the lock. */
        STANDBY,
        /** Holds the lock and does the leader's start-up work before its routes start. */
        TAKING_OVER,
        /** Takes files, submits, tracks and reports. */
        LEADER,
        /** Lost the lock while active; stops and ends the process. */
        STEPPED_DOWN;

        /** As health, metrics and the dashboard show it: {@code leader}, {@code standby}, {@code taking-over}, ... */
        public String shown() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** A role and when the node took it, read together. */
    public record Now(Role role, Instant since) {
    }

    private final String name;
    private final Clock clock;
    private volatile Now now;

    /** A node on a shared journal, starting: it has yet to learn whether it leads or stands by. */
    public NodeRole(String name, Clock clock) {
        this(name, clock, Role.STARTING);
    }

    private NodeRole(String name, Clock clock, Role role) {
        this.name = name;
        this.clock = clock;
        this.now = new Now(role, clock.instant());
    }

    /** The one node of a journal no other process shares; it keeps this role for its life. */
    public static NodeRole single(String name, Clock clock) {
        return new NodeRole(name, clock, Role.SINGLE);
    }

    public String name() {
        return name;
    }

    public Role role() {
        return now.role();
    }

    /** When the node took its present role. */
    public Instant since() {
        return now.since();
    }

    /** The role with its time, consistent with each other. */
    public Now now() {
        return now;
    }

    public boolean isLeader() {
        return role() == Role.LEADER;
    }

    /** Whether this node does the active work (takes files, submits, tracks, reports): a leader or a single node. */
    public boolean isActive() {
        Role role = role();
        return role == Role.LEADER || role == Role.SINGLE;
    }

    synchronized void become(Role next) {
        if (now.role() != next) {
            now = new Now(next, clock.instant());
        }
    }

    @Override
    public String toString() {
        return "node " + name + " (" + role().shown().replace('-', ' ') + ")";
    }
}
