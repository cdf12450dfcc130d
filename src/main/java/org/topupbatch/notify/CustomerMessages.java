package org.topupbatch.notify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.whatsapp.model.TextMessage;
import org.apache.camel.component.whatsapp.model.TextMessageRequest;
import org.topupbatch.journal.CustomerChannels;
import org.topupbatch.journal.Outbox.OutboxEntry;
import org.topupbatch.settings.CustomerSettings;

/**
 * The voucher to the customer (docs/customer-messages.md), one more kind of outbox message: the
 * journal writes it with the row's SUCCESS (the order's ref_id, product name, customer number and serial);
 * each try here fills the template in and addresses it to the endpoint its notify_to calls for: an
 * e-mail address camel-mail's {@code topup.customer.email-uri}, a mobile number the Camel WhatsApp
 * component ({@code topup.customer.whatsapp-uri}) or the SMS gateway ({@code topup.customer.sms-uri}).
 * Every try carries the message's one event id (the SMS gateway's JSON and header, the e-mail's
 * {@code X-Topup-Event-Id}).
 */
public final class CustomerMessages {

    /** {@code target_kind} of a customer's message in the outbox (the journal writes it). */
    public static final String KIND = "customer";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CustomerSettings settings;
    private final CustomerTemplate template;

    public CustomerMessages(CustomerSettings settings, CustomerTemplate template) {
        this.settings = settings;
        this.template = template;
    }

    /** Which notify_to addresses a channel reaches: what the journal asks at a row's SUCCESS. */
    public CustomerChannels channels() {
        return settings.anyChannel() ? notifyTo -> endpointFor(notifyTo) != null : CustomerChannels.NONE;
    }

    /** The endpoint URI a kept notify_to (an e-mail address or a +62 number) goes to; null when its channel is unset. */
    String endpointFor(String notifyTo) {
        return email(notifyTo) ? settings.emailUri() : settings.phoneUri();
    }

    private static boolean email(String notifyTo) {
        return notifyTo.indexOf('@') >= 0;
    }

    /** One try's message for its endpoint; returns the endpoint URI. */
    String prepare(OutboxEntry entry, Message message) {
        String uri = endpointFor(entry.target());
        if (uri == null) {
            throw new OutboxDelivery.RefusedDelivery("no channel is set for " + entry.target() + " any more");
        }
        Map<String, String> values = values(entry.body());
        String text = template.text(values);
        if (email(entry.target())) {
            message.setHeader("To", entry.target());
            message.setHeader("Subject", template.subject(values));
            message.setHeader("X-Topup-Event-Id", entry.eventId());
            message.setHeader(Exchange.CONTENT_TYPE, "text/plain; charset=utf-8");
            message.setBody(text);
        } else if (uri.startsWith("whatsapp:")) {
            TextMessageRequest request = new TextMessageRequest();
            request.setMessagingProduct("whatsapp");
            request.setRecipientType("individual");
            request.setType("text");
            request.setTo(entry.target().substring(1)); // the Cloud API takes the number without its '+'
            TextMessage body = new TextMessage();
            body.setBody(text);
            request.setText(body);
            message.setBody(request);
        } else {
            ObjectNode sms = JSON.createObjectNode();
            sms.put("to", entry.target());
            sms.put("text", text);
            sms.put("event_id", entry.eventId());
            message.setHeader(Exchange.CONTENT_TYPE, "application/json; charset=utf-8");
            message.setHeader(Exchange.HTTP_METHOD, "POST");
            message.setHeader(CallbackSignature.EVENT_ID_HEADER, entry.eventId());
            message.setBody(sms.toString());
        }
        return uri;
    }

    private Map<String, String> values(String body) {
        try {
            JsonNode fields = JSON.readTree(body);
            Map<String, String> values = new LinkedHashMap<>();
            values.put("product", fields.path("product").asText(fields.path("product_sku").asText("")));
            values.put("serial", fields.path("serial").asText(""));
            values.put("ref_id", fields.path("ref_id").asText(""));
            values.put("customer_no", fields.path("customer_no").asText(""));
            values.put("reseller", settings.resellerName());
            return values;
        } catch (JsonProcessingException e) {
            throw new OutboxDelivery.RefusedDelivery("the customer's message in the outbox cannot be read");
        }
    }
}
