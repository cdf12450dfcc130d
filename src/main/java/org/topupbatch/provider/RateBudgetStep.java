package org.topupbatch.provider;

import org.apache.camel.Exchange;

/**
 * The rate budget as route steps: {@link #reserve} waits for a slot and holds it in the exchange
 * (journaled before it returns, see {@link RateBudget#enter}), {@link #complete} ends it with the
 * HTTP status the call got. Used by the provider route only, the one place a reservation is taken
 * and completed (routes/provider.yaml).
 */
public final class RateBudgetStep {

    private final java.util.function.Function<Exchange, RequestGate> gates;

    public RateBudgetStep(RequestGate gate) {
        java.util.Objects.requireNonNull(gate, "gate");
        this.gates = exchange -> gate;
    }

    private RateBudgetStep(java.util.function.Function<Exchange, RequestGate> gates) {
        this.gates = java.util.Objects.requireNonNull(gates, "gates");
    }

    /** The gate of the account each exchange is for (several accounts, one budget each). */
    public static RateBudgetStep perExchange(java.util.function.Function<Exchange, RequestGate> gates) {
        return new RateBudgetStep(gates);
    }

    /** Waits for room in the budget for the exchange's operation; never takes a second reservation for one exchange. */
    public void reserve(Exchange exchange) {
        if (exchange.getProperty(ProviderExchange.TICKET) != null) {
            return;
        }
        String operation = exchange.getProperty(ProviderExchange.OPERATION, String.class);
        if (operation == null) {
            throw new IllegalStateException("no provider operation on the exchange (property " + ProviderExchange.OPERATION + ")");
        }
        RequestGate.Ticket ticket;
        try {
            ticket = gates.apply(exchange).enter(operation);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // Nothing was sent: the caller may simply try again later.
            throw new ProviderException(operation, ProviderError.INTERRUPTED, 0, false, "interrupted before sending", null, e);
        }
        exchange.setProperty(ProviderExchange.TICKET, ticket);
        exchange.setProperty(ProviderExchange.LEAVES_NANOS, System.nanoTime());
    }

    /**
     * Ends the reservation the exchange holds, if any, with the HTTP status of the answer (0 when
     * none came or nothing was sent). Idempotent: a reservation is completed once.
     */
    public void complete(Exchange exchange) {
        RequestGate.Ticket ticket = exchange.removeProperty(ProviderExchange.TICKET) instanceof RequestGate.Ticket t ? t : null;
        if (ticket == null) {
            return;
        }
        Integer status = exchange.getMessage().getHeader(Exchange.HTTP_RESPONSE_CODE, Integer.class);
        ticket.completed(status == null ? 0 : status);
    }
}
