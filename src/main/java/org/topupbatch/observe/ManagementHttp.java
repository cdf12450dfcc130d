package org.topupbatch.observe;

import org.apache.camel.CamelContext;
import org.apache.camel.Processor;
import org.apache.camel.Service;
import org.apache.camel.component.platform.http.PlatformHttpComponent;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;
import org.apache.camel.component.platform.http.main.ManagementHttpServer;
import org.apache.camel.component.platform.http.spi.PlatformHttpConsumer;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpEngine;
import org.apache.camel.support.LifecycleStrategySupport;

/**
 * Platform-http components pinned to one HTTP server each: {@code management-http:/path}
 * (routes/dashboard.yaml) on Camel's management server, and {@code platform-http} (the webhook)
 * on the main server.
 *
 * <p>Camel's Vert.x engine attaches a consumer to the router registered for the port it reports.
 * The stock engine guesses that port from the servers it finds, and with the management server
 * running beside the main one it picks the management server: the webhook route would land there.
 *
 * <p>Both components keep their routes' headers and bodies clean (docs/security.md "Headers, errors
 * and logs"): only real request headers reach a route and only the headers a route sets on purpose
 * reach the answer ({@link RequestHeaderFilter}); a body is the bytes the client sent, whatever its
 * content type ({@link HygienicHttpConsumer}); every answer of the port carries the security
 * headers ({@link SecurityHeaders}).
 */
public final class ManagementHttp {

    /** The component name the dashboard routes use. */
    public static final String COMPONENT = "management-http";
    /** Exchange property: the file name a multipart request gave its first file part (the body). */
    public static final String UPLOAD_FILE_NAME = "topupUploadFileName";
    /** Exchange property: the {@code callback_url} form field of a multipart request (docs/callbacks.md). */
    public static final String UPLOAD_CALLBACK_URL = "topupUploadCallbackUrl";

    private ManagementHttp() {
    }

    /** A platform-http component whose routes are served by the Camel HTTP server on {@code port}. */
    public static PlatformHttpComponent onPort(int port) {
        PlatformHttpComponent component = new PlatformHttpComponent();
        component.setEngine(new PortEngine(port));
        component.setHeaderFilterStrategy(new RequestHeaderFilter());
        return component;
    }

    /**
     * Request bodies on the management port of up to {@code maxBytes} (Vert.x answers 413 beyond,
     * before buffering them). Camel Main has a setting for its main server's limit
     * ({@code camel.server.max-body-size}) but none for the management server's, so it is set on
     * the server as Camel adds it, before it starts.
     */
    public static void limitManagementBodies(CamelContext context, long maxBytes) {
        ManagementHttpServer added = context.hasService(ManagementHttpServer.class);
        if (added != null) {
            added.setMaxBodySize(maxBytes);
        }
        context.addLifecycleStrategy(new LifecycleStrategySupport() {
            @Override
            public void onServiceAdd(CamelContext camel, Service service, org.apache.camel.Route route) {
                if (service instanceof ManagementHttpServer server) {
                    server.setMaxBodySize(maxBytes);
                }
            }
        });
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

        @Override
        public PlatformHttpConsumer createConsumer(PlatformHttpEndpoint endpoint, Processor processor) {
            // the engine's handlers (e.g. authentication) run before each route, as in Camel's engine
            return new HygienicHttpConsumer(endpoint, processor, port, getHandlers());
        }
    }
}
