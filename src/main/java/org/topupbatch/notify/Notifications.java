package org.topupbatch.notify;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each notice to every endpoint of {@code topup.notify.uris} through an in-memory queue
 * (routes/notify.yaml delivers it, retrying with back-off): {@link #tell} never waits for a mail
 * server or an HTTP endpoint, so a delivery never delays an order. A queue that is full (an
 * endpoint down for long, thousands of notices) drops the notice with one log line rather than
 * block. Counts what was delivered and what was given up, by event, for the metrics.
 */
public final class Notifications {

    /** The queue routes/notify.yaml takes notices from; a full one refuses at once. */
    public static final String QUEUE = "seda:topup-notify?size=1000&blockWhenFull=false";
    public static final String URI_HEADER = "TopupNotifyUri";
    public static final String EVENT_HEADER = "TopupNotifyEvent";

    private static final Logger LOG = LoggerFactory.getLogger(Notifications.class);

    private final List<String> uris;
    private final ProducerTemplate producer;
    private final Map<String, AtomicLong> delivered = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> givenUp = new ConcurrentHashMap<>();

    public Notifications(List<String> uris, ProducerTemplate producer) {
        this.uris = List.copyOf(uris);
        this.producer = producer;
    }

    public boolean enabled() {
        return !uris.isEmpty();
    }

    /** Queues the notice for every endpoint; returns at once. */
    public void tell(Notice notice) {
        for (String uri : uris) {
            boolean http = uri.toLowerCase(Locale.ROOT).matches("https?:.*");
            try {
                // the address (it may hold a password) and the event travel as exchange properties:
                // an endpoint sends headers on (camel-mail puts them into the message)
                producer.send(QUEUE, exchange -> {
                    exchange.setProperty(URI_HEADER, uri);
                    exchange.setProperty(EVENT_HEADER, notice.event());
                    exchange.getMessage().setBody(http ? notice.json() : notice.plain());
                    exchange.getMessage().setHeader("Subject", notice.subject());
                    exchange.getMessage().setHeader(Exchange.CONTENT_TYPE,
                            http ? "application/json; charset=utf-8" : "text/plain; charset=utf-8");
                    exchange.getMessage().setHeader(Exchange.HTTP_METHOD, "POST");
                });
            } catch (RuntimeException e) {
                count(givenUp, notice.event());
                LOG.warn("Notification {} not queued for {}: {}", notice.event(), shown(uri), e.getMessage());
            }
        }
    }

    /** routes/notify.yaml: delivered. */
    public void delivered(Exchange exchange) {
        count(delivered, exchange.getProperty(EVENT_HEADER, "unknown", String.class));
    }

    /** routes/notify.yaml: every retry failed; one line, no stack trace, no secret. */
    public void gaveUp(Exchange exchange) {
        String event = exchange.getProperty(EVENT_HEADER, "unknown", String.class);
        count(givenUp, event);
        Throwable cause = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        LOG.warn("Notification {} could not be delivered to {} after retrying; given up: {}", event,
                shown(exchange.getProperty(URI_HEADER, String.class)),
                cause == null ? "unknown error" : org.topupbatch.text.OneLine.of(String.valueOf(cause.getMessage()), 300));
    }

    public Map<String, AtomicLong> deliveredByEvent() {
        return delivered;
    }

    public Map<String, AtomicLong> givenUpByEvent() {
        return givenUp;
    }

    /** An endpoint address as it may be logged: passwords and tokens masked. */
    static String shown(String uri) {
        return uri == null ? "?" : org.apache.camel.util.URISupport.sanitizeUri(uri);
    }

    private static void count(Map<String, AtomicLong> counts, String event) {
        counts.computeIfAbsent(event, e -> new AtomicLong()).incrementAndGet();
    }
}
