package org.topupbatch.observe;

import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.topupbatch.text.OneLine;

/**
 * The headers a money dashboard should send, on every answer of a port: Camel's own routes
 * ({@code /observe/health}, {@code /observe/metrics}), unknown paths and failures included, as the
 * first handler of the port's router. No MIME sniffing, no framing by another site, no referrer,
 * and nothing cached ({@code no-store}) unless the route said otherwise. A route may send a
 * Content-Security-Policy of its own (the dashboard page allows its own script and style by their
 * hashes, {@link PagePolicy}); any other answer gets the strictest: it is data, never a page.
 */
final class SecurityHeaders implements Handler<RoutingContext> {

    static final String STRICT_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    private static final String INSTALLED = "topup.security-headers";
    private static final Logger LOG = LoggerFactory.getLogger(SecurityHeaders.class);

    private SecurityHeaders() {
    }

    /** Puts the headers on every answer of {@code router}'s port, once (and {@link FormBodyAsBytes} after them). */
    static void installOn(Router router) {
        synchronized (router) {
            if (router.metadata().containsKey(INSTALLED)) {
                return;
            }
            router.putMetadata(INSTALLED, Boolean.TRUE);
            router.route().order(Integer.MIN_VALUE).handler(new SecurityHeaders()).handler(FormBodyAsBytes::handle)
                    .failureHandler(SecurityHeaders::failed);
        }
    }

    /**
     * A request Vert.x or Camel gave up on (a body over the limit: 413; a broken request; a failure
     * past a route) answers its status with a one-line reason, and leaves at most one escaped line
     * in the log, not Vert.x's "Unhandled exception in router" and its trace.
     */
    private static void failed(RoutingContext ctx) {
        int status = ctx.statusCode() < 400 ? 500 : ctx.statusCode();
        Throwable failure = ctx.failure();
        if (status >= 500 && failure != null) {
            LOG.warn("HTTP {} {} answered {}: {}", ctx.request().method(), OneLine.of(ctx.request().path(), 200), status,
                    OneLine.of(failure.toString(), 300));
        }
        if (ctx.response().ended() || ctx.response().closed()) {
            return; // the client has gone, or the answer was sent: nothing more to say
        }
        if (ctx.response().headWritten()) {
            ctx.response().end();
            return;
        }
        String reason = switch (status) {
            case 413 -> "the request body is over this port's limit";
            case 400 -> "a malformed request";
            default -> status >= 500 ? "the request could not be handled" : "refused";
        };
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                .end("{\"error\":\"" + reason + "\"}");
    }

    @Override
    public void handle(RoutingContext ctx) {
        // set when the answer's headers are written, after the route's own
        ctx.addHeadersEndHandler(v -> {
            MultiMap headers = ctx.response().headers();
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("X-Frame-Options", "DENY");
            headers.set("Referrer-Policy", "no-referrer");
            if (!headers.contains("Content-Security-Policy")) {
                headers.set("Content-Security-Policy", STRICT_POLICY);
            }
            if (!headers.contains("Cache-Control")) {
                headers.set("Cache-Control", "no-store");
            }
        });
        ctx.next();
    }
}
