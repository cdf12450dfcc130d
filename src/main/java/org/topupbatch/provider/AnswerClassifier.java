package org.topupbatch.provider;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;

/**
 * Decides what an HTTP answer means: the {@code data} of a success envelope, or a
 * {@link ProviderException} with the provider's code, the HTTP status, Retry-After, and whether
 * the request may have taken effect (only ever for create-order: any 5xx, or a 2xx we cannot read).
 */
final class AnswerClassifier {

    private static final int MESSAGE_LIMIT = 200;
    private static final java.util.regex.Pattern SIGNATURE_LIKE = java.util.regex.Pattern.compile("(?<![0-9A-Fa-f])[0-9A-Fa-f]{32}(?![0-9A-Fa-f])");

    private AnswerClassifier() {
    }

    /** The {@code data} node of a successful envelope, or throws. */
    static JsonNode dataOrThrow(String operation, HttpProviderClient.HttpAnswer answer) {
        JsonNode envelope = parse(answer.body());
        int status = answer.status();
        if (status >= 200 && status < 300) {
            if (envelope == null || !envelope.isObject()) {
                throw unreadable(operation, answer, "answer is not a JSON object", null);
            }
            Boolean success;
            try {
                success = AnswerReader.bool(envelope, "success");
            } catch (UnreadableAnswerException e) {
                throw unreadable(operation, answer, "success flag is not a boolean", e);
            }
            if (Boolean.FALSE.equals(success)) {
                // An explicit refusal, even under HTTP 200: the provider read the request and said no.
                throw error(operation, answer, envelope, false);
            }
            JsonNode data = envelope.get("data");
            if (data == null || data.isNull()) {
                throw unreadable(operation, answer, "answer has no data", null);
            }
            return data;
        }
        boolean mayHaveTakenEffect = ProviderClient.CREATE_ORDER.equals(operation) && status >= 500;
        throw error(operation, answer, envelope, mayHaveTakenEffect);
    }

    /**
     * Whether a check-order answer says the provider has no such endpoint: 404, 405 or 501 that
     * does not carry ORDER_NOT_FOUND (docs/provider-client.md#check-order-extension).
     */
    static boolean meansNoSuchEndpoint(HttpProviderClient.HttpAnswer answer) {
        int status = answer.status();
        if (status != 404 && status != 405 && status != 501) {
            return false;
        }
        String notFound = ProviderError.ORDER_NOT_FOUND.name();
        return !ErrorCodes.find(parse(answer.body())).filter(notFound::equals).isPresent()
                && !ErrorCodes.inText(answer.body()).filter(notFound::equals).isPresent();
    }

    static ProviderException unreadable(String operation, HttpProviderClient.HttpAnswer answer, String reason, Throwable cause) {
        boolean mayHaveTakenEffect = ProviderClient.CREATE_ORDER.equals(operation);
        return new ProviderException(operation, ProviderError.UNREADABLE_ANSWER, answer.status(), mayHaveTakenEffect,
                reason, answer.retryAfterSeconds(), cause);
    }

    private static ProviderException error(String operation, HttpProviderClient.HttpAnswer answer, JsonNode envelope,
                                           boolean outcomeUnknown) {
        String code = ErrorCodes.find(envelope).orElse(ProviderException.NO_CODE);
        return new ProviderException(operation, code, answer.status(), outcomeUnknown, message(envelope, answer.body()),
                answer.retryAfterSeconds(), null);
    }

    /** The provider's message, or the start of a non-JSON body (an HTML error page) on one line. */
    private static String message(JsonNode envelope, String body) {
        if (envelope != null && envelope.isObject()) {
            JsonNode m = envelope.get("message");
            if (m != null && m.isValueNode() && !m.isNull()) {
                return shorten(m.asText());
            }
            return null;
        }
        return body == null || body.isBlank() ? null : shorten(body);
    }

    private static String shorten(String text) {
        // A provider or gateway that echoes our request must not smuggle a signature into logs.
        String oneLine = SIGNATURE_LIKE.matcher(text).replaceAll("<redacted>").replaceAll("\\s+", " ").trim();
        return oneLine.length() <= MESSAGE_LIMIT ? oneLine : oneLine.substring(0, MESSAGE_LIMIT) + "...";
    }

    /** The answer as JSON, or null when it is empty or not JSON. */
    static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return HttpProviderClient.JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }
}
