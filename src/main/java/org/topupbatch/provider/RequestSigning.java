package org.topupbatch.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.Map;
import org.apache.camel.Exchange;

/**
 * Turns a {@link ProviderRequest} into the JSON body the provider reads: api_key, the request's
 * fields, and the md5 sign of its final component. The secret stays inside the {@link Signer}.
 */
public final class RequestSigning {

    private final Signer signer;
    private final Dialect dialect;

    public RequestSigning(Signer signer) {
        this(signer, Dialect.TOPUP);
    }

    /** Bodies in {@code dialect}'s names and signs. */
    public RequestSigning(Signer signer, Dialect dialect) {
        this.signer = java.util.Objects.requireNonNull(signer, "signer");
        this.dialect = java.util.Objects.requireNonNull(dialect, "dialect");
    }

    /**
     * Replaces a {@link ProviderRequest} body with its signed JSON and notes the operation and
     * ref_id on the exchange. Any other body (already signed JSON) is left as is.
     */
    public void sign(Exchange exchange) {
        Object body = exchange.getMessage().getBody();
        if (!(body instanceof ProviderRequest request)) {
            return;
        }
        exchange.setProperty(ProviderExchange.OPERATION, request.operation());
        exchange.setProperty(ProviderExchange.REF_ID, request.refId());
        exchange.setProperty(Exchange.CHARSET_NAME, "UTF-8");
        exchange.getMessage().setBody(json(request));
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, "application/json");
        exchange.getMessage().setHeader("Accept", "application/json");
    }

    String json(ProviderRequest request) {
        Map<String, Object> body = dialect.body(request, signer);
        try {
            return HttpProviderClient.JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the " + request.operation() + " request", e);
        }
    }
}
