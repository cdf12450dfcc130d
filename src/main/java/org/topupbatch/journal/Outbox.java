package org.topupbatch.journal;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The journal's outbox (docs/operating.md#notifications, docs/callbacks.md): every outgoing message
 * is written here first and delivered from here, so that a restart or a failover loses none. A
 * delivering node claims a message with a guarded update before it sends it, so two nodes on one
 * journal never send the same message at once; a message stays {@code WAITING} until it is
 * delivered or given up, and a given-up one can be made to wait again ({@link #resend}).
 */
public interface Outbox {

    /** Records messages, in a transaction of their own (a change the journal does not make). */
    void add(List<OutgoingMessage> messages);

    /**
     * Records that the batch's report was written (as {@link ReportingJournal#markReported}) and the
     * messages it calls for, in one transaction: both or neither survive a crash.
     */
    void markReported(long batchId, Instant at, boolean complete, Long balanceAfter, List<OutgoingMessage> messages);

    /**
     * The callback URL the HTTP door was given for a file with this name and content (its short
     * hash), recorded before the file enters the inbox; a later one for the same bytes replaces it.
     */
    void recordDoorCallback(String fileName, String contentHash, String url, Instant at);

    /** The batch's own callback URL: the door's for its file whose hash its archived copy carries; or {@code null}. */
    String callbackUrl(String fileName, String archivedAs);

    /**
     * Claims up to {@code max} waiting messages that are due at {@code now} for {@code node} until
     * {@code now + lease}, oldest first; a message another node holds a live claim on is skipped.
     */
    List<OutboxEntry> claimDue(Instant now, String node, Duration lease, int max);

    /**
     * At a node's start: the claims an earlier process of the same node name left (it was killed
     * mid-try) are released, so its messages are due again at once rather than when the claim runs
     * out. Claims are named {@code <node>:<process id>}; returns how many were released.
     */
    int releaseClaimsOf(String nodeName);

    /** The claimed message was delivered: never sent again. */
    void delivered(long id, String node, Instant at);

    /** The claimed message's try failed: it waits until {@code next}. */
    void retryAt(long id, String node, Instant next, String error);

    /** The claimed message is given up: it stays visible and can be sent again by {@link #resend}. */
    void giveUp(long id, String node, Instant at, String error);

    /** Waiting and given-up messages, for {@code status} and the dashboard. */
    OutboxState state(int maxListed);

    /** Makes the given-up messages of the event id (all given-up ones when null) wait again, due now; returns how many. */
    int resend(String eventId, Instant now);

    /** A message to record: {@code targetKind} {@code notify} or {@code callback}. */
    record OutgoingMessage(String eventId, String event, String targetKind, String target, String subject, String body,
                           Long batchId) {
    }

    /** A recorded message, as claimed or listed. */
    record OutboxEntry(long id, String eventId, String event, String targetKind, String target, String subject,
                       String body, Long batchId, String state, int tries, Instant createdAt, Instant nextTryAt,
                       String lastError) {
    }

    /** How many wait and how many were given up, with the first of each. */
    record OutboxState(long waiting, long givenUp, List<OutboxEntry> waitingListed, List<OutboxEntry> givenUpListed) {
    }
}
