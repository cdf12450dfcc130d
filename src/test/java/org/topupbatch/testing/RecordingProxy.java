package org.topupbatch.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP pass-through in front of a provider that notes each request's path and arrival time on a
 * given clock: what the provider is sent, including requests it refuses, whatever the client believes.
 */
public final class RecordingProxy implements AutoCloseable {

    public record Arrival(String path, Instant at, int status) {
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-recording-proxy");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(threads).build();
    private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();

    public RecordingProxy(String target, Clock clock) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext("/", exchange -> forward(exchange, target, clock));
        server.start();
    }

    private void forward(HttpExchange exchange, String target, Clock clock) throws IOException {
        Instant at = clock.instant();
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (type != null) {
                request.header("Content-Type", type);
            }
            HttpResponse<byte[]> answer;
            try {
                answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException e) {
                arrivals.add(new Arrival(exchange.getRequestURI().getPath(), at, -1));
                return; // the provider dropped it: so does the proxy
            }
            arrivals.add(new Arrival(exchange.getRequestURI().getPath(), at, answer.statusCode()));
            answer.headers().map().forEach((name, values) -> {
                if (name.equalsIgnoreCase("Content-Type") || name.equalsIgnoreCase("Retry-After")) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            byte[] bytes = answer.body();
            exchange.sendResponseHeaders(answer.statusCode(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request so far, in arrival order of their recording. */
    public List<Arrival> arrivals() {
        return List.copyOf(arrivals);
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
