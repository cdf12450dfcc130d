package org.topupbatch.provider;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A test-only HTTP server on 127.0.0.1 that answers canned bodies. Used only for provider
 * behaviours the sandbox does not produce (other error shapes, string numbers, odd statuses,
 * HTML gateway pages, slow answers, a provider without check-order).
 */
final class StubProvider implements AutoCloseable {

    record Canned(int status, String contentType, String body, Map<String, String> headers, long delayMillis) {
        static Canned json(int status, String body) {
            return new Canned(status, "application/json", body, Map.of(), 0);
        }

        Canned withHeader(String name, String value) {
            Map<String, String> h = new java.util.HashMap<>(headers);
            h.put(name, value);
            return new Canned(status, contentType, body, Map.copyOf(h), delayMillis);
        }

        Canned delayed(long millis) {
            return new Canned(status, contentType, body, headers, millis);
        }
    }

    record Received(String path, String body) {
    }

    private final HttpServer server;
    private final Map<String, Canned> answers = new ConcurrentHashMap<>();
    final List<Received> received = new CopyOnWriteArrayList<>();
    /** Runs when a request has arrived, before it is answered. */
    volatile Runnable onArrival = () -> { };

    StubProvider() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Answer {@code /v1/<operation>} with {@code canned} from now on. */
    void answer(String operation, Canned canned) {
        answers.put("/v1/" + operation, canned);
    }

    long count(String operation) {
        return received.stream().filter(r -> r.path().equals("/v1/" + operation)).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String path = exchange.getRequestURI().getPath();
        received.add(new Received(path, body));
        onArrival.run();
        Canned canned = answers.getOrDefault(path, Canned.json(404, "{\"success\":false,\"data\":null,\"message\":\"no such path\"}"));
        try {
            if (canned.delayMillis() > 0) {
                Thread.sleep(canned.delayMillis()); // the canned answer's latency: pacing
            }
            byte[] bytes = canned.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", canned.contentType());
            canned.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            exchange.sendResponseHeaders(canned.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException clientGone) {
            // the client gave up (timeout test); nothing to do
        } finally {
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
