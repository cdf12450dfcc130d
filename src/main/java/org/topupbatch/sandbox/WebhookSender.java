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
import java.util.Map;
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
 * 5 min, 30 min, 2 h), then given up. Injects duplicates and late deliveries when told to. In the Digiflazz
 * dialect the events are {@link DigiflazzWebhook}'s, with the same retries, duplicates and late deliveries.
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

    /**
     * A new order. The seed dialect tells final statuses only, so an order settled at creation is sent and a
     * pending one waits for its settlement; Digiflazz sends a {@code create} event for every new transaction.
     */
    void orderCreated(SandboxOrders.OrderView order) {
        if (config.dialect() == SandboxDialect.DIGIFLAZZ) {
            digiflazz(order, DigiflazzWebhook.CREATE);
        } else if (!order.entry().status().equals("pending")) {
            orderFinal(order);
        }
    }

    /** An order changed status (settled, or refunded after the fact): {@code order.updated}, or Digiflazz's {@code update}. */
    void orderChanged(SandboxOrders.OrderView order) {
        if (config.dialect() == SandboxDialect.DIGIFLAZZ) {
            digiflazz(order, DigiflazzWebhook.UPDATE);
        } else {
            orderFinal(order);
        }
    }

    private void orderFinal(SandboxOrders.OrderView order) {
        dispatch(order.entry().refId(), payload(order), Map.of());
    }

    private void digiflazz(SandboxOrders.OrderView order, String event) {
        byte[] body = DigiflazzWebhook.body(mapper, order);
        dispatch(order.entry().refId(), body, DigiflazzWebhook.headers(event, body, config.webhookSecret()));
    }

    private void dispatch(String refId, byte[] body, Map<String, String> headers) {
        String url = config.webhookUrl();
        if (url.isEmpty()) {
            return;
        }
        URI target;
        try {
            target = URI.create(url);
        } catch (IllegalArgumentException e) {
            LOG.warn("webhook-url is not a valid URI; event for {} not sent", refId);
            return;
        }
        // secret and schedule as of the event: every retry carries the same bytes
        Event event = new Event(target, body, refId, config.webhookRetrySchedule(), headers);
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
            HttpRequest.Builder request = HttpRequest.newBuilder(event.target)
                    .timeout(ANSWER_TIMEOUT)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(event.body));
            event.headers.forEach(request::header);
            status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
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

    private record Event(URI target, byte[] body, String refId, List<Duration> retryWaits, Map<String, String> headers) {
    }
}
