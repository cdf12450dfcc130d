package org.topupbatch.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToIntFunction;

/**
 * An SMS gateway stand-in over real HTTP on 127.0.0.1 and a free port, as topup.customer.sms-uri
 * reaches one (docs/customer-messages.md): a {@code POST} of JSON {@code {"to", "text", "event_id"}}
 * with the event id in {@code X-Topup-Event-Id} too. It keeps every request and answers it with the
 * status {@link #answer} gives for it (200 unless told otherwise; any 2xx counts as sent).
 */
public final class SmsGateway implements AutoCloseable {

    /** One request as it arrived, and the status it was answered with. */
    public record Sms(Instant at, String to, String text, String eventId, String headerEventId, int answered) {
    }

    /** What the gateway is asked, before it answers: the request's body and header event id. */
    public record Asked(JsonNode body, String headerEventId) {
        public String to() {
            return body.path("to").asText();
        }
    }

    private final HttpServer server;
    private final List<Sms> received = new CopyOnWriteArrayList<>();
    private volatile ToIntFunction<Asked> answer = asked -> 200;

    private SmsGateway() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", FreePorts.pick()), 0);
        server.createContext("/send", exchange -> {
            JsonNode body = new ObjectMapper().readTree(exchange.getRequestBody().readAllBytes());
            String header = exchange.getRequestHeaders().getFirst("X-Topup-Event-Id");
            int status = answer.applyAsInt(new Asked(body, header));
            received.add(new Sms(Instant.now(), body.path("to").asText(), body.path("text").asText(),
                    body.path("event_id").asText(), header, status));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    /** A gateway answering 200 to everything; started. */
    public static SmsGateway start() throws IOException {
        return new SmsGateway();
    }

    /** From now on, the status each request is answered with (called one request at a time per endpoint). */
    public SmsGateway answer(ToIntFunction<Asked> answer) {
        this.answer = answer;
        return this;
    }

    /** Every request so far, in arrival order (a live view). */
    public List<Sms> received() {
        return received;
    }

    /** Requests so far to {@code to} (the {@code +628…} form). */
    public List<Sms> to(String to) {
        return received.stream().filter(s -> s.to().equals(to)).toList();
    }

    /** The URL for topup.customer.sms-uri. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/send";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
