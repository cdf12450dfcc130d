package org.topupbatch.observe;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.RequestBody;
import io.vertx.ext.web.RoutingContext;
import java.io.File;
import java.util.List;
import java.util.Locale;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpConsumer;
import org.apache.camel.component.platform.http.vertx.VertxPlatformHttpRouter;

/**
 * Camel's Vert.x consumer, with a request's body kept as the bytes the client sent whatever its
 * content type. Stock, a form-typed body ({@code curl --data-binary @file}'s default type) is parsed
 * into form fields and lost as a body, and a multipart one becomes Camel attachments that no route
 * reads. Here a form-typed body stays the body (Vert.x read it as bytes, {@link FormBodyAsBytes}),
 * and of a multipart one the first file part is the body (its file name in the exchange property
 * {@link ManagementHttp#UPLOAD_FILE_NAME}). Form fields become neither headers
 * ({@link RequestHeaderFilter}) nor the body. The port's {@link SecurityHeaders} are put in front of
 * its router on first use.
 */
final class HygienicHttpConsumer extends VertxPlatformHttpConsumer {

    private final String routerName;

    HygienicHttpConsumer(PlatformHttpEndpoint endpoint, Processor processor, int port,
                         List<Handler<RoutingContext>> handlers) {
        super(endpoint, processor, handlers == null ? List.of() : handlers, VertxPlatformHttpRouter.getRouterNameFromPort(port));
        this.routerName = VertxPlatformHttpRouter.getRouterNameFromPort(port);
        // a request that fails before or after its route (unreadable, the client gone) is one line
        setExceptionHandler(new OneLineFailures());
    }

    /** Camel logs a consumer's failures with their stack trace; a client can cause these, so one line each. */
    private static final class OneLineFailures implements org.apache.camel.spi.ExceptionHandler {
        private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(HygienicHttpConsumer.class);

        @Override
        public void handleException(Throwable exception) {
            handleException(null, null, exception);
        }

        @Override
        public void handleException(String message, Throwable exception) {
            handleException(message, null, exception);
        }

        @Override
        public void handleException(String message, Exchange exchange, Throwable exception) {
            LOG.warn("{}: {}", message == null ? "HTTP request failed" : message,
                    org.topupbatch.text.OneLine.of(String.valueOf(exception), 300));
        }
    }

    @Override
    protected void doInit() throws Exception {
        super.doInit(); // fails when the port has no router
        VertxPlatformHttpRouter router = VertxPlatformHttpRouter.lookup(getEndpoint().getCamelContext(), routerName);
        if (router == null) {
            // a port chosen at start: registered under port 0, as Camel's consumer looks it up too
            router = VertxPlatformHttpRouter.lookup(getEndpoint().getCamelContext(),
                    VertxPlatformHttpRouter.getRouterNameFromPort(0));
        }
        SecurityHeaders.installOn(router);
    }

    @Override
    protected Future<Void> populateCamelMessage(RoutingContext ctx, Exchange exchange, Message message) {
        return super.populateCamelMessage(ctx, exchange, message).map(done -> {
            // Camel took the body for form fields (it saw the type the request came with): the bytes are the body
            RequestBody body = ctx.body();
            if (formTyped(ctx) && body != null && body.buffer() != null) {
                message.setBody(body.buffer().getBytes());
            }
            // a multipart upload's callback_url field (the HTTP door's callback); no other field is read
            String type = ctx.parsedHeaders().contentType().value();
            if (type != null && type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
                String callback = ctx.request().getFormAttribute("callback_url");
                if (callback != null && !callback.isBlank()) {
                    exchange.setProperty(ManagementHttp.UPLOAD_CALLBACK_URL, callback.trim());
                }
            }
            return done;
        });
    }

    @Override
    protected void populateAttachments(List<FileUpload> uploads, Message message) {
        for (FileUpload upload : uploads) {
            if (upload.fileName() != null && !upload.fileName().isEmpty()) {
                // a file, read by the route off the event loop; deleted once the answer is sent
                message.setBody(new File(upload.uploadedFileName()));
                message.getExchange().setProperty(ManagementHttp.UPLOAD_FILE_NAME, upload.fileName());
                return;
            }
        }
    }

    private static boolean formTyped(RoutingContext ctx) {
        String type = ctx.parsedHeaders().contentType().value();
        return type != null && type.toLowerCase(Locale.ROOT).startsWith(FormBodyAsBytes.FORM);
    }
}
