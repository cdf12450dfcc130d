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
import java.util.List;
import java.util.Random;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts {@code order.updated} events to the account's webhook_url when an order reaches a final
 * status, in the real provider's documented format: the order under {@code data} and
 * {@code signature} = md5(webhook_secret + ref_id + status) in the body. A delivery that gets no
 * HTTP 200 within 10 s is sent again after each wait of the retry schedule (documented: 1 min,
 * 5 min, 30 min, 2 h), then given up. Injects duplicates and late deliveries when told to.
 */
final class WebhookSender {

    static final String EVENT = "order.updated";
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);
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
        // secret and schedule as of the event: every retry carries the same bytes
        Event event = new Event(target, payload(order), order.entry().refId(), config.webhookRetrySchedule());
        long firstDelay = random.nextDouble() < config.webhookLateRate() ? config.webhookLateDelay().toMillis() : 0;
        schedule(event, 1, firstDelay);
        if (random.nextDouble() < config.webhookDuplicateRate()) {
            schedule(event, 1, firstDelay + DUPLICATE_GAP.toMillis());
        }
    }

    private byte[] payload(SandboxOrders.OrderView order) {
        LedgerEntry e = order.entry();
        ObjectNode node = mapper.createObjectNode();
        node.put("event", EVENT);
        ObjectNode data = node.putObject("data");
        data.put("ref_id", e.refId());
        data.put("product_sku", e.productSku());
        data.put("customer_no", e.customerNo());
        data.put("status", e.status());
        data.put("serial_number", e.serialNumber());
        data.put("price", e.price());
        data.put("message", order.message());
        data.put("timestamp", SandboxJson.timestamp(clock.get()));
        node.put("signature", SandboxSigner.webhookSignature(config.webhookSecret(), e.refId(), e.status()));
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
                    .POST(HttpRequest.BodyPublishers.ofByteArray(event.body))
                    .build();
            status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            LOG.debug("webhook for {} attempt {} failed: {}", event.refId, attempt, e.toString());
        }
        if (status == 200) {
            return;
        }
        if (attempt <= event.retryWaits.size()) {
            schedule(event, attempt + 1, event.retryWaits.get(attempt - 1).toMillis());
        } else {
            LOG.info("webhook for {} given up after {} attempts (last status {})", event.refId, attempt, status);
        }
    }

    private record Event(URI target, byte[] body, String refId, List<Duration> retryWaits) {
    }
}
