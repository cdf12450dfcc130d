package org.topupbatch.observe;

import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpEngine;

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
        PlatformHttpComponent component = new PlatformHttpComponent();
        component.setEngine(new PortEngine(port));
        return component;
    }

    private static final class PortEngine extends VertxPlatformHttpEngine {
        private final int port;

        PortEngine(int port) {
            this.port = port;
        }

        @Override
        public int getServerPort() {
            return port;
        }
    }
}
