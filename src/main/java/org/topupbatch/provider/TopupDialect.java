package org.topupbatch.provider;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The seed provider's interface and its documented real-provider extensions (docs/provider.md):
 * {@code POST /v1/<operation>} with {@code api_key} and md5 {@code sign}, answers in a
 * {@code success}/{@code data} envelope.
 */
final class TopupDialect implements Dialect {

    @Override
    public String name() {
        return "topup";
    }

    @Override
    public boolean supports(String operation) {
        return true;
    }

    @Override
    public String path(String operation) {
        return "/v1/" + operation;
    }

    @Override
    public Map<String, Object> body(ProviderRequest request, Signer signer) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("api_key", signer.apiKey());
        body.putAll(request.fields());
        // the seed interface has no price limit; the price guard keeps it before sending instead
        body.remove("max_price");
        body.put("sign", signer.sign(request.signedComponent()));
        return body;
    }

    @Override
    public Object read(String operation, String refId, HttpProviderClient.HttpAnswer answer) {
        return switch (operation) {
            case ProviderClient.CHECK_BALANCE -> data(operation, answer, AnswerReader::balance);
            case ProviderClient.PRICE_LIST -> data(operation, answer, AnswerReader::products);
            case ProviderClient.CREATE_ORDER -> data(operation, answer, d -> AnswerReader.order(d, refId));
            case ProviderClient.ORDER_HISTORY -> data(operation, answer, AnswerReader::historyPage);
            case ProviderClient.PROFILE -> data(operation, answer, AnswerReader::profile);
            case ProviderClient.CHECK_ORDER -> AnswerClassifier.meansNoSuchEndpoint(answer)
                    ? Optional.empty()
                    : Optional.of(data(operation, answer, d -> AnswerReader.order(d, refId)));
            default -> throw new IllegalArgumentException("unknown provider operation: " + operation);
        };
    }

    private static <T> T data(String operation, HttpProviderClient.HttpAnswer answer, Function<JsonNode, T> reader) {
        JsonNode data = AnswerClassifier.dataOrThrow(operation, answer);
        try {
            return reader.apply(data);
        } catch (UnreadableAnswerException | ArithmeticException e) {
            throw AnswerClassifier.unreadable(operation, answer, e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
