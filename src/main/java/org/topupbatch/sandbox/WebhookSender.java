package org.topupbatch.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts {@code order.status} events to the account's webhook_url when an order reaches a final status,
 * signed with HMAC-SHA256 of the raw body; retried with back-off 1 s, 2 s, 4 s, ... up to 6 attempts
 * while the answer is not a 2xx within 5 s. Injects duplicates and late deliveries when told to.
 */
final class WebhookSender {

    static final int MAX_ATTEMPTS = 6;
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(5);
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    // a duplicate follows its original shortly, as a provider re-sending after a lost acknowledgement would
    static final Duration DUPLICATE_GAP = Duration.ofMillis(200);

    private static final Logger LOG = LoggerFactory.getLogger(WebhookSender.class);

    private final SandboxConfig config;
    private final Random random;
    private final ObjectMapper mapper;
    private final Supplier<Instant> clock;
    private final ScheduledExecutorService scheduler;
    private final HttpClient http;

    WebhookSender(SandboxConfig config, Random random, ObjectMapper mapper, Supplier<Instant> clock,
                  ScheduledExecutorService scheduler) {
        this.config = config;
        this.random = random;
        this.mapper = mapper;
        this.clock = clock;
        this.scheduler = scheduler;
        this.http = HttpClient.newBuilder().connectTimeout(ANSWER_TIMEOUT).build();
    }

    void orderFinal(SandboxOrders.OrderView order) {
        String url = config.webhookUrl();
        if (url.isEmpty()) {
            return;
        }
        URI target;
        try {
            target = URI.create(url);
        } catch (IllegalArgumentException e) {
            LOG.warn("webhook-url is not a valid URI; event for {} not sent", order.entry().refId());
            return;
        }
        byte[] body = payload(order);
        // the secret as of the event: a retry carries the same bytes and the same signature
        Event event = new Event(target, UUID.randomUUID().toString(), body,
                SandboxSigner.webhookSignature(config.apiSecret(), body), order.entry().refId());
        long firstDelay = random.nextDouble() < config.webhookLateRate() ? config.webhookLateDelay().toMillis() : 0;
        schedule(event, 1, firstDelay);
        if (random.nextDouble() < config.webhookDuplicateRate()) {
            schedule(event, 1, firstDelay + DUPLICATE_GAP.toMillis());
        }
    }

    private byte[] payload(SandboxOrders.OrderView order) {
        LedgerEntry e = order.entry();
        ObjectNode node = mapper.createObjectNode();
        node.put("event", "order.status");
        node.put("ref_id", e.refId());
        node.put("product_sku", e.productSku());
        node.put("customer_no", e.customerNo());
        node.put("status", e.status());
        node.put("serial_number", e.serialNumber());
        node.put("price", e.price());
        node.put("message", order.message());
        node.put("timestamp", SandboxJson.timestamp(clock.get()));
        try {
            return mapper.writeValueAsBytes(node);
        } catch (JsonProcessingException e1) {
            throw new IllegalStateException(e1);
        }
    }

    private void schedule(Event event, int attempt, long delayMillis) {
        try {
            scheduler.schedule(() -> deliver(event, attempt), delayMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the sandbox is closing: undelivered events die with it, as they would with a real provider's outage
        }
    }

    private void deliver(Event event, int attempt) {
        int status = -1;
        try {
            HttpRequest request = HttpRequest.newBuilder(event.target)
                    .timeout(ANSWER_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .header("X-Topup-Event-Id", event.id)
                    .header("X-Topup-Signature", event.signature)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(event.body))
                    .build();
            status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            LOG.debug("webhook for {} attempt {} failed: {}", event.refId, attempt, e.toString());
        }
        if (status >= 200 && status < 300) {
            return;
        }
        if (attempt < MAX_ATTEMPTS) {
            schedule(event, attempt + 1, FIRST_BACKOFF.toMillis() << (attempt - 1));
        } else {
            LOG.info("webhook for {} given up after {} attempts (last status {})", event.refId, attempt, status);
        }
    }

    private record Event(URI target, String id, byte[] body, String signature, String refId) {
    }
}
