package org.topupbatch.cluster;

import java.util.Optional;
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
final class JournalLockClusterView extends LockClusterView {

    private static final Logger LOG = LoggerFactory.getLogger(JournalLockClusterView.class);
    private final JournalLockClusterService service;
    private JournalLock session;
    /** This node's lock session lost through a cut link: ended from the next session before that competes. */
    private JournalLock.SessionId lost;
    /** When the leader's lock session last answered a check (its step-down is measured from there). */
    private long lastAnswerNanos;
    private volatile boolean leader;
    private volatile String otherLeader;
    /** The last standing-by or unreachable line, so that each is logged once per change. */
    private String lastLine;

    JournalLockClusterView(JournalLockClusterService service, String namespace) {
        super(service, namespace, service.node().name());
        this.service = service;
    }

    /** Starts polling for the lock (once Camel and its route policies are up). */
    void beginPolling() {
        beginPolling("topup-leadership", service.pollInterval());
    }

    @Override
    protected synchronized void doStop() {
        stopPolling();
        closeSession();
        leader = false;
        service.accountsLed().active(false);
    }

    @Override
    synchronized void poll() {
        try {
            if (session == null) {
                session = JournalLock.session(service.url(), service.user(), service.password(), getLocalMember().getId());
                lost = SessionEnds.endLost(session, lost, getLocalMember().getId(), "journal lock");
            }
            if (leader) {
                if (session.stillHeld()) {
                    lastAnswerNanos = System.nanoTime();
                } else {
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
            once("node " + getLocalMember().getId() + " standing by: the journal database " + service.shownUrl()
                    + " cannot be reached (" + e.getMessage() + "); trying again every "
                    + service.pollInterval().toSeconds() + " s", true);
        } catch (RuntimeException e) {
            LOG.error("node {}: leadership check failed: {}", getLocalMember().getId(), e.toString());
            if (leader) {
                stepDown(e.toString());
            }
        }
    }

    private void takeOver() {
        service.node().become(NodeRole.Role.TAKING_OVER);
        LOG.info("node {} holds the journal lock on {}: taking over", getLocalMember().getId(), service.shownUrl());
        String fatal;
        try {
            fatal = service.duties().takeOver();
        } catch (RuntimeException e) {
            fatal = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        if (fatal != null) {
            closeSession(); // gives the lock back for another node
            service.node().become(NodeRole.Role.STEPPED_DOWN);
            LOG.error("node {} cannot take over: {}", getLocalMember().getId(), fatal);
            service.duties().exit(1);
            return;
        }
        leader = true;
        lastAnswerNanos = System.nanoTime();
        otherLeader = null;
        service.node().become(NodeRole.Role.LEADER);
        service.accountsLed().active(true); // several accounts led apart: rows at no account of this run are the active node's
        lastLine = null; // standing by after a later step-down is logged, even behind the same node as before
        LOG.info("node {} is active on journal {}", getLocalMember().getId(), service.shownUrl());
        announce(Optional.of(getLocalMember()), () -> { });
    }

    private void standBy() {
        String holder = session.holder().orElse(null);
        otherLeader = holder;
        service.node().become(NodeRole.Role.STANDBY);
        once("node " + getLocalMember().getId() + " standing by: " + (holder == null ? "another node" : "node " + holder)
                + " is active on journal " + service.shownUrl(), false);
    }

    private void stepDown(String why) {
        leader = false;
        service.accountsLed().active(false);
        service.node().become(NodeRole.Role.STEPPED_DOWN);
        // first: no provider request may start, then the leader's routes stop
        service.duties().stepDown();
        long silentMillis = (System.nanoTime() - lastAnswerNanos) / 1_000_000;
        LOG.error("node {} lost the journal lock ({}): stepping down {} ms after its lock session last answered;"
                + " it stands by and leads again when it can take the lock", getLocalMember().getId(), why, silentMillis);
        lost = session == null ? null : session.id(); // the server may keep it (a cut link): ended once reachable
        closeSession();
        lastLine = null; // the first standing-by line after this is logged, even if it repeats an earlier one
        // the routes stop on the announcer's thread: their graceful stop may wait on exchanges hung on the cut
        // link, while the next polls go on, so that the node stands by again as soon as the database answers
        long steppedDownAt = System.nanoTime();
        String name = getLocalMember().getId();
        announce(Optional.empty(), () -> LOG.info("node {}: the active node's routes stopped, {} ms after its step-down", name,
                (System.nanoTime() - steppedDownAt) / 1_000_000));
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
    boolean leadsHere() {
        return leader;
    }

    @Override
    String otherLeader() {
        return otherLeader;
    }
}
