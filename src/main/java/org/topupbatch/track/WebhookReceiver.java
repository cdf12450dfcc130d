package org.topupbatch.track;



import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
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
 */
public class WebhookReceiver implements org.apache.camel.Service {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookReceiver.class);
    private static final int MAX_BODY = 64 * 1024;
    static final String EVENT = "order.updated";
    /** Digiflazz's header: the HMAC-SHA1 of the raw body. */
    static final String HUB_SIGNATURE = "X-Hub-Signature";
    static final Duration SUMMARY_INTERVAL = Duration.ofSeconds(30);

    private final TrackingJournal journal;
    private final WebhookAuthenticator authenticator;
    private final Clock clock;
    private final WebhookTally tally;
    private final ObjectMapper json = new ObjectMapper();

    public WebhookReceiver(TrackingJournal journal, WebhookAuthenticator authenticator, Clock clock) {
        this.journal = journal;
        this.authenticator = authenticator;
        this.clock = clock;
        this.tally = new WebhookTally(clock, SUMMARY_INTERVAL);
    }

    /**
     * Handles one webhook; returns a short word for the answer body. The body is taken as bytes
     * here, not by Camel's binding: a form or multipart post arrives parsed into a map that has no
     * byte form, and such a post must still be answered 200 and ignored, not fail the exchange.
     */
    public String receive(Message message) {
        Object raw = message.getBody();
        byte[] body = raw instanceof byte[] || raw instanceof String || raw instanceof java.io.InputStream
                ? bytesOf(message) : null;
        return handle(body, message.getHeader(HUB_SIGNATURE, String.class));
    }

    private static byte[] bytesOf(Message message) {
        try {
            return message.getBody(byte[].class);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /** Handles one webhook body; returns a short word for the answer body. */
    String handle(byte[] body) {
        return handle(body, null);
    }

    /** {@code hubSignature}: the X-Hub-Signature header, when the provider signs the raw body (Digiflazz). */
    String handle(byte[] body, String hubSignature) {
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
        Optional<RowRecord> found = journal.findOrder(refId);
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
        if (authentic && ours && status.isPresent()) {
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
            LOG.info("Order {} is {} (signed webhook)", refId, status.get().wire());
            return "ok";
        }
        bringCheckForward(row);
        WebhookTally.Outcome why = !authenticator.verifies() ? WebhookTally.Outcome.UNVERIFIED
                : authentic ? WebhookTally.Outcome.NOT_MATCHING : WebhookTally.Outcome.BAD_SIGNATURE;
        return settledNothing(why, "ok");
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
