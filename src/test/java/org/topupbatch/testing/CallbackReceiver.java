package org.topupbatch.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An ERP's callback receiver over real HTTP on 127.0.0.1 and a free port: it checks each request's
 * {@code X-Topup-Signature} the way docs/callbacks.md tells an ERP to (HMAC-SHA256 of "t.body" with
 * the shared secret, t within 5 minutes), keeps every request with its event id, and answers the
 * n-th request with the status {@link #answer} gives (200 unless told otherwise). Notices to an
 * {@code http://} endpoint of topup.notify.uris arrive here too (unsigned: {@code verified} false).
 */
public final class CallbackReceiver implements AutoCloseable {

    /** One request as it arrived, and the status it was answered with. */
    public record Received(Instant at, String eventId, String signature, String body, boolean verified, int answered) {
    }

    private final HttpServer server;
    private final String path;
    private final String secret;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile IntUnaryOperator answer = n -> 200;

    private CallbackReceiver(String path, String secret) throws IOException {
        this.path = path;
        this.secret = secret;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", FreePorts.pick()), 0);
        server.createContext(path, exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String signature = exchange.getRequestHeaders().getFirst("X-Topup-Signature");
            int status = answer.applyAsInt(requests.incrementAndGet());
            received.add(new Received(Instant.now(), exchange.getRequestHeaders().getFirst("X-Topup-Event-Id"), signature,
                    body, verify(secret, signature, body), status));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    /** A receiver at {@code path} checking signatures made with {@code secret}; started. */
    public static CallbackReceiver start(String path, String secret) throws IOException {
        return new CallbackReceiver(path, secret);
    }

    /** From now on, the status the n-th request (1 for the first ever) is answered with. */
    public CallbackReceiver answer(IntUnaryOperator answer) {
        this.answer = answer;
        return this;
    }

    /** Every request so far, in arrival order (a live view). */
    public List<Received> received() {
        return received;
    }

    /** How many requests were answered 2xx. */
    public long delivered() {
        return received.stream().filter(r -> r.answered() / 100 == 2).count();
    }

    /** The receiver's URL with {@code host} as its host name (127.0.0.1, localhost...). */
    public String url(String host) {
        return "http://" + host + ":" + server.getAddress().getPort() + path;
    }

    /** The receiver's check: HMAC-SHA256 of "t.body" with the shared secret, as docs/callbacks.md shows. */
    public static boolean verify(String secret, String header, String body) {
        if (header == null || !header.matches("t=\\d+,v1=[0-9a-f]{64}")) {
            return false;
        }
        String t = header.substring(2, header.indexOf(','));
        String v1 = header.substring(header.indexOf("v1=") + 3);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal((t + "." + body).getBytes(StandardCharsets.UTF_8))).equals(v1)
                    && Math.abs(Instant.now().getEpochSecond() - Long.parseLong(t)) < 300;
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
