package org.topupbatch.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.topupbatch.journal.Outbox.OutboxEntry;
import org.topupbatch.journal.Outbox.OutgoingMessage;
import org.topupbatch.settings.CallbackSettings;

/**
 * Signed callbacks to the ERP (docs/callbacks.md): the {@code batch_reported} event as the outbox
 * records it (to the batch's own callback URL, else {@code topup.callback.url}), and each try's
 * request: the host checked again where it leads now ({@link CallbackGuard}, and again by the connection's
 * own resolver, {@link GuardedDnsResolver}), the body signed at the
 * time of the try ({@link CallbackSignature}), the event id in {@code X-Topup-Event-Id}.
 */
public final class Callbacks {

    /** {@code target_kind} of a callback in the outbox. */
    public static final String KIND = "callback";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CallbackSettings settings;
    private final CallbackGuard guard;

    public Callbacks(CallbackSettings settings) {
        this.settings = settings;
        this.guard = new CallbackGuard(settings.allowedHosts());
    }

    /** The guard of these callbacks, for the connections they are delivered on ({@link CallbackConnections}). */
    public CallbackGuard guard() {
        return guard;
    }

    /** Why the HTTP door refuses this batch's callback URL (400), or null when it may be used. */
    public String refusal(String url) {
        if (!settings.perBatchAllowed()) {
            return "callback_url needs topup.callback.secret and topup.callback.allowed-hosts to be set";
        }
        return guard.refusal(url);
    }

    /**
     * The {@code batch_reported} callback, when the batch has a callback URL of its own or
     * {@code topup.callback.url} is set: {@code event}, {@code event_id}, {@code batch}, {@code file},
     * {@code summary} (the summary's figures) and {@code report_url}.
     */
    public Optional<OutgoingMessage> batchReported(long batchId, String file, Map<String, Object> summary, String ownUrl) {
        String url = ownUrl != null ? ownUrl : settings.url();
        if (url == null || settings.secret() == null) {
            return Optional.empty();
        }
        String eventId = "evt_" + UUID.randomUUID().toString().replace("-", "");
        ObjectNode body = JSON.createObjectNode();
        body.put("event", "batch_reported");
        body.put("event_id", eventId);
        body.put("batch", batchId);
        body.put("file", file);
        body.set("summary", JSON.valueToTree(summary));
        body.put("report_url", (settings.reportBaseUrl() == null ? "" : settings.reportBaseUrl()) + "/batches/" + batchId + "/report");
        try {
            return Optional.of(new OutgoingMessage(eventId, "batch_reported", KIND, url, null, JSON.writeValueAsString(body),
                    batchId));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One try's request: checks where the host leads now, signs, and returns the endpoint URI. */
    String prepare(OutboxEntry entry, Message message, long unixSeconds) {
        String refused = guard.refusalAtDelivery(entry.target());
        if (refused != null) {
            throw new OutboxDelivery.RefusedDelivery(refused);
        }
        if (settings.secret() == null) {
            throw new OutboxDelivery.RefusedDelivery("topup.callback.secret is not set: a callback is never sent unsigned");
        }
        message.setHeader(Exchange.CONTENT_TYPE, "application/json; charset=utf-8");
        message.setHeader(Exchange.HTTP_METHOD, "POST");
        message.setHeader(CallbackSignature.EVENT_ID_HEADER, entry.eventId());
        message.setHeader(CallbackSignature.HEADER, CallbackSignature.header(settings.secret(), unixSeconds, entry.body()));
        // the URL as given, on the component whose connections check where they lead (CallbackConnections);
        // a redirect is refused (not followed: it fails the try)
        String sep = entry.target().contains("?") ? "&" : "?";
        return CallbackConnections.COMPONENT + ":" + entry.target() + sep + "followRedirects=false";
    }
}
