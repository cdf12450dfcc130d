package org.topupbatch.observe;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;
import org.apache.camel.component.platform.http.spi.PlatformHttpConsumer;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpEngine;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;

/**
 * Platform-http components pinned to one HTTP server each: {@code management-http:/path}
 * (routes/dashboard.yaml) on Camel's management server, and {@code platform-http} (the webhook)
 * on the main server.
 *
 * <p>Camel's Vert.x engine attaches a consumer to the router registered for the port it reports.
 * The stock engine guesses that port from the servers it finds, and with the management server
 * running beside the main one it picks the management server: the webhook route would land there.
 */
public final class ManagementHttp {

    /** The component name the dashboard routes use. */
    public static final String COMPONENT = "management-http";

    private ManagementHttp() {
    }

    /** A platform-http component whose routes are served by the Camel HTTP server on {@code port}. */
    public static PlatformHttpComponent onPort(int port) {
        return onPort(port, null);
    }

    /**
     * As {@link #onPort(int)}, with {@code guard} put in front of every route of that server, once: the
     * routes here and Camel's own (/observe/health, /observe/metrics) alike (ManagementGuard).
     */
    public static PlatformHttpComponent onPort(int port, Handler<RoutingContext> guard) {
        PlatformHttpComponent component = new PlatformHttpComponent();
        component.setEngine(new PortEngine(port, guard));
        return component;
    }

    private static final class PortEngine extends VertxPlatformHttpEngine {
        private final int port;
        private final Handler<RoutingContext> guard;
        private boolean guarded;

        PortEngine(int port, Handler<RoutingContext> guard) {
            this.port = port;
            this.guard = guard;
        }

        @Override
        public synchronized PlatformHttpConsumer createConsumer(PlatformHttpEndpoint endpoint, Processor processor) {
            if (guard != null && !guarded) {
                // the server and its router exist by now (Camel Main starts them before the routes); a
                // missing one fails the start here, as the consumer's own look-up would
                VertxPlatformHttpRouter router = VertxPlatformHttpRouter.lookup(getCamelContext(),
                        VertxPlatformHttpRouter.getRouterNameFromPort(port));
                router.route().order(ManagementGuard.ORDER).handler(guard);
                guarded = true;
            }
            return super.createConsumer(endpoint, processor);
        }

        @Override
        public int getServerPort() {
            return port;
        }
    }
}
