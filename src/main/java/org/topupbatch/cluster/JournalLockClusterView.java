package org.topupbatch.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.camel.cluster.CamelClusterMember;
import org.apache.camel.support.cluster.AbstractCamelClusterView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalLock;

/**
 * Who leads, as the journal's advisory lock says: every poll, a node without the lock tries to take
 * it; the node holding it checks that its session still answers. The lock dies with its session,
 * so a killed leader (or one cut off from the database) frees it for a standby within seconds, and
 * the cut-off leader steps down on its own as soon as its session stops answering.
 *
 * <p>Becoming leader runs the {@link LeaderDuties#takeOver} work first and only then tells the
 * listeners (the clustered route policies), so the leader's routes start on a recovered journal.
 */
final class JournalLockClusterView extends AbstractCamelClusterView {

    private static final Logger LOG = LoggerFactory.getLogger(JournalLockClusterView.class);
    /** How long the leader's session may take to answer before it counts as lost. */
    private static final int LIVENESS_TIMEOUT_SECONDS = 2;

    private final JournalLockClusterService service;
    private final Member local;
    private ScheduledExecutorService poller;
    private JournalLock session;
    private volatile boolean leader;
    private volatile String otherLeader;
    /** The last standing-by or unreachable line, so that each is logged once per change. */
    private String lastLine;

    JournalLockClusterView(JournalLockClusterService service, String namespace) {
        super(service, namespace);
        this.service = service;
        this.local = new Member(service.node().name(), true);
    }

    /** Starts polling for the lock (once Camel and its route policies are up). */
    synchronized void beginPolling() {
        if (poller == null) {
            poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "topup-leadership");
                t.setDaemon(true);
                return t;
            });
            poller.scheduleWithFixedDelay(this::poll, 0, service.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    protected void doStart() {
        // polling begins with beginPolling(): a lock taken before every policy listens would start no route
    }

    @Override
    protected synchronized void doStop() {
        if (poller != null) {
            poller.shutdownNow();
            poller = null;
        }
        closeSession();
        leader = false;
    }

    /** One look at the lock; never throws (the poller would stop for good). */
    synchronized void poll() {
        try {
            if (session == null) {
                session = JournalLock.session(service.url(), service.user(), service.password(), local.getId());
            }
            if (leader) {
                if (!session.stillHeld(LIVENESS_TIMEOUT_SECONDS)) {
                    stepDown("its connection to the journal database stopped answering");
                }
            } else if (session.tryHold()) {
                takeOver();
            } else {
                standBy();
            }
        } catch (JournalException e) {
            if (leader) {
                stepDown(e.getMessage());
                return;
            }
            closeSession(); // the next poll connects afresh
            once("node " + local.getId() + " standing by: the journal database " + service.shownUrl()
                    + " cannot be reached (" + e.getMessage() + "); trying again every "
                    + service.pollInterval().toSeconds() + " s", true);
        } catch (RuntimeException e) {
            LOG.error("node {}: leadership check failed: {}", local.getId(), e.toString());
            if (leader) {
                stepDown(e.toString());
            }
        }
    }

    private void takeOver() {
        service.node().become(NodeRole.Role.TAKING_OVER);
        LOG.info("node {} holds the journal lock on {}: taking over", local.getId(), service.shownUrl());
        String fatal;
        try {
            fatal = service.duties().takeOver();
        } catch (RuntimeException e) {
            fatal = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        if (fatal != null) {
            closeSession(); // gives the lock back for another node
            service.node().become(NodeRole.Role.STEPPED_DOWN);
            LOG.error("node {} cannot take over: {}", local.getId(), fatal);
            service.duties().exit(1);
            return;
        }
        leader = true;
        otherLeader = null;
        service.node().become(NodeRole.Role.LEADER);
        LOG.info("node {} is active on journal {}", local.getId(), service.shownUrl());
        fireLeadershipChangedEvent(local);
    }

    private void standBy() {
        String holder = session.holder().orElse(null);
        otherLeader = holder;
        service.node().become(NodeRole.Role.STANDBY);
        once("node " + local.getId() + " standing by: " + (holder == null ? "another node" : "node " + holder)
                + " is active on journal " + service.shownUrl(), false);
    }

    private void stepDown(String why) {
        leader = false;
        service.node().become(NodeRole.Role.STEPPED_DOWN);
        // first: no provider request may start, then the leader's routes stop
        service.duties().stepDown();
        LOG.error("node {} lost the journal lock ({}): stepping down; it stands by and leads again when it can"
                + " take the lock", local.getId(), why);
        closeSession();
        fireLeadershipChangedEvent(Optional.empty());
        // no exit: the next polls connect afresh and take the lock again when the database is back and no
        // other node took over (a restarted database), or stand by behind the node that did
    }

    private void once(String line, boolean warn) {
        if (!line.equals(lastLine)) {
            lastLine = line;
            if (warn) {
                LOG.warn("{}", line);
            } else {
                LOG.info("{}", line);
            }
        }
    }

    private void closeSession() {
        if (session != null) {
            session.close();
            session = null;
        }
    }

    boolean isLeader() {
        return leader;
    }

    @Override
    public Optional<CamelClusterMember> getLeader() {
        if (leader) {
            return Optional.of(local);
        }
        String other = otherLeader;
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
            return isLocal ? leader : name.equals(otherLeader);
        }

        @Override
        public boolean isLocal() {
            return isLocal;
        }
    }
}
