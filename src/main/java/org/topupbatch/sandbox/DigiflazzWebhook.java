package org.topupbatch.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A Digiflazz webhook as https://developer.digiflazz.com/api/buyer/webhook describes it: the transaction under
 * {@code data} (with Digiflazz's {@code trx_id}), posted with {@code X-Digiflazz-Event} ({@code create} for a new
 * transaction, {@code update} when one changes status), {@code X-Digiflazz-Delivery} (an id of the delivery),
 * {@code X-Hub-Signature} ({@code sha1=} HMAC-SHA1 hex of the raw body under the webhook secret) and a
 * {@code User-Agent} that starts with {@code DigiFlazz-Hookshot/}, the page's prefix for prepaid transactions.
 */
final class DigiflazzWebhook {

    static final String CREATE = "create";
    static final String UPDATE = "update";
    /** The page gives the prefix only; what follows the slash is the sandbox's. */
    static final String USER_AGENT = "DigiFlazz-Hookshot/sandbox";

    private DigiflazzWebhook() {
    }

    static byte[] body(ObjectMapper mapper, SandboxOrders.OrderView order) {
        try {
            return mapper.writeValueAsBytes(DigiflazzJson.webhook(mapper, order));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The headers of one event; every retry and duplicate of it carries the same ones (the same delivery id). */
    static Map<String, String> headers(String event, byte[] body, String webhookSecret) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("User-Agent", USER_AGENT);
        headers.put("X-Digiflazz-Event", event);
        headers.put("X-Digiflazz-Delivery", UUID.randomUUID().toString());
        headers.put("X-Hub-Signature", DigiflazzSigner.hubSignature(webhookSecret, body));
        return headers;
    }
}
