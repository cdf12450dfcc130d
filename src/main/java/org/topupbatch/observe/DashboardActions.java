package org.topupbatch.observe;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.BatchControl;
import org.topupbatch.journal.OperatorAction;
import org.topupbatch.journal.ReportingJournal;

/**
 * The dashboard's buttons (routes/dashboard.yaml, {@code POST /batches/{id}/{hold|resume|cancel}}):
 * the same actions as the commands. A request must carry the header {@value #CONFIRM} naming the
 * action, which the page sends only after the operator confirmed; a browser will not send such a
 * header from another site's page without asking this server first (CORS), and it is never told
 * yes, so no other page can press the buttons.
 */
public final class DashboardActions {

    /** The header a button's request carries: the action's word, after the operator confirmed it. */
    public static final String CONFIRM = "X-Topup-Confirm";

    private final BatchControl control;
    private final ReportingJournal reporting;
    private final Clock clock;

    public DashboardActions(BatchControl control, ReportingJournal reporting, Clock clock) {
        this.control = control;
        this.reporting = reporting;
        this.clock = clock;
    }

    /** The answer's JSON: {@code changed} and {@code message}; the HTTP status is set on the exchange. */
    public Map<String, Object> act(Exchange exchange) {
        Message in = exchange.getMessage();
        Optional<OperatorAction> action = OperatorAction.named(in.getHeader("action", String.class));
        String id = in.getHeader("id", String.class);
        if (action.isEmpty()) {
            return answer(exchange, 404, false, "no such action: hold, resume or cancel");
        }
        String type = in.getHeader(Exchange.CONTENT_TYPE, String.class);
        if (type != null && !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            // a button sends no body: a form (what another site's page can post) is not a button
            return answer(exchange, 415, false, "a button takes no " + org.topupbatch.text.OneLine.of(type, 60) + " body");
        }
        // only a real request header reaches here as one (the component's header filter, ManagementHttp)
        if (!action.get().word().equalsIgnoreCase(String.valueOf(in.getHeader(CONFIRM, String.class)))) {
            return answer(exchange, 403, false, "not confirmed: the request must carry " + CONFIRM + ": " + action.get().word());
        }
        Optional<BatchRecord> batch = id != null && id.matches("\\d{1,18}") ? reporting.batch(Long.parseLong(id)) : Optional.empty();
        if (batch.isEmpty()) {
            return answer(exchange, 404, false, "no batch " + org.topupbatch.text.OneLine.of(String.valueOf(id), 40));
        }
        OperatorAction.Outcome outcome = action.get().apply(control, reporting, batch.get(), clock.instant());
        return answer(exchange, 200, outcome.changed(), outcome.message());
    }

    private static Map<String, Object> answer(Exchange exchange, int status, boolean changed, String message) {
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("changed", changed);
        body.put("message", message);
        return body;
    }
}
