package org.topupbatch.provider;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/**
 * Classifies a request that got no HTTP answer. The question that matters is whether the request
 * can have reached the provider: a failure to connect means nothing was sent (safe to retry as
 * is), anything after that may have taken effect, which for create-order is an unknown outcome.
 */
final class TransportFailures {

    private TransportFailures() {
    }

    static ProviderException classify(String operation, Throwable failure) {
        boolean mayHaveTakenEffect = ProviderClient.CREATE_ORDER.equals(operation);
        for (Throwable t = failure; t != null; t = t.getCause()) {
            // Order matters: ConnectTimeoutException is an InterruptedIOException like a read timeout,
            // and HttpHostConnectException is a ConnectException.
            if (t instanceof ConnectException || t instanceof ConnectTimeoutException
                    || t instanceof UnknownHostException || t instanceof NoRouteToHostException
                    || t instanceof ConnectionRequestTimeoutException) {
                return new ProviderException(operation, ProviderError.CONNECTION_FAILED, 0, false,
                        describe(t), null, failure);
            }
            if (t instanceof SocketTimeoutException) {
                return new ProviderException(operation, ProviderError.TIMEOUT, 0, mayHaveTakenEffect,
                        "no answer within the response timeout", null, failure);
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                // Closed, reset, NoHttpResponseException, TLS failure mid-way: the request may have arrived.
                return new ProviderException(operation, ProviderError.CONNECTION_LOST, 0, mayHaveTakenEffect,
                        describe(t), null, failure);
            }
        }
        // Something we do not recognise: for create-order we cannot rule out that it was sent.
        return new ProviderException(operation, ProviderError.UNKNOWN_ERROR, 0, mayHaveTakenEffect,
                describe(failure), null, failure);
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}
