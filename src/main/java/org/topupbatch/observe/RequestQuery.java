package org.topupbatch.observe;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.Message;

/**
 * A request's query parameters, read from the query string itself: on the platform-http ports
 * they are not message headers ({@link RequestHeaderFilter}), so a query parameter can never pass
 * for a request header. Decoded by Netty's decoder, as Vert.x decodes them.
 */
public final class RequestQuery {

    private RequestQuery() {
    }

    /** The first value of query parameter {@code name}, if the request's query has it. */
    public static Optional<String> param(Message message, String name) {
        String query = message.getHeader(Exchange.HTTP_QUERY, String.class);
        if (query == null || query.isEmpty()) {
            return Optional.empty();
        }
        List<String> values;
        try {
            values = new QueryStringDecoder(query, StandardCharsets.UTF_8, false).parameters().get(name);
        } catch (IllegalArgumentException badEscape) {
            return Optional.empty(); // a broken %-escape: as if the parameter were not there
        }
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
}
