package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The front door of the Digiflazz dialect under {@code /v1}: the same fault knobs as the seed dialect (outage,
 * gateway, 429 storm, latency, injected 500, lost answers), then payload, username, sign, IP whitelist and rate
 * limit, then {@link DigiflazzDesk}. Every answer is JSON under {@code data}; refusals carry their rc with HTTP 200
 * (Digiflazz's pages show no HTTP statuses), except the rate limit's 429 and the injected faults.
 */
final class DigiflazzApi {

    private final ObjectMapper mapper;
    private final SandboxConfig config;
    private final Random random;
    private final Supplier<Instant> clock;
    private final SandboxRateLimiter limiter;
    private final SandboxRequestCounter counter;
    private final DigiflazzDesk desk;

    DigiflazzApi(ObjectMapper mapper, SandboxConfig config, Random random, Supplier<Instant> clock,
                 SandboxRateLimiter limiter, SandboxRequestCounter counter, DigiflazzDesk desk) {
        this.mapper = mapper;
        this.config = config;
        this.random = random;
        this.clock = clock;
        this.limiter = limiter;
        this.counter = counter;
        this.desk = desk;
    }

    void handle(HttpExchange exchange, String path) throws IOException, InterruptedException {
        counter.received();
        DigiflazzOperation op = DigiflazzOperation.byPath(path).orElse(null);
        if (op == null) {
            send(exchange, 404, message("no such path " + path));
            return;
        }
        counter.received(op.countedAs());
        if (!"POST".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", "POST");
            send(exchange, 405, message(path + " accepts POST only"));
            return;
        }
        if (config.inOutage()) {
            counter.droppedInOutage();
            exchange.close();
            return;
        }
        if (!config.gatewayLimit().admit()) {
            counter.gatewayRefused();
            gatewayRefusal(exchange);
            return;
        }
        if (config.inRateLimitStorm()) {
            counter.stormRateLimited();
            exchange.getResponseHeaders().set("Retry-After", "1");
            send(exchange, 429, DigiflazzJson.refusal(mapper, DigiflazzRc.RATE_LIMITED));
            return;
        }
        long latency = config.latency().pick(random).toMillis();
        if (latency > 0) {
            Thread.sleep(latency);
        }
        if (random.nextDouble() < config.errorRate()) {
            send(exchange, 500, message("internal error, please retry"));
            return;
        }
        ObjectNode body = null;
        boolean authenticated = false;
        try {
            body = readObject(exchange);
            authenticated = authenticate(exchange, op, body);
            run(exchange, op, body);
        } catch (DigiflazzRefusal refusal) {
            if (refusal.retryAfterSeconds() >= 0) {
                exchange.getResponseHeaders().set("Retry-After", Long.toString(refusal.retryAfterSeconds()));
            }
            send(exchange, refusal.httpStatus(), refusalBody(op, refusal.rc(), body, authenticated));
        } catch (SandboxException e) {
            // the order desk's own trouble (its state file could not be written): not a Digiflazz answer
            send(exchange, e.httpStatus(), message(e.getMessage()));
        }
    }

    /**
     * username (rc 42) before sign (rc 41): the key is the username's, so a sign cannot be checked for an unknown
     * one. Counted against the rate limit as the seed dialect counts: a bad sign or address reached the account,
     * an unknown username did not. Returns true once the caller is the account.
     */
    private boolean authenticate(HttpExchange exchange, DigiflazzOperation op, ObjectNode body) {
        String username = DigiflazzDesk.text(body, "username", true);
        String sign = DigiflazzDesk.text(body, "sign", true);
        String component = op.fixedComponent() != null ? op.fixedComponent() : DigiflazzDesk.text(body, "ref_id", true);
        Instant now = clock.get();
        if (!username.equals(config.username())) {
            throw new DigiflazzRefusal(DigiflazzRc.BUYER_API_REFUSED, "unknown username");
        }
        String account = config.apiKey();
        SandboxTier tier = config.tier();
        if (!DigiflazzSigner.matches(sign, username, account, component)) {
            limiter.countIfRoom(account, tier, now);
            throw new DigiflazzRefusal(DigiflazzRc.SIGNATURE_INVALID, "sign does not match");
        }
        String remote = exchange.getRemoteAddress().getAddress().getHostAddress();
        if (config.ipWhitelistEnforced() && !config.ipWhitelist().contains(remote)) {
            limiter.countIfRoom(account, tier, now);
            throw new DigiflazzRefusal(DigiflazzRc.IP_NOT_RECOGNISED, "address " + remote + " is not whitelisted");
        }
        try {
            limiter.admit(account, tier, now);
        } catch (SandboxException e) {
            counter.rateLimited();
            throw new DigiflazzRefusal(DigiflazzRc.RATE_LIMITED, e.getMessage(), 429, e.retryAfterSeconds());
        }
        return true;
    }

    private void run(HttpExchange exchange, DigiflazzOperation op, ObjectNode body) throws IOException {
        switch (op) {
            case CEK_SALDO -> send(exchange, 200, desk.cekSaldo(body));
            case PRICE_LIST -> send(exchange, 200, desk.priceList(body));
            case TRANSACTION -> {
                DigiflazzDesk.TransactionAnswer answer = desk.transaction(body, DigiflazzDesk.text(body, "ref_id", true));
                if (answer.newOrder() && LostAnswer.drawn(config, random)) {
                    LostAnswer.lose(exchange, config, random);
                    return;
                }
                send(exchange, 200, answer.answer());
            }
            default -> throw new IllegalStateException(op.name());
        }
    }

    /** A refused Topup echoes the request's fields (and, once authenticated, the balance); the others are rc and message. */
    private ObjectNode refusalBody(DigiflazzOperation op, DigiflazzRc rc, ObjectNode body, boolean authenticated) {
        if (op != DigiflazzOperation.TRANSACTION) {
            return DigiflazzJson.refusal(mapper, rc);
        }
        Long balance = authenticated ? desk.balance() : null;
        return DigiflazzJson.transactionRefusal(mapper, rc, echo(body, "ref_id"), echo(body, "customer_no"),
                echo(body, "buyer_sku_code"), balance);
    }

    private static String echo(ObjectNode body, String field) {
        JsonNode node = body == null ? null : body.get(field);
        return node != null && node.isTextual() ? node.textValue() : null;
    }

    private ObjectNode readObject(HttpExchange exchange) throws IOException {
        byte[] bytes;
        try (InputStream in = exchange.getRequestBody()) {
            bytes = in.readNBytes(SandboxHttpHandler.MAX_BODY_BYTES + 1);
        }
        if (bytes.length > SandboxHttpHandler.MAX_BODY_BYTES) {
            throw DigiflazzRefusal.payload("request body too large");
        }
        JsonNode node;
        try {
            node = mapper.readTree(bytes);
        } catch (IOException e) {
            throw DigiflazzRefusal.payload("request body is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw DigiflazzRefusal.payload("request body must be a JSON object");
        }
        return (ObjectNode) node;
    }

    /** The gateway knob's 429 in this dialect: nginx's page, an empty body, or the rate-limit rc as JSON. */
    private void gatewayRefusal(HttpExchange exchange) throws IOException {
        switch (config.gatewayAnswer()) {
            case "json" -> {
                exchange.getResponseHeaders().set("Retry-After", "1");
                send(exchange, 429, DigiflazzJson.refusal(mapper, DigiflazzRc.RATE_LIMITED));
            }
            case "empty" -> exchange.sendResponseHeaders(429, -1);
            default -> {
                byte[] html = SandboxHttpHandler.NGINX_429_HTML.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/html");
                exchange.sendResponseHeaders(429, html.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(html);
                }
            }
        }
    }

    /** {@code {"data":{"message":..}}}: answers that are not Digiflazz's (unknown path, wrong method, injected faults). */
    private ObjectNode message(String text) {
        ObjectNode data = mapper.createObjectNode();
        data.put("message", text);
        return DigiflazzJson.wrap(mapper, data);
    }

    private void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = mapper.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
