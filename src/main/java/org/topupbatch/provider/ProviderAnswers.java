package org.topupbatch.provider;

import org.apache.camel.Exchange;

/**
 * Reads what the http producer brought back into the operation's typed record ({@link Balance},
 * {@link Order}, ...), or throws the {@link ProviderException} it means. A check-order the
 * provider has no endpoint for reads as an empty {@link Optional}.
 */
public final class ProviderAnswers {

    private final BalanceSeen balances;
    private final Dialect dialect;

    /** {@code balances} learns the balance of every answer that carries one. */
    public ProviderAnswers(BalanceSeen balances) {
        this(balances, Dialect.TOPUP);
    }

    /** Answers read as {@code dialect} writes them. */
    public ProviderAnswers(BalanceSeen balances, Dialect dialect) {
        this.balances = balances;
        this.dialect = dialect;
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
        Object typed = dialect.read(operation, refId, answer);
        Long leftNanos = exchange.getProperty(ProviderExchange.LEAVES_NANOS, Long.class);
        balances.answered(operation, typed, leftNanos == null ? null : java.time.Duration.ofNanos(System.nanoTime() - leftNanos));
        exchange.getMessage().setBody(typed);
    }

    /** Turns a request that got no HTTP answer into what it means (nothing sent, or maybe taken effect). */
    public void lost(Exchange exchange) {
        Throwable failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        throw TransportFailures.classify(exchange.getProperty(ProviderExchange.OPERATION, String.class), failure);
    }
}
