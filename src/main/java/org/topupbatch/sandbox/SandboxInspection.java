package org.topupbatch.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The view off /v1 for people and tests driving a standalone sandbox: {@code GET /sandbox/ledger},
 * {@code GET /sandbox/stats}, {@code GET|POST /sandbox/config}, {@code GET /sandbox/deposits}, and the
 * acts on the account {@code POST /sandbox/deposit}, {@code /sandbox/foreign-order}, {@code /sandbox/refund}.
 * No authentication, no rate limit, no injected faults, not counted in the stats: it is a local test
 * tool, not part of the provider's interface.
 */
final class SandboxInspection {

    private final ObjectMapper mapper;
    private final SandboxConfig config;
    private final SandboxOrders orders;
    private final SandboxAccount account;
    private final Supplier<SandboxStats> stats;
    private final Supplier<Instant> clock;
    private SandboxHttpHandler handler;

    SandboxInspection(ObjectMapper mapper, SandboxConfig config, SandboxOrders orders, SandboxAccount account,
                      Supplier<SandboxStats> stats, Supplier<Instant> clock) {
        this.mapper = mapper;
        this.config = config;
        this.orders = orders;
        this.account = account;
        this.stats = stats;
        this.clock = clock;
    }

    void attach(SandboxHttpHandler handler) {
        this.handler = handler;
    }

    void handle(HttpExchange exchange, String path) throws IOException {
        String method = exchange.getRequestMethod();
        switch (path) {
            case "/sandbox/ledger":
                requireMethod(exchange, method, "GET");
                ArrayNode ledger = mapper.createArrayNode();
                orders.ledger().forEach(e -> ledger.add(SandboxJson.ledgerEntry(mapper, e)));
                handler.send(exchange, 200, ledger);
                return;
            case "/sandbox/stats":
                requireMethod(exchange, method, "GET");
                handler.send(exchange, 200, statsJson(stats.get()));
                return;
            case "/sandbox/config":
                if ("POST".equals(method)) {
                    applyConfig(readObject(exchange, "request body must be a JSON object of knob names to values"));
                } else {
                    requireMethod(exchange, method, "GET, POST");
                }
                ObjectNode view = mapper.createObjectNode();
                config.describe().forEach(view::put);
                handler.send(exchange, 200, SandboxJson.success(mapper, view, java.time.Instant.now()));
                return;
            case "/sandbox/deposits":
                requireMethod(exchange, method, "GET");
                ArrayNode deposits = mapper.createArrayNode();
                orders.deposits().forEach(d -> deposits.add(depositJson(d)));
                handler.send(exchange, 200, deposits);
                return;
            case "/sandbox/deposit":
                requireMethod(exchange, method, "POST");
                handler.send(exchange, 200, SandboxJson.success(mapper, depositJson(orders.deposit(amount(readAct(exchange)))), clock.get()));
                return;
            case "/sandbox/foreign-order":
                requireMethod(exchange, method, "POST");
                handler.send(exchange, 200, SandboxJson.success(mapper, foreignOrder(readAct(exchange)), clock.get()));
                return;
            case "/sandbox/refund":
                requireMethod(exchange, method, "POST");
                String refId = SandboxOperations.requiredText(readAct(exchange), "ref_id");
                LedgerEntry refunded = orders.refund(refId).entry();
                handler.send(exchange, 200, SandboxJson.success(mapper, SandboxJson.ledgerEntry(mapper, refunded), clock.get()));
                return;
            default:
                throw new SandboxException(404, "NOT_FOUND", "no such path " + path);
        }
    }

    /** An order as another client of the account would place it: the order desk of create-order, off the counters. */
    private ObjectNode foreignOrder(ObjectNode body) {
        String refId = SandboxOperations.requiredText(body, "ref_id");
        String sku = SandboxOperations.requiredText(body, "product_sku");
        String customerNo = SandboxOperations.requiredText(body, "customer_no");
        String zone = SandboxOperations.optionalText(body, "customer_no_zone");
        SandboxOperations.checkRefId(refId);
        return SandboxJson.ledgerEntry(mapper, orders.create(refId, sku, customerNo, zone).entry());
    }

    private static long amount(ObjectNode body) {
        JsonNode node = body.get("amount");
        if (node == null || node.isNull()) {
            throw SandboxException.invalidRequest("amount is required: a whole number of IDR above 0");
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() <= 0) {
            throw SandboxException.invalidRequest("amount must be a whole number of IDR above 0, not " + node);
        }
        return node.longValue();
    }

    private ObjectNode depositJson(Deposit d) {
        ObjectNode node = mapper.createObjectNode();
        node.put("amount", d.amount());
        node.put("at", SandboxJson.timestamp(d.at()));
        node.put("balance_before", d.balanceBefore());
        node.put("balance_after", d.balanceAfter());
        return node;
    }

    private ObjectNode readAct(HttpExchange exchange) throws IOException {
        return readObject(exchange, "request body must be a JSON object");
    }

    private ObjectNode statsJson(SandboxStats s) {
        ObjectNode node = mapper.createObjectNode();
        ObjectNode perOp = node.putObject("requests_per_operation");
        s.requestsPerOperation().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> perOp.put(e.getKey(), e.getValue()));
        node.put("rate_limited", s.rateLimited());
        node.put("busiest_window", s.busiestWindow());
        node.put("total_requests", s.totalRequests());
        node.put("gateway_refused", s.gatewayRefused());
        node.put("balance", account.balance());
        node.put("orders", orders.totalOrders());
        return node;
    }

    /** All knobs are checked on a scratch copy first, so a bad one changes nothing. */
    private void applyConfig(ObjectNode changes) {
        SandboxConfig scratch = SandboxConfig.defaults();
        try {
            for (Iterator<Map.Entry<String, JsonNode>> it = changes.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                scratch.set(e.getKey(), text(e.getValue()));
            }
        } catch (IllegalArgumentException e) {
            throw SandboxException.invalidRequest(e.getMessage());
        }
        changes.fields().forEachRemaining(e -> config.set(e.getKey(), text(e.getValue())));
    }

    private static String text(JsonNode value) {
        return value == null || value.isNull() ? "" : value.asText();
    }

    private ObjectNode readObject(HttpExchange exchange, String notAnObject) throws IOException {
        JsonNode node;
        try (InputStream in = exchange.getRequestBody()) {
            node = mapper.readTree(in.readNBytes(SandboxHttpHandler.MAX_BODY_BYTES));
        } catch (IOException e) {
            throw SandboxException.invalidRequest("request body is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw SandboxException.invalidRequest(notAnObject);
        }
        return (ObjectNode) node;
    }

    private static void requireMethod(HttpExchange exchange, String method, String allowed) {
        if (!allowed.contains(method)) {
            exchange.getResponseHeaders().set("Allow", allowed);
            throw new SandboxException(405, "METHOD_NOT_ALLOWED", "use " + allowed);
        }
    }
}
