package org.topupbatch.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.camel.cluster.CamelClusterMember;
import org.apache.camel.cluster.CamelClusterService;
import org.apache.camel.support.cluster.AbstractCamelClusterView;

/**
 * A namespace of the journal-lock cluster service as Camel sees it: its members are this node and the
 * node the lock's session names as leader, when another leads. The journal's lock and each account's
 * lead are views of this kind.
 */
abstract class LockClusterView extends AbstractCamelClusterView {

    private final Member local;
    private java.util.concurrent.ScheduledExecutorService poller;
    /**
     * Tells the route policies that the leader changed, on a thread of its own and in order. Camel's
     * clustered route policy starts or stops the leader's routes in the listener it is told from, and a
     * graceful stop waits for the exchanges in flight (up to the shutdown timeout, route after route):
     * after a partition those may hang on the cut link for minutes. Told from the poller, that would stop
     * the lock's checks meanwhile, and the node would stand by again only once its routes let go.
     */
    private java.util.concurrent.ExecutorService announcer;

    LockClusterView(CamelClusterService service, String namespace, String nodeName) {
        super(service, namespace);
        this.local = new Member(nodeName, true);
    }

    /** One look at the lock; never throws (the poller would stop for good). */
    abstract void poll();

    /** Starts looking at the lock every {@code interval} on a thread of its own, once the routes it governs are up. */
    final synchronized void beginPolling(String threadName, java.time.Duration interval) {
        if (poller == null) {
            poller = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
            announcer = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName + "-routes");
                t.setDaemon(true);
                return t;
            });
            poller.scheduleWithFixedDelay(this::poll, 0, interval.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Tells the listeners (the clustered route policies) that {@code leader} leads now, without waiting
     * for them to start or stop their routes; then runs {@code then}. Changes are told in the order they
     * happen, and each policy asks who leads when it is told, so a stop still under way when this node
     * leads again is followed by a start.
     */
    final synchronized void announce(Optional<CamelClusterMember> leader, Runnable then) {
        if (announcer == null) { // not polling (stopped, or a test driving poll() itself): told at once
            fireLeadershipChangedEvent(leader.orElse(null));
            then.run();
            return;
        }
        announcer.execute(() -> {
            fireLeadershipChangedEvent(leader.orElse(null));
            then.run();
        });
    }

    @Override
    protected void doStart() {
        // polling begins with beginPolling(): a lock taken before every policy listens would start no route
    }

    /** Stops looking at the lock (Camel stopping). */
    final synchronized void stopPolling() {
        if (poller != null) {
            poller.shutdownNow();
            poller = null;
        }
        if (announcer != null) {
            announcer.shutdownNow(); // Camel stops every route itself as it stops
            announcer = null;
        }
    }

    /** Whether this node holds the lock now. */
    abstract boolean leadsHere();

    /** The other node holding the lock, as its session names it; null when none does or this one does. */
    abstract String otherLeader();

    @Override
    public Optional<CamelClusterMember> getLeader() {
        if (leadsHere()) {
            return Optional.of(local);
        }
        String other = otherLeader();
        return other == null ? Optional.empty() : Optional.of(new Member(other, false));
    }

    @Override
    public CamelClusterMember getLocalMember() {
        return local;
    }

    @Override
    public List<CamelClusterMember> getMembers() {
        List<CamelClusterMember> members = new ArrayList<>();
        members.add(local);
        getLeader().filter(m -> !m.isLocal()).ifPresent(members::add);
        return members;
    }

    /** A node as this view knows it: itself, or the leader named by the lock's session. */
    private final class Member implements CamelClusterMember {
        private final String name;
        private final boolean isLocal;

        Member(String name, boolean isLocal) {
            this.name = name;
            this.isLocal = isLocal;
        }

        @Override
        public String getId() {
            return name;
        }

        @Override
        public boolean isLeader() {
            return isLocal ? leadsHere() : name.equals(otherLeader());
        }

        @Override
        public boolean isLocal() {
            return isLocal;
        }
    }
}
