package org.topupbatch.observe;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * No route on these ports takes an HTML form, and a form-typed body is most often a file that
 * {@code curl --data-binary @file} labelled so by default. Vert.x would decode it as form fields
 * (refusing a CSV longer than its form-field limit, and losing the bytes), so the request is
 * relabelled {@code application/octet-stream} before its body is read: the body stays the bytes
 * sent ({@link HygienicHttpConsumer}). The first handler of each port's router, after
 * {@link SecurityHeaders}.
 */
final class FormBodyAsBytes {

    static final String FORM = "application/x-www-form-urlencoded";

    private FormBodyAsBytes() {
    }

    static void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String type = request.getHeader("Content-Type");
        if (type != null && type.toLowerCase(Locale.ROOT).startsWith(FORM)) {
            request.headers().set("Content-Type", "application/octet-stream");
        }
        ctx.next();
    }
}
