package org.topupbatch.provider;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the provider is and how long to wait for it.
 *
 * @param baseUrl         http(s) address without the {@code /v1} part, e.g. {@code https://api.example.com}
 * @param signer          api_key and secret
 * @param connectTimeout  how long establishing a TCP (and TLS) connection may take; also the wait
 *                        for a free pooled connection. Nothing has been sent when it runs out.
 * @param responseTimeout how long to wait for the answer once the request is sent (socket read
 *                        timeout). When it runs out the request may have taken effect.
 */
public record ProviderEndpoint(String baseUrl, Signer signer, Duration connectTimeout, Duration responseTimeout,
                               Dialect dialect) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * Generous on purpose: a create-order that times out becomes an unknown outcome that has to be
     * reconciled, which costs more than waiting a little longer for a slow answer.
     */
    public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(30);

    public ProviderEndpoint {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(signer, "signer");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(responseTimeout, "responseTimeout");
        Objects.requireNonNull(dialect, "dialect");
        baseUrl = normalise(baseUrl);
        requirePositive("connectTimeout", connectTimeout);
        requirePositive("responseTimeout", responseTimeout);
    }

    /** An endpoint of the default dialect. */
    public ProviderEndpoint(String baseUrl, Signer signer, Duration connectTimeout, Duration responseTimeout) {
        this(baseUrl, signer, connectTimeout, responseTimeout, Dialect.TOPUP);
    }

    /** An endpoint with the default timeouts. */
    public static ProviderEndpoint of(String baseUrl, Signer signer) {
        return new ProviderEndpoint(baseUrl, signer, DEFAULT_CONNECT_TIMEOUT, DEFAULT_RESPONSE_TIMEOUT);
    }

    public ProviderEndpoint withTimeouts(Duration connect, Duration response) {
        return new ProviderEndpoint(baseUrl, signer, connect, response, dialect);
    }

    public ProviderEndpoint withDialect(Dialect other) {
        return new ProviderEndpoint(baseUrl, signer, connectTimeout, responseTimeout, other);
    }

    /** The full address of one operation, e.g. {@code {base}/v1/<operation>} in the default dialect. */
    public String operationUrl(String operation) {
        return baseUrl + dialect.path(operation);
    }

    private static String normalise(String baseUrl) {
        String trimmed = baseUrl.trim();
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("provider base URL is not a URL: " + trimmed, e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("provider base URL must be http or https: " + trimmed);
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new IllegalArgumentException("provider base URL has no host: " + trimmed);
        }
        // Query strings and credentials would be mangled by the endpoint options we append.
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("provider base URL must not carry a query, fragment or user info: " + trimmed);
        }
        String withoutSlash = trimmed;
        while (withoutSlash.endsWith("/")) {
            withoutSlash = withoutSlash.substring(0, withoutSlash.length() - 1);
        }
        return withoutSlash;
    }

    private static void requirePositive(String name, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }
}
