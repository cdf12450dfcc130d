package org.topupbatch.observe;

import java.util.Set;
import java.util.TreeSet;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.platform.http.vertx.HttpMessage;
import org.apache.camel.http.base.HttpHeaderFilterStrategy;

/**
 * Which headers cross the platform-http components of both ports (set on the component by
 * {@link ManagementHttp}, so every route, present and future, has it).
 *
 * <p>Camel's platform-http turns query parameters and form fields into message headers beside the
 * request's headers, and copies message headers back into the answer. So {@code ?Set-Cookie=x}
 * came back as a response header, and a form field {@code X-Topup-Confirm} read as if the browser
 * had sent that header (which a page of another site cannot do). Here:
 * <ul>
 *   <li>into a route: only what the request really carries as a header (checked against the Vert.x
 *       request itself); query parameters and form fields never become headers (routes read the
 *       query with {@link RequestQuery});</li>
 *   <li>out of a route: only the few headers routes set on purpose ({@link #ANSWER_HEADERS}); a
 *       request may not bring one of those in, so none of them can be an echo of the request.
 *       {@code Content-Type} is written by Camel itself, and every route sets it.</li>
 * </ul>
 * Camel's own rules ({@code Camel*} headers, hop-by-hop headers) still apply first.
 */
public final class RequestHeaderFilter extends HttpHeaderFilterStrategy {

    /** The headers a route may answer with. */
    static final Set<String> ANSWER_HEADERS = caseInsensitive("Cache-Control", "WWW-Authenticate", "Retry-After",
            "Content-Disposition", "Location", "Allow", "Content-Security-Policy");

    @Override
    public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
        if (super.applyFilterToExternalHeaders(name, value, exchange) || ANSWER_HEADERS.contains(name)) {
            return true;
        }
        return !sentAsHeader(name, value, exchange);
    }

    @Override
    public boolean applyFilterToCamelHeaders(String name, Object value, Exchange exchange) {
        return super.applyFilterToCamelHeaders(name, value, exchange) || !ANSWER_HEADERS.contains(name);
    }

    /** Whether the request carries this very header (not a query parameter or form field of that name). */
    private static boolean sentAsHeader(String name, Object value, Exchange exchange) {
        Message in = exchange == null ? null : exchange.getIn();
        if (in instanceof HttpMessage http && http.getRequest() != null) {
            return http.getRequest().headers().getAll(name).contains(String.valueOf(value));
        }
        return false; // no request at hand: nothing from outside passes
    }

    private static Set<String> caseInsensitive(String... names) {
        Set<String> set = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        set.addAll(Set.of(names));
        return java.util.Collections.unmodifiableSet(set);
    }
}
