package org.topupbatch.notify;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.http.base.HttpOperationFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.Outbox;
import org.topupbatch.journal.Outbox.OutboxEntry;
import org.topupbatch.text.OneLine;

/**
 * What routes/notify.yaml calls to deliver the outbox: claims the messages that are due (a guarded
 * update, so two nodes never send one message at once), makes each an exchange for its endpoint (a
 * notice as JSON or plain text as before; a callback signed, after {@link CallbackGuard} has checked
 * where its host leads now), and records the outcome: delivered, tried again later on
 * {@link OutboxSchedule}, or given up with one log line. Every try of a message carries its one event
 * id. The route sends one message at a time, so one endpoint never has two deliveries at once.
 */
public final class OutboxDelivery {

    public static final String URI_PROPERTY = "TopupNotifyUri";
    public static final String ENTRY_PROPERTY = "TopupOutboxEntry";
    /** How long a claim holds: far above one try's time, so a claim never runs out under a live delivery. */
    static final Duration LEASE = Duration.ofMinutes(10);
    static final int CLAIMED_AT_ONCE = 50;

    private static final Logger LOG = LoggerFactory.getLogger(OutboxDelivery.class);

    private final Outbox outbox;
    private final Notifications notifications;
    private final Callbacks callbacks;
    private final CustomerMessages customers;
    private final OutboxSchedule schedule;
    private final Clock clock;
    private final String node;
    /** Told the batch of a customer's message once it is delivered or given up: its report may be due now. */
    private java.util.function.LongConsumer customerOutcome = batchId -> { };

    public OutboxDelivery(Outbox outbox, Notifications notifications, Callbacks callbacks, OutboxSchedule schedule,
                          Clock clock, String node) {
        this(outbox, notifications, callbacks, null, schedule, clock, node);
    }

    /** @param customers the customers' vouchers (docs/customer-messages.md); null when no channel is set */
    public OutboxDelivery(Outbox outbox, Notifications notifications, Callbacks callbacks, CustomerMessages customers,
                          OutboxSchedule schedule, Clock clock, String node) {
        this.outbox = outbox;
        this.customers = customers;
        this.notifications = notifications;
        this.callbacks = callbacks;
        this.schedule = schedule;
        this.clock = clock;
        this.node = node;
    }

    /** Who is told the batch of a customer's message once it is delivered or given up (the report). */
    public OutboxDelivery afterCustomerMessage(java.util.function.LongConsumer told) {
        this.customerOutcome = told;
        return this;
    }

    /** routes/notify.yaml: the messages due now, claimed for this node. */
    public List<OutboxEntry> claimDue() {
        return outbox.claimDue(clock.instant(), node, LEASE, CLAIMED_AT_ONCE);
    }

    /**
     * routes/notify.yaml: the exchange for one claimed message (its body). The endpoint travels as an
     * exchange property, never a header: an endpoint sends headers on (camel-mail puts them into the mail).
     */
    public void prepare(Exchange exchange) {
        OutboxEntry entry = exchange.getMessage().getBody(OutboxEntry.class);
        exchange.setProperty(ENTRY_PROPERTY, entry);
        // the crash campaign kills here: the message is claimed (and committed long before), nothing sent
        org.topupbatch.journal.CrashPoints.pass(org.topupbatch.journal.CrashPoints.OUTBOX_BEFORE_SEND);
        org.apache.camel.Message message = exchange.getMessage();
        message.removeHeaders("*");
        String uri;
        if (CustomerMessages.KIND.equals(entry.targetKind())) {
            if (customers == null) {
                throw new RefusedDelivery("no customer channel (topup.customer.*-uri) is set any more");
            }
            exchange.setProperty(URI_PROPERTY, customers.prepare(entry, message));
            return;
        }
        if (Callbacks.KIND.equals(entry.targetKind())) {
            uri = callbacks.prepare(entry, message, clock.instant().getEpochSecond());
        } else {
            uri = notifications.endpointOf(entry.target());
            if (uri == null) {
                throw new RefusedDelivery(entry.target() + " is no longer in topup.notify.uris");
            }
            boolean http = Notifications.http(uri);
            message.setHeader("Subject", entry.subject());
            message.setHeader(Exchange.CONTENT_TYPE, http ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
            message.setHeader(Exchange.HTTP_METHOD, "POST");
        }
        message.setBody(entry.body());
        exchange.setProperty(URI_PROPERTY, uri);
    }

    /** routes/notify.yaml: the endpoint took it; never sent again. */
    public void delivered(Exchange exchange) {
        OutboxEntry entry = exchange.getProperty(ENTRY_PROPERTY, OutboxEntry.class);
        // the crash campaign kills here: the receiver has it, the outbox does not know; it is sent again
        org.topupbatch.journal.CrashPoints.pass(org.topupbatch.journal.CrashPoints.OUTBOX_AFTER_ANSWER);
        outbox.delivered(entry.id(), node, clock.instant());
        notifications.delivered(entry.event());
        // one line per delivery, after its record: what an operator (and the kill test) can rely on
        LOG.info("{} delivered to {} on try {}", what(entry), entry.target(), entry.tries() + 1);
        customerDone(entry);
    }

    private void customerDone(OutboxEntry entry) {
        if (CustomerMessages.KIND.equals(entry.targetKind()) && entry.batchId() != null) {
            customerOutcome.accept(entry.batchId());
        }
    }

    /** routes/notify.yaml: the try failed: tried again later, or given up with one line (no stack trace, no secret). */
    public void failed(Exchange exchange) {
        OutboxEntry entry = exchange.getProperty(ENTRY_PROPERTY, OutboxEntry.class);
        Throwable cause = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        if (entry == null) {
            entry = exchange.getMessage().getBody(OutboxEntry.class);
        }
        String why = reason(cause);
        Instant now = clock.instant();
        boolean refused = refused(cause);
        Optional<Instant> next = refused ? Optional.empty()
                : schedule.nextTry(entry.tries() + 1, entry.createdAt(), now);
        if (next.isPresent()) {
            outbox.retryAt(entry.id(), node, next.get(), why);
            LOG.debug("{} to {} failed on try {} ({}); next try at {}", what(entry), entry.target(), entry.tries() + 1,
                    why, next.get());
            return;
        }
        outbox.giveUp(entry.id(), node, now, why);
        notifications.gaveUp(entry.event());
        customerDone(entry);
        if (refused) {
            LOG.warn("{} to {} refused; given up: {}", what(entry), entry.target(), why);
        } else {
            LOG.warn("{} could not be delivered to {} after retrying; given up: {}", what(entry), entry.target(), why);
        }
    }

    private static String what(OutboxEntry entry) {
        boolean withId = Callbacks.KIND.equals(entry.targetKind()) || CustomerMessages.KIND.equals(entry.targetKind());
        return (Callbacks.KIND.equals(entry.targetKind()) ? "Callback "
                : CustomerMessages.KIND.equals(entry.targetKind()) ? "Customer message " : "Notification ") + entry.event()
                + (withId ? " " + entry.eventId() : "");
    }

    /** Refused as things are set (by the delivery's checks, or by the connection's resolver): not retried. */
    private static boolean refused(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof RefusedDelivery || t instanceof GuardedDnsResolver.Refused) {
                return true;
            }
        }
        return false;
    }

    private static String reason(Throwable cause) {
        if (cause == null) {
            return "unknown error";
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof GuardedDnsResolver.Refused) {
                return OneLine.of(t.getMessage(), 300); // the guard's own line, however Camel wrapped it
            }
        }
        if (cause instanceof HttpOperationFailedException http) {
            return "HTTP " + http.getStatusCode() + (http.getRedirectLocation() != null ? " (a redirect, not followed)" : "");
        }
        // an endpoint's own error may quote its URI: its passwords and tokens stay masked
        return org.apache.camel.util.URISupport.sanitizeUri(OneLine.of(String.valueOf(cause.getMessage()), 300));
    }

    /** A message that cannot be delivered at all as things are set: given up at once, not retried. */
    public static final class RefusedDelivery extends RuntimeException {
        public RefusedDelivery(String message) {
            super(message, null, false, false);
        }
    }
}
