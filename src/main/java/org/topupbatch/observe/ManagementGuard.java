package org.topupbatch.observe;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.authentication.AuthenticationProvider;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.AuthenticationHandler;
import java.util.List;
import java.util.Optional;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.Service;
import org.apache.camel.component.platform.http.main.ManagementHttpServer;
import org.apache.camel.component.platform.http.vertx.auth.AuthenticationConfig;
import org.apache.camel.support.LifecycleStrategySupport;

/**
 * The one filter in front of every route of the management port (the dashboard, its data and buttons,
 * the upload, the door, progress, reports, metrics; health passes): {@link ManagementAccess} decides on
 * the request's real headers, read from Vert.x itself, before platform-http turns anything into a
 * Camel message. A refused request is answered here, as one JSON line, and no route sees it.
 *
 * <p>It is put in place through the slot Camel's management server keeps for authentication: the
 * server mounts its authentication handlers on its router before it listens and before any route is
 * added, so no request is ever served without the guard, not even in the moment of start-up.
 * Why not Camel's own {@code camel.management.authentication*} mechanisms behind that slot: the basic
 * login reads users from a properties file, and none takes the project's opaque bearer token
 * ({@code topup.intake.token}, docs/security.md); they cover the whole server,
 * {@code /observe/health} included; and they know nothing of Host and Origin, which the
 * request-forgery checks need anyway (docs/security.md).
 */
public final class ManagementGuard implements AuthenticationHandler {

    private static final String REALM = "Basic realm=\"topup-batch\", charset=\"UTF-8\"";

    private final ManagementAccess access;
    private boolean mounted;

    public ManagementGuard(ManagementAccess access) {
        this.access = access;
    }

    /**
     * Puts {@code guard} in front of every path of Camel's management server, which Camel Main adds to
     * {@code context} while it configures it (before it starts).
     */
    public static void installOn(CamelContext context, ManagementGuard guard) {
        ManagementHttpServer present = context.hasService(ManagementHttpServer.class);
        if (present != null) {
            guard.mountOn(present);
            return;
        }
        context.addLifecycleStrategy(new LifecycleStrategySupport() {
            @Override
            public void onServiceAdd(CamelContext camel, Service service, Route route) {
                if (service instanceof ManagementHttpServer server) {
                    guard.mountOn(server);
                }
            }
        });
    }

    private synchronized void mountOn(ManagementHttpServer server) {
        if (mounted) {
            return;
        }
        AuthenticationConfig.AuthenticationConfigEntry entry = new AuthenticationConfig.AuthenticationConfigEntry();
        entry.setPath("/*");
        entry.setAuthenticationProviderFactory(vertx -> null); // the guard is its own judge (ManagementAccess)
        entry.setAuthenticationHandlerFactory(new AuthenticationConfig.AuthenticationHandlerFactory() {
            @Override
            public <T extends AuthenticationProvider> AuthenticationHandler createAuthenticationHandler(T none) {
                return ManagementGuard.this;
            }
        });
        AuthenticationConfig auth = server.getConfiguration().getAuthenticationConfig();
        auth.getEntries().add(entry);
        auth.setEnabled(true);
        mounted = true;
    }

    /** Whether the guard stands in front of the management server: the dashboard's routes start only then. */
    public synchronized boolean mounted() {
        return mounted;
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
        Optional<ManagementAccess.Refusal> refusal = access.check(request.method().name(), context.normalizedPath(), request.query(),
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
