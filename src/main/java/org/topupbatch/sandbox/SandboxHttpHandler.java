package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The front door: routes {@code /v1/*} through fault injection, authentication, whitelist and rate
 * limit to the operations, in the order docs/sandbox.md fixes, and {@code /sandbox/*} to the inspection view.
 * In the Digiflazz dialect {@code /v1/*} goes to {@link DigiflazzApi} instead.
 */
final class SandboxHttpHandler implements HttpHandler {

    static final int MAX_BODY_BYTES = 1 << 20;
    private static final Logger LOG = LoggerFactory.getLogger(SandboxHttpHandler.class);

    private final ObjectMapper mapper;
    private final SandboxConfig config;
    private final Random random;
    private final Supplier<Instant> clock;
    private final SandboxRateLimiter limiter;
    private final SandboxOperations operations;
    private final SandboxRequestCounter counter;
    private final SandboxInspection inspection;
    private final DigiflazzApi digiflazz;

    SandboxHttpHandler(ObjectMapper mapper, SandboxConfig config, Random random, Supplier<Instant> clock,
                       SandboxRateLimiter limiter, SandboxOperations operations, SandboxRequestCounter counter,
                       SandboxInspection inspection, DigiflazzApi digiflazz) {
        this.mapper = mapper;
        this.config = config;
        this.random = random;
        this.clock = clock;
        this.limiter = limiter;
        this.operations = operations;
        this.counter = counter;
        this.inspection = inspection;
        this.digiflazz = digiflazz;
    }

    @Override
    public void handle(HttpExchange exchange) {
        try {
            String path = exchange.getRequestURI().getPath();
            if (path.startsWith("/v1/") && config.dialect() == SandboxDialect.DIGIFLAZZ) {
                digiflazz.handle(exchange, path);
            } else if (path.startsWith("/v1/")) {
                api(exchange, path);
            } else if (path.startsWith("/sandbox/")) {
                inspection.handle(exchange, path);
            } else {
                throw new SandboxException(404, "NOT_FOUND", "no such path " + path);
            }
        } catch (SandboxException e) {
            sendError(exchange, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("sandbox request failed", e);
            sendError(exchange, new SandboxException(500, "INTERNAL_ERROR", "internal error"));
        } finally {
            exchange.close();
        }
    }

    private void api(HttpExchange exchange, String path) throws IOException, InterruptedException {
        counter.received();
        SandboxOperation op = SandboxOperation.byPath(path).orElseThrow(() ->
                new SandboxException(404, "NOT_FOUND", "no such path " + path));
        counter.received(op);
        if (op == SandboxOperation.CHECK_ORDER && !config.checkOrder()) {
            // as a provider without this endpoint would answer: no ORDER_NOT_FOUND code, just "not found"
            throw new SandboxException(404, "NOT_FOUND", "no such path " + path);
        }
        if (!"POST".equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().set("Allow", "POST");
            throw new SandboxException(405, "METHOD_NOT_ALLOWED", path + " accepts POST only");
        }
        if (config.inOutage()) {
            // nothing is read or done: to the client the provider is gone
            counter.droppedInOutage();
            exchange.close();
            return;
        }
        if (!config.gatewayLimit().admit()) {
            // refused in front of the provider: it never sees the request, no limit of the account counts it
            counter.gatewayRefused();
            gatewayRefusal(exchange);
            return;
        }
        if (config.inRateLimitStorm()) {
            // answered here, not thrown, so it stays out of the account's rate_limited count
            counter.stormRateLimited();
            exchange.getResponseHeaders().set("Retry-After", "1");
            send(exchange, 429, SandboxJson.error(mapper, "RATE_LIMIT_EXCEEDED", "too many requests, slow down", clock.get()));
            return;
        }
        long latency = config.latency().pick(random).toMillis();
        if (latency > 0) {
            Thread.sleep(latency);
        }
        if (random.nextDouble() < config.errorRate()) {
            throw new SandboxException(500, "INTERNAL_ERROR", "internal error, please retry");
        }
        ObjectNode body = readObject(exchange);
        String apiKey = authText(body, "api_key");
        String sign = authText(body, "sign");
        String component = op.signedWithRefId() ? authText(body, "ref_id") : op.fixedComponent();
        Instant now = clock.get();
        if (!apiKey.equals(config.apiKey())) {
            throw new SandboxException(401, "INVALID_API_KEY", "unknown api_key");
        }
        SandboxTier tier = config.tier();
        if (!SandboxSigner.requestSignMatches(sign, apiKey, config.apiSecret(), component)) {
            limiter.countIfRoom(apiKey, tier, now);
            throw new SandboxException(401, "INVALID_SIGNATURE", "invalid signature");
        }
        String remote = exchange.getRemoteAddress().getAddress().getHostAddress();
        if (config.ipWhitelistEnforced() && !config.ipWhitelist().contains(remote)) {
            limiter.countIfRoom(apiKey, tier, now);
            throw new SandboxException(403, "IP_NOT_WHITELISTED", "address " + remote + " is not whitelisted");
        }
        limiter.admit(apiKey, tier, now);
        JsonNode data = operations.run(op, body, apiKey, now);
        if (op == SandboxOperation.CREATE_ORDER && LostAnswer.drawn(config, random)) {
            LostAnswer.lose(exchange, config, random);
            return;
        }
        send(exchange, 200, SandboxJson.success(mapper, data, now));
    }

    static final String NGINX_429_HTML = "<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n"
            + "<body>\r\n<center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

    /** A 429 as the gateway knob gateway-answer says: nginx's page, an empty body, or JSON with Retry-After. */
    private void gatewayRefusal(HttpExchange exchange) throws IOException {
        switch (config.gatewayAnswer()) {
            case "json" -> {
                exchange.getResponseHeaders().set("Retry-After", "1");
                send(exchange, 429, SandboxJson.error(mapper, "RATE_LIMIT_EXCEEDED", "too many requests per second", clock.get()));
            }
            case "empty" -> exchange.sendResponseHeaders(429, -1);
            default -> {
                byte[] html = NGINX_429_HTML.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/html");
                exchange.sendResponseHeaders(429, html.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(html);
                }
            }
        }
    }

    private ObjectNode readObject(HttpExchange exchange) throws IOException {
        byte[] bytes;
        try (InputStream in = exchange.getRequestBody()) {
            bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (bytes.length > MAX_BODY_BYTES) {
            throw SandboxException.invalidRequest("request body too large");
        }
        JsonNode node;
        try {
            node = mapper.readTree(bytes);
        } catch (IOException e) {
            throw SandboxException.invalidRequest("request body is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw SandboxException.invalidRequest("request body must be a JSON object");
        }
        return (ObjectNode) node;
    }

    /** The fields a signature is computed from must be strings, or the request cannot be authenticated at all. */
    private static String authText(ObjectNode body, String field) {
        return SandboxOperations.requiredText(body, field);
    }

    private void sendError(HttpExchange exchange, SandboxException e) {
        if (exchange.getResponseCode() != -1) {
            return; // already answered (or deliberately dropped): nothing more can be said
        }
        if (e.httpStatus() == 429) {
            counter.rateLimited();
        }
        if (e.retryAfterSeconds() >= 0) {
            exchange.getResponseHeaders().set("Retry-After", Long.toString(e.retryAfterSeconds()));
        }
        try {
            send(exchange, e.httpStatus(), SandboxJson.error(mapper, e.code(), e.getMessage(), clock.get()));
        } catch (IOException io) {
            LOG.debug("could not send error answer: {}", io.toString());
        }
    }

    void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = mapper.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
