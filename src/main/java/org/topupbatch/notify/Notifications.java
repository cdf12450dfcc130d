package org.topupbatch.notify;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.journal.Outbox;
import org.topupbatch.journal.Outbox.OutgoingMessage;

/**
 * Records each notice for every endpoint of {@code topup.notify.uris} in the journal's outbox, from
 * where routes/notify.yaml delivers it with back-off ({@link OutboxDelivery}): {@link #tell} never
 * waits for a mail server or an HTTP endpoint, so a delivery never delays an order, and a restart
 * loses nothing told. Only the endpoint's address with its passwords masked is stored; the address
 * itself is found again in the settings at delivery. Counts what was delivered and what was given
 * up, by event, for the metrics.
 */
public final class Notifications {

    /** {@code target_kind} of a notice in the outbox. */
    public static final String KIND = "notify";

    private static final Logger LOG = LoggerFactory.getLogger(Notifications.class);

    private final List<String> uris;
    private final Outbox outbox;
    private final Map<String, AtomicLong> delivered = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> givenUp = new ConcurrentHashMap<>();

    /** Each endpoint by the key the outbox stores: its masked address, numbered when two mask alike. */
    private final Map<String, String> byTarget = new java.util.LinkedHashMap<>();

    public Notifications(List<String> uris, Outbox outbox) {
        this.uris = List.copyOf(uris);
        this.outbox = outbox;
        for (int i = 0; i < this.uris.size(); i++) {
            String key = shown(this.uris.get(i));
            // two endpoints that differ only in a password would mask alike: each keeps a key of its own
            byTarget.put(byTarget.containsKey(key) ? key + " #" + (i + 1) : key, this.uris.get(i));
        }
    }

    public boolean enabled() {
        return !uris.isEmpty();
    }

    /** Records the notice for every endpoint (a transaction of its own); returns at once. */
    public void tell(Notice notice) {
        if (!enabled()) {
            return;
        }
        try {
            outbox.add(messagesFor(notice, null));
        } catch (RuntimeException e) {
            count(givenUp, notice.event());
            LOG.warn("Notification {} not recorded in the outbox: {}", notice.event(),
                    org.topupbatch.text.OneLine.of(String.valueOf(e.getMessage()), 300));
        }
    }

    /**
     * The notice as one outbox message per endpoint, all with one event id: for the caller that
     * records them in the same transaction as the change they tell of.
     */
    public List<OutgoingMessage> messagesFor(Notice notice, Long batchId) {
        String eventId = "evt_" + UUID.randomUUID().toString().replace("-", "");
        List<OutgoingMessage> messages = new ArrayList<>();
        byTarget.forEach((target, uri) -> messages.add(new OutgoingMessage(eventId, notice.event(), KIND, target,
                notice.subject(), http(uri) ? notice.json() : notice.plain(), batchId)));
        return messages;
    }

    /** The configured endpoint an outbox message names (by its masked address), or null when it is no longer set. */
    public String endpointOf(String target) {
        return byTarget.get(target);
    }

    static boolean http(String uri) {
        return uri.toLowerCase(Locale.ROOT).matches("https?:.*");
    }

    void delivered(String event) {
        count(delivered, event);
    }

    void gaveUp(String event) {
        count(givenUp, event);
    }

    public Map<String, AtomicLong> deliveredByEvent() {
        return delivered;
    }

    public Map<String, AtomicLong> givenUpByEvent() {
        return givenUp;
    }

    /** An endpoint address as it may be logged or stored: passwords and tokens masked. */
    static String shown(String uri) {
        return uri == null ? "?" : org.apache.camel.util.URISupport.sanitizeUri(uri);
    }

    private static void count(Map<String, AtomicLong> counts, String event) {
        counts.computeIfAbsent(event, e -> new AtomicLong()).incrementAndGet();
    }
}
