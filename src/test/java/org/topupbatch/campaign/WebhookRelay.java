package org.topupbatch.campaign;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands between the sandbox's webhooks and the product: takes each at once and passes it on, bytes
 * and headers unchanged, after a random delay, so webhooks arrive out of order; some are passed on a
 * second time once the product has answered the first (a replay of a settled order's event).
 */
final class WebhookRelay implements AutoCloseable {

    private final HttpServer server;
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "webhook-relay");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Random random;
    private final String target;
    /** Webhooks taken from the sandbox; of these, how many distinct bodies (duplicates share one). */
    final AtomicInteger received = new AtomicInteger();
    private final java.util.Set<String> bodies = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Passes the product answered: first passes and replays; replays alone; passes that found no answer. */
    final AtomicInteger relayed = new AtomicInteger();
    final AtomicInteger replayed = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();

    WebhookRelay(String target, long seed) throws IOException {
        this.target = target;
        this.random = new Random(seed);
        // the product's port was only picked, not yet bound: the relay must not take it
        int productPort = java.net.URI.create(target).getPort();
        HttpServer bound = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        while (bound.getAddress().getPort() == productPort) {
            HttpServer other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            bound.stop(0);
            bound = other;
        }
        server = bound;
        server.createContext("/", this::take);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/webhook";
    }

    private void take(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        Map<String, List<String>> headers = Map.copyOf(exchange.getRequestHeaders());
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
        int n = received.incrementAndGet();
        bodies.add(java.util.HexFormat.of().formatHex(body, 0, Math.min(body.length, 4096)) + "/" + body.length);
        long delay;
        boolean replay;
        synchronized (random) {
            delay = random.nextInt(3000);
            // the first webhook always, then one in three: a case must see replays land, whatever its timing
            replay = n == 1 || random.nextInt(3) == 0;
        }
        scheduler.schedule(() -> {
            if (pass(body, headers, false) && replay) {
                // the replay follows the pass the product answered, by 0.3-1 s: the order is settled by then,
                // and the product (in once mode it exits when its batch is done) is most likely still there,
                // where a fixed 4 s after receipt found it gone when the whole batch settled in under 4 s
                long after;
                synchronized (random) {
                    after = 300 + random.nextInt(700);
                }
                scheduler.schedule(() -> pass(body, headers, true), after, TimeUnit.MILLISECONDS);
            }
        }, delay, TimeUnit.MILLISECONDS);
    }

    int distinctBodies() {
        return bodies.size();
    }

    /** The counts, for a case's printout and its failure message. */
    String figures() {
        return "relay: " + received + " webhooks received (" + distinctBodies() + " distinct), " + relayed
                + " passed on (" + replayed + " of them replays), " + failed + " passes unanswered";
    }

    /** Passes one webhook on; true when the product answered it. */
    private boolean pass(byte[] body, Map<String, List<String>> headers, boolean replay) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target)).timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach((name, values) -> {
            if (name.equalsIgnoreCase("Content-Type") || name.toLowerCase().startsWith("x-")) {
                values.forEach(v -> request.header(name, v));
            }
        });
        try {
            client.send(request.build(), HttpResponse.BodyHandlers.discarding());
            relayed.incrementAndGet();
            if (replay) {
                replayed.incrementAndGet();
            }
            return true;
        } catch (IOException e) {
            // the product is not listening (between runs): counted, so that a case can tell whether its webhooks landed
            failed.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    @Override
    public void close() {
        server.stop(0);
        scheduler.shutdownNow();
    }
}
