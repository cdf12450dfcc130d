package org.topupbatch.order;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.util.Optional;
import org.apache.camel.Body;
import org.apache.camel.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.OrderStatus;

/**
 * Takes the provider's webhooks. A webhook is a hint: an authentic one (valid signature, about
 * an order of ours, consistent with it) settles the order; anything else only brings the order's
 * next status check forward, so that the provider's own answer decides. Duplicates, late ones
 * and unknown ref_ids change nothing. Whatever arrives, the caller answers 200 at once.
 */
public class WebhookReceiver {

    private static final Logger LOG = LoggerFactory.getLogger(WebhookReceiver.class);
    private static final int MAX_BODY = 64 * 1024;

    private final Journal journal;
    private final WebhookAuthenticator authenticator;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper();

    public WebhookReceiver(Journal journal, WebhookAuthenticator authenticator, Clock clock) {
        this.journal = journal;
        this.authenticator = authenticator;
        this.clock = clock;
    }

    /** Handles one webhook body with its signature header; returns a short word for the answer body. */
    public String receive(@Body byte[] body, @Header("X-Topup-Signature") String signature) {
        if (body == null || body.length == 0 || body.length > MAX_BODY) {
            LOG.warn("Webhook ignored: empty or larger than {} bytes", MAX_BODY);
            return "ignored";
        }
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (java.io.IOException e) {
            LOG.warn("Webhook ignored: body is not JSON");
            return "ignored";
        }
        if (root == null || !root.isObject()) {
            LOG.warn("Webhook ignored: body is not a JSON object");
            return "ignored";
        }
        JsonNode order = root.has("ref_id") ? root : root.path("data");
        String refId = text(order, "ref_id");
        if (refId == null) {
            LOG.warn("Webhook ignored: no ref_id");
            return "ignored";
        }
        Optional<RowRecord> found = journal.findOrder(refId);
        if (found.isEmpty()) {
            LOG.info("Webhook for unknown ref_id {} ignored", printable(refId));
            return "ignored";
        }
        RowRecord row = found.get();
        if (row.state().isFinal() || row.state() == RowState.ACCEPTED) {
            return "ok"; // duplicate or late: already settled
        }
        Optional<OrderStatus> status = OrderStatus.parse(text(order, "status"));
        boolean trusted = authenticator.authentic(body, signature)
                && OrderOutcomes.matches(row, refId, text(order, "product_sku"), text(order, "customer_no"));
        if (trusted && status.isPresent() && status.get().isFinal()) {
            Long price = order.path("price").canConvertToExactIntegral() ? order.path("price").longValue() : null;
            String message = OrderOutcomes.messageOr(text(order, "message"), status.get().wire());
            journal.recordOutcome(row.id(), OrderOutcomes.stateOf(status.get()),
                    text(order, "serial_number"), price, message);
            LOG.info("Order {} is {} (signed webhook)", refId, status.get().wire());
        } else {
            // Unsigned, forged or odd: ask the provider itself, now.
            journal.scheduleCheck(row.id(), clock.instant(), row.checks());
            LOG.info("Webhook for {} taken as a hint{}; checking with the provider", refId,
                    trusted ? "" : " (signature not verified)");
        }
        return "ok";
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? null : v.asText();
    }

    private static String printable(String s) {
        String cut = s.length() > 60 ? s.substring(0, 60) + "..." : s;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }
}
