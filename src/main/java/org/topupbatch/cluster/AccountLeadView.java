package org.topupbatch.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.JournalException;
import org.topupbatch.journal.JournalLock;

/**
 * Who leads one account (several accounts on two nodes, docs/two-nodes.md#two-nodes): a namespace of Camel's
 * cluster service per account, backed by an advisory lock of its own on the journal's database. The
 * node holding it is the only one sending that account's orders and following them; the journal's own
 * lock still decides which node takes files and writes reports.
 *
 * <p>The leads are shared out: a node takes a free account while it leads fewer than its share (the
 * accounts divided by the nodes connected, rounded up), or once the account has been free for a while
 * (the other node cannot take it). A node leading more than its share while another node is connected
 * hands one over: it stops starting orders there, waits until its orders on the wire are journaled, and
 * only then gives the lock back, so the next leader finds nothing in flight. A node that dies or is cut
 * off loses its locks with its sessions, and the other node takes them within a poll or two, as the
 * journal's lock is taken over.
 */
final class AccountLeadView extends LockClusterView {

    private static final Logger LOG = LoggerFactory.getLogger(AccountLeadView.class);
    /** An account free this long is taken whatever the shares (its node due to take it could not). */
    static final Duration FREE_BEFORE_TAKEN_ANYWAY = Duration.ofSeconds(5);
    /** A lead is held at least this long before it is handed over, so that starting nodes do not trade leads back and forth. */
    static final Duration HELD_BEFORE_HANDED_OVER = Duration.ofSeconds(5);

    private final JournalLockClusterService service;
    private final String account;
    private JournalLock session;
    /** This node's session of the account's lead lost through a cut link: ended from the next one before that competes. */
    private JournalLock.SessionId lost;
    private volatile boolean leading;
    private volatile String otherLeader;
    private Instant heldSince;
    private Instant freeSince;
    private String lastLine;

    AccountLeadView(JournalLockClusterService service, String namespace, String account) {
        super(service, namespace, service.node().name());
        this.service = service;
        this.account = account;
    }

    String account() {
        return account;
    }

    void beginPolling() {
        beginPolling("topup-account-lead-" + account, service.pollInterval());
    }

    @Override
    protected synchronized void doStop() {
        stopPolling();
        if (leading) {
            leading = false;
            service.accountsLed().release(account);
        }
        closeSession();
    }

    /** One look at the account's lock; never throws (the poller would stop for good). */
    @Override
    synchronized void poll() {
        try {
            if (session == null) {
                session = JournalLock.accountSession(service.url(), service.user(), service.password(),
                        getLocalMember().getId(), account);
                lost = SessionEnds.endLost(session, lost, getLocalMember().getId(), "lead of account " + account);
            }
            Instant now = Instant.now();
            if (leading) {
                if (!session.stillHeld()) {
                    lose("its connection to the journal database stopped answering");
                    return;
                }
                int nodes;
                try {
                    nodes = session.nodesConnected();
                } catch (JournalException e) {
                    return; // the lock still answers: whether to hand it over is judged at the next poll
                }
                if (service.handsOver(this, nodes, heldSince, now)) {
                    handOver(nodes);
                }
                return;
            }
            Optional<String> holder = session.holder();
            if (holder.isPresent()) {
                freeSince = null;
                otherLeader = holder.get();
                once("account " + account + " is led by node " + otherLeader);
                return;
            }
            otherLeader = null;
            if (freeSince == null) {
                freeSince = now;
            }
            boolean overdue = !freeSince.plus(FREE_BEFORE_TAKEN_ANYWAY).isAfter(now);
            synchronized (service.shareLock()) { // one decision at a time among this node's accounts, so shares hold
                if ((overdue || service.belowShare(session.nodesConnected())) && session.tryHold()) {
                    take();
                }
            }
        } catch (JournalException e) {
            if (leading) {
                lose(e.getMessage());
                return;
            }
            closeSession();
        } catch (RuntimeException e) {
            LOG.error("node {}: lead check of account {} failed: {}", getLocalMember().getId(), account, e.toString());
            if (leading) {
                lose(e.toString());
            }
        }
    }

    private void take() {
        try {
            service.duties().takeAccount(account);
        } catch (RuntimeException e) {
            LOG.error("node {} cannot take the lead of account {}: {}", getLocalMember().getId(), account,
                    e.getMessage() == null ? e.toString() : e.getMessage());
            closeSession(); // gives the lock back
            return;
        }
        leading = true;
        heldSince = Instant.now();
        freeSince = null;
        otherLeader = null;
        service.accountsLed().take(account);
        lastLine = null;
        LOG.info("node {} leads account {}: it sends and follows its orders", getLocalMember().getId(), account);
        announce(Optional.of(getLocalMember()), () -> { });
    }

    private void handOver(int nodes) {
        leading = false;
        // first: no new order of the account starts here; then the ones on the wire are journaled
        service.accountsLed().release(account);
        boolean quiet = service.duties().awaitAccountQuiet(account);
        closeSession();
        service.handedOver(Instant.now());
        LOG.info("node {} hands the lead of account {} over ({} nodes share {} accounts){}", getLocalMember().getId(), account, nodes,
                service.accounts().size(), quiet ? "" : "; orders still on the wire are looked up by the next leader");
        announce(Optional.empty(), () -> { });
    }

    private void lose(String why) {
        leading = false;
        service.accountsLed().lost(account); // at once: a marking under way may hang on the cut link
        LOG.error("node {} lost the lead of account {} ({}); it takes it again when it can", getLocalMember().getId(), account, why);
        lost = session == null ? null : session.id(); // the server may keep it (a cut link): ended once reachable
        closeSession();
        lastLine = null; // who leads it after this is logged, even the node that led it before
        announce(Optional.empty(), () -> { });
    }

    private void once(String line) {
        if (!line.equals(lastLine)) {
            lastLine = line;
            LOG.info("{}", line);
        }
    }

    private void closeSession() {
        if (session != null) {
            session.close();
            session = null;
        }
    }

    boolean isLeading() {
        return leading;
    }

    @Override
    boolean leadsHere() {
        return leading;
    }

    @Override
    String otherLeader() {
        return otherLeader;
    }
}
