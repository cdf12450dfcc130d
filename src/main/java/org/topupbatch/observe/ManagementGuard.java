package org.topupbatch.observe;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Optional;

/**
 * The one filter in front of every route of the management port (the dashboard, its data and buttons,
 * the upload, the door, progress, reports, metrics; health passes): {@link ManagementAccess} decides on
 * the request's real headers, read from Vert.x itself, before platform-http turns anything into a
 * Camel message. A refused request is answered here, as one JSON line, and no route sees it.
 *
 * <p>Why not Camel's own {@code camel.management.authentication*}: its basic login reads users from a
 * properties file, and no mechanism of it takes the project's opaque bearer token
 * ({@code topup.intake.token}, CONTRACT.md section 12); it covers the whole server, {@code /observe/health}
 * included; and it knows nothing of Host and Origin, which the request-forgery checks need anyway.
 */
public final class ManagementGuard implements Handler<RoutingContext> {

    /** Before any route of the server, whatever order the routes were added in. */
    static final int ORDER = -1_000_000;
    private static final String REALM = "Basic realm=\"topup-batch\", charset=\"UTF-8\"";

    private final ManagementAccess access;

    public ManagementGuard(ManagementAccess access) {
        this.access = access;
    }

    /**
     * The Host header; over HTTP/2 (Java's HTTP client upgrades a plain connection to it) there is none,
     * and the request's authority says the same.
     */
    private static String host(HttpServerRequest request) {
        String header = request.headers().get("Host");
        if (header != null || request.authority() == null) {
            return header;
        }
        String name = request.authority().host();
        name = name.contains(":") && !name.startsWith("[") ? "[" + name + "]" : name;
        return request.authority().port() < 0 ? name : name + ":" + request.authority().port();
    }

    @Override
    public void handle(RoutingContext context) {
        HttpServerRequest request = context.request();
        Optional<ManagementAccess.Refusal> refusal = access.check(request.method().name(), context.normalizedPath(),
                name -> name.equalsIgnoreCase("Host") ? host(request) : request.headers().get(name));
        if (refusal.isEmpty()) {
            context.next();
            return;
        }
        ManagementAccess.Refusal r = refusal.get();
        var response = context.response().setStatusCode(r.status())
                .putHeader("Content-Type", "application/json")
                .putHeader("Cache-Control", "no-store");
        if (r.challenge()) {
            // a browser asks its user for the login; a script sends its bearer token
            response.putHeader("WWW-Authenticate", List.<String>of(REALM, "Bearer realm=\"topup-batch\""));
        }
        response.end(new JsonObject().put("error", r.message()).encode());
    }
}
