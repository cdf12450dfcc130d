package org.topupbatch.sandbox;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.topupbatch.testing.Poll;

/** A tiny webhook endpoint for tests: records every delivery; answers 500 to the first {@code failFirst} ones. */
final class WebhookReceiver implements AutoCloseable {

    /** One delivery as received, with the status this receiver answered it with. */
    record Delivery(String contentType, byte[] body, Instant at, int answered, Map<String, List<String>> headers) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The first value of a request header, its name in any case; null when absent. */
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
    private final AtomicInteger failuresLeft;

    WebhookReceiver(int failFirst) throws IOException {
        failuresLeft = new AtomicInteger(failFirst);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "test-webhook-receiver");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Instant at = Instant.now();
            int status = failuresLeft.getAndDecrement() > 0 ? 500 : 200;
            deliveries.add(new Delivery(exchange.getRequestHeaders().getFirst("Content-Type"), body, at, status,
                    Map.copyOf(exchange.getRequestHeaders())));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    List<Delivery> deliveries() {
        return new ArrayList<>(deliveries);
    }

    /** Waits until the condition holds for the deliveries so far; returns them. */
    List<Delivery> await(Predicate<List<Delivery>> condition, Duration timeout) {
        return Poll.atMost(timeout, this::deliveries, condition);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
