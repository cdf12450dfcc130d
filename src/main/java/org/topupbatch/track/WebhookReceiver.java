package org.topupbatch.track;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.camel.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.TrackingJournal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.OrderStatus;

/**
 * Takes the provider's webhooks (format: docs/provider.md, {@code order.updated} with the order
 * under {@code data} and {@code signature} = md5(webhook_secret + ref_id + status)). A webhook
 * in that format with a valid signature, about an order of ours, settles it when its status is
 * final, with no look-up. Anything else (no secret configured, no or a wrong signature, another
 * shape) is a hint: it only brings the order's next check forward, so that the provider's own
 * answer decides. Duplicates, late ones and unknown ref_ids change nothing. Whatever arrives, the
 * caller answers 200 at once; what settled nothing is logged as a summary at a bounded rate.
 *
 * <p>With several accounts (docs/accounts-and-dialects.md#several-accounts) each account has its own address,
 * topup.webhook.path/NAME (routes/track-webhook.yaml, route track-webhook-account): a webhook there is verified with that
 * account's secret in its dialect, and settles only an order placed at that account under the ref_id
 * it names. The plain address cannot tell whose secret to use: there every webhook is a hint.
 */
public class WebhookReceiver implements org.apache.camel.Service {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookReceiver.class);
    private static final int MAX_BODY = 64 * 1024;
    static final String EVENT = "order.updated";
    /** Digiflazz's header: the HMAC-SHA1 of the raw body. */
    static final String HUB_SIGNATURE = "X-Hub-Signature";
    /** The header routes/track-webhook.yaml's path parameter {account} arrives in. */
    static final String ACCOUNT = "account";
    static final Duration SUMMARY_INTERVAL = Duration.ofSeconds(30);

    /**
     * Where a webhook arrived: the plain address ({@code account} null) or an account's own, and
     * how webhooks there are verified. An account's address vouches for that account's orders only.
     */
    private record Address(String account, WebhookAuthenticator authenticator) {

        boolean vouchesFor(RowRecord row) {
            return account == null || account.equals(row.account());
        }
    }

    private final TrackingJournal journal;
    private final NamedOrders orders;
    private final Address plain;
    private final Map<String, Address> accounts;
    private final Clock clock;
    private final WebhookTally tally;
    private final AtomicBoolean plainExplained = new AtomicBoolean();
    private final ObjectMapper json = new ObjectMapper();

    /** One account: every webhook arrives at the plain address and is verified with {@code authenticator}. */
    public WebhookReceiver(TrackingJournal journal, WebhookAuthenticator authenticator, Clock clock) {
        this(journal, authenticator, Map.of(), clock);
    }

    /**
     * {@code accounts}: with several accounts, each one's authenticator by its name (its secret and
     * dialect), for webhooks at its own address; the plain address then verifies nothing.
     */
    public WebhookReceiver(TrackingJournal journal, WebhookAuthenticator authenticator,
                           Map<String, WebhookAuthenticator> accounts, Clock clock) {
        this.journal = journal;
        this.orders = new NamedOrders(journal);
        Map<String, Address> each = new java.util.LinkedHashMap<>();
        accounts.forEach((name, a) -> each.put(name, new Address(name, a)));
        this.accounts = java.util.Collections.unmodifiableMap(each);
        this.plain = new Address(null, this.accounts.isEmpty() ? authenticator : new WebhookAuthenticator(null));
        this.clock = clock;
        this.tally = new WebhookTally(clock, SUMMARY_INTERVAL);
    }

    /**
     * Handles one webhook at the plain address; returns a short word for the answer body. The body is
     * taken as bytes here, not by Camel's binding: a form or multipart post arrives parsed into a map
     * that has no byte form, and such a post must still be answered 200 and ignored, not fail the exchange.
     */
    public String receive(Message message) {
        if (!accounts.isEmpty() && plainExplained.compareAndSet(false, true)) {
            LOG.warn("A webhook arrived at the plain webhook path: with several accounts it cannot be verified there"
                    + " and is only a hint (the order is looked up at its account); set each account's webhook URL to"
                    + " the webhook path followed by /NAME ({}) so that its signed webhooks settle orders",
                    String.join(", ", accounts.keySet()));
        }
        return handle(plain, bodyOf(message), message.getHeader(HUB_SIGNATURE, String.class));
    }

    /**
     * Handles one webhook at an account's address (the path parameter {@code account}). An address
     * that names no account, or a request that names one twice (a query parameter or header of the
     * same name beside the path), settles nothing and hints at nothing.
     */
    public String receiveAtAccount(Message message) {
        Object name = message.getHeader(ACCOUNT);
        Address address = name instanceof String s ? accounts.get(s) : null;
        if (address == null) {
            return settledNothing(WebhookTally.Outcome.NO_SUCH_ACCOUNT, "ignored");
        }
        return handle(address, bodyOf(message), message.getHeader(HUB_SIGNATURE, String.class));
    }

    private static byte[] bodyOf(Message message) {
        Object raw = message.getBody();
        return raw instanceof byte[] || raw instanceof String || raw instanceof java.io.InputStream
                ? bytesOf(message) : null;
    }

    private static byte[] bytesOf(Message message) {
        try {
            return message.getBody(byte[].class);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /** Handles one webhook body at the plain address; returns a short word for the answer body. */
    String handle(byte[] body) {
        return handle(body, null);
    }

    /** {@code hubSignature}: the X-Hub-Signature header, when the provider signs the raw body (Digiflazz). */
    String handle(byte[] body, String hubSignature) {
        return handle(plain, body, hubSignature);
    }

    /** As {@link #handle(byte[], String)}, at account {@code account}'s address. */
    String handleAt(String account, byte[] body, String hubSignature) {
        Address address = accounts.get(account);
        return address == null ? settledNothing(WebhookTally.Outcome.NO_SUCH_ACCOUNT, "ignored")
                : handle(address, body, hubSignature);
    }

    private String handle(Address address, byte[] body, String hubSignature) {
        WebhookAuthenticator authenticator = address.authenticator();
        if (body == null || body.length == 0 || body.length > MAX_BODY) {
            return settledNothing(WebhookTally.Outcome.UNREADABLE, "ignored");
        }
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (java.io.IOException e) {
            return settledNothing(WebhookTally.Outcome.UNREADABLE, "ignored");
        }
        if (root == null || !root.isObject()) {
            return settledNothing(WebhookTally.Outcome.UNREADABLE, "ignored");
        }
        // Digiflazz posts the transaction under data and names the event in a header instead
        boolean documented = root.path("data").isObject()
                && (authenticator.signsBody() || EVENT.equals(text(root, "event")));
        // Other shapes may still name an order: flat (ref_id at the top) or data without the event.
        JsonNode order = root.path("data").isObject() ? root.get("data") : root;
        String refId = text(order, "ref_id");
        if (refId == null) {
            return settledNothing(WebhookTally.Outcome.UNREADABLE, "ignored");
        }
        Optional<RowRecord> found = orders.find(refId);
        if (found.isEmpty()) {
            return settledNothing(WebhookTally.Outcome.UNKNOWN_REF_ID, "ignored");
        }
        RowRecord row = found.get();
        if (row.state().isFinal() || row.state() == RowState.ACCEPTED) {
            return settledNothing(WebhookTally.Outcome.ALREADY_FINAL, "ok"); // duplicate or late
        }
        String statusWord = text(order, "status");
        Optional<OrderStatus> status = OrderStatus.parse(statusWord);
        boolean authentic = documented && (authenticator.signsBody()
                ? authenticator.authenticBody(body, hubSignature)
                : authenticator.authentic(refId, statusWord, text(root, "signature")));
        String sku = text(order, "product_sku") != null ? text(order, "product_sku") : text(order, "buyer_sku_code");
        boolean ours = OrderOutcomes.matches(row, refId, sku, text(order, "customer_no"));
        boolean here = address.vouchesFor(row);
        if (authentic && ours && here && status.isPresent()) {
            if (!status.get().isFinal()) {
                // Signed "pending" or "processing": true, and nothing to do until it is final.
                return settledNothing(WebhookTally.Outcome.INTERIM, "ok");
            }
            Long price = order.path("price").canConvertToExactIntegral() ? order.path("price").longValue() : null;
            String message = OrderOutcomes.messageOr(text(order, "message"), status.get().wire());
            String rc = text(order, "rc");
            if (status.get() == OrderStatus.FAILED && rc != null && !rc.isBlank()) {
                message = message + " (rc " + rc.trim() + ")"; // as the order's own answer would say it (Digiflazz)
            }
            journal.recordOutcome(row.id(), OrderOutcomes.stateOf(status.get()),
                    text(order, "serial_number") != null ? text(order, "serial_number") : blankless(text(order, "sn")),
                    price, message);
            if (address.account() == null) {
                LOG.info("Order {} is {} (signed webhook)", refId, status.get().wire());
            } else {
                LOG.info("Order {} is {} (signed webhook at account {})", refId, status.get().wire(), address.account());
            }
            return "ok";
        }
        bringCheckForward(row);
        return settledNothing(why(address, authentic, here), "ok");
    }

    /** Why a webhook about one of our open orders did not settle it, for the summary. */
    private WebhookTally.Outcome why(Address address, boolean authentic, boolean here) {
        if (!address.authenticator().verifies()) {
            return address == plain && !accounts.isEmpty() ? WebhookTally.Outcome.PLAIN_ADDRESS
                    : WebhookTally.Outcome.UNVERIFIED;
        }
        if (!authentic) {
            return WebhookTally.Outcome.BAD_SIGNATURE;
        }
        return here ? WebhookTally.Outcome.NOT_MATCHING : WebhookTally.Outcome.OTHER_ACCOUNT;
    }

    /** Logs the summary of webhooks that settled nothing, when one is due (a timer calls this). */
    public void logSummary() {
        log(tally.summaryIfDue());
    }

    @Override
    public void start() {
        // nothing to start: webhooks arrive through the track-webhook route
    }

    /** The last summary of a burst is not lost when the process stops. */
    @Override
    public void stop() {
        log(tally.summaryNow());
    }

    /**
     * A hint: ask the provider itself, now. It counts as a check, so that the wait for a webhook
     * that a fresh pending order gets (see {@link DueOrders}) does not put the look-up off again.
     */
    private void bringCheckForward(RowRecord row) {
        Instant now = clock.instant();
        if (row.nextCheckAt() == null || row.nextCheckAt().isAfter(now) || row.checks() == 0) {
            journal.scheduleCheck(row.id(), now, Math.max(row.checks(), 1));
        }
    }

    private String settledNothing(WebhookTally.Outcome outcome, String answer) {
        log(tally.count(outcome));
        return answer;
    }

    private static void log(WebhookTally.Summary summary) {
        if (summary == null) {
            return;
        }
        if (summary.suspicious()) {
            LOG.warn("{}", summary.line());
        } else {
            LOG.info("{}", summary.line());
        }
    }

    private static String blankless(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? null : v.asText();
    }
}
