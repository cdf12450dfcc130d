package org.topupbatch.provider;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.function.Function;
import org.apache.camel.Exchange;

/**
 * Reads what the http producer brought back into the operation's typed record ({@link Balance},
 * {@link Order}, ...), or throws the {@link ProviderException} it means. A check-order the
 * provider has no endpoint for reads as an empty {@link Optional}.
 */
public final class ProviderAnswers {

    private final BalanceSeen balances;

    /** {@code balances} learns the balance of every answer that carries one. */
    public ProviderAnswers(BalanceSeen balances) {
        this.balances = balances;
    }

    /** Sets the body to the typed answer of the exchange's operation, or throws. */
    public void read(Exchange exchange) {
        String operation = exchange.getProperty(ProviderExchange.OPERATION, String.class);
        String refId = exchange.getProperty(ProviderExchange.REF_ID, String.class);
        Integer code = exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
        String text = exchange.getMessage().getBody(String.class);
        Long retryAfter = RetryAfter.seconds(exchange.getMessage().getHeader("Retry-After", String.class));
        HttpProviderClient.HttpAnswer answer = new HttpProviderClient.HttpAnswer(code == null ? 0 : code, text, retryAfter);
        if (answer.status() == 0) {
            throw AnswerClassifier.unreadable(operation, answer, "no HTTP status", null);
        }
        Object typed = typed(operation, refId, answer);
        balances.answered(operation, typed);
        exchange.getMessage().setBody(typed);
    }

    /** Turns a request that got no HTTP answer into what it means (nothing sent, or maybe taken effect). */
    public void lost(Exchange exchange) {
        Throwable failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        throw TransportFailures.classify(exchange.getProperty(ProviderExchange.OPERATION, String.class), failure);
    }

    private static Object typed(String operation, String refId, HttpProviderClient.HttpAnswer answer) {
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
}
