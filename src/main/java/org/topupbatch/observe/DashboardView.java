package org.topupbatch.observe;

import org.topupbatch.journal.ProductOutages.ProductOutage;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.topupbatch.cluster.NodeRole;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.provider.BalanceSeen;
import org.topupbatch.journal.BatchOverview;
import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.BatchStatus;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.RateBudget;

/**
 * What the dashboard page shows, as the JSON it fetches every few seconds (routes/dashboard.yaml):
 * recent batches with their counts and spend, the rate budget in use, pending orders and the
 * balance as of the latest provider answer that carried one, with its age. Read from the journal,
 * the budget and the answers already received: a page view never calls the provider.
 */
public final class DashboardView {

    /** topup.outage-wait: when held rows are rejected, as the outage lines say. */
    private final Duration outageWait;

    private final RunReadings readings;
    private final RateBudget budget;
    private final String provider;
    private final NodeRole node;
    private final Clock clock;
    private final String template;
    private final ObjectMapper json = new ObjectMapper();

    public DashboardView(RunReadings readings, RateBudget budget, String provider, NodeRole node, Clock clock,
                         Duration outageWait) {
        this.outageWait = outageWait;
        this.readings = readings;
        this.budget = budget;
        this.provider = provider;
        this.node = node;
        this.clock = clock;
        this.template = template();
    }

    /**
     * The page with the present view written into it, so that its first paint shows the data: the
     * script renders it at once and only then starts fetching dashboard.json every 2 s.
     */
    public String page() throws JsonProcessingException {
        // '<' escaped, so that no file name can close the script element it is written into
        String data = json.writeValueAsString(view()).replace("<", "\\u003c");
        return template.replace(INITIAL, data);
    }

    /** Where the page's template expects the initial view (a JSON value inside a script element). */
    static final String INITIAL = "/*INITIAL-VIEW*/null";

    private static String template() {
        try (InputStream in = DashboardView.class.getResourceAsStream("/dashboard/index.html")) {
            if (in == null) {
                throw new IllegalStateException("dashboard/index.html is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Map<String, Object> view() {
        RunReadings.Reading reading = readings.current();
        AccountLimits limits = budget.limits();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("readAt", reading.at().toString());
        view.put("provider", provider);
        NodeRole.Now now = node.now();
        Map<String, Object> shownNode = new LinkedHashMap<>();
        shownNode.put("name", node.name());
        shownNode.put("role", now.role().shown());
        shownNode.put("since", now.since().toString());
        view.put("node", shownNode);
        Optional<BalanceSeen.Reading> balance = readings.balance();
        view.put("balance", balance.map(BalanceSeen.Reading::balance).orElse(null));
        view.put("balanceAt", balance.map(b -> b.at().toString()).orElse(null));
        view.put("balanceAgeSeconds", balance.map(b -> Math.max(0, Duration.between(b.at(), clock.instant()).toSeconds()))
                .orElse(null));
        view.put("pendingOrders", reading.pendingOrders());
        view.put("heldRows", reading.heldRows());
        List<Map<String, Object>> outages = new ArrayList<>();
        for (ProductOutage o : reading.held()) {
            Map<String, Object> shown = new LinkedHashMap<>();
            shown.put("sku", o.sku());
            shown.put("rows", o.rowsWaiting());
            shown.put("since", o.since().toString());
            shown.put("line", o.describe(outageWait));
            outages.add(shown);
        }
        view.put("outages", outages);
        view.put("reconciliation", reading.reconciliation().map(r -> {
            Map<String, Object> shown = new LinkedHashMap<>();
            shown.put("day", r.day());
            shown.put("zone", r.zone());
            shown.put("ranAt", r.ranAt().toString());
            shown.put("matched", r.matched());
            shown.put("providerOrders", r.providerOrders());
            shown.put("exceptions", r.exceptionCount());
            Map<String, Long> kinds = new LinkedHashMap<>();
            r.exceptions().forEach((kind, n) -> {
                if (n > 0) {
                    kinds.put(kind, n);
                }
            });
            shown.put("byKind", kinds);
            shown.put("unexplained", r.unexplained());
            return shown;
        }).orElse(null));
        Map<String, Object> rate = new LinkedHashMap<>();
        rate.put("used", budget.inWindow());
        rate.put("limit", limits.perMinute());
        rate.put("usedToday", limits.usedToday());
        rate.put("limitPerDay", limits.perDay());
        view.put("rate", rate);
        List<Map<String, Object>> batches = new ArrayList<>();
        for (BatchOverview o : reading.batches()) {
            batches.add(batch(o));
        }
        view.put("batches", batches);
        return view;
    }

    private static Map<String, Object> batch(BatchOverview o) {
        BatchRecord b = o.batch();
        BatchProgress p = o.progress();
        long finalRows = 0;
        Map<String, Long> counts = new LinkedHashMap<>();
        for (RowState s : RowState.values()) {
            counts.put(s.name().toLowerCase(Locale.ROOT), p.count(s));
            if (s.isFinal()) {
                finalRows += p.count(s);
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", b.id());
        m.put("file", b.fileName());
        m.put("state", BatchStatus.of(b, p).word());
        m.put("rows", p.rows());
        m.put("done", finalRows);
        m.put("counts", counts);
        m.put("charged", o.charged());
        m.put("startedAt", b.startedAt().toString());
        m.put("note", b.error() != null ? b.error() : b.haltReason() != null ? b.haltReason()
                : b.cancelled() ? "cancelled by the operator at " + b.cancelledAt() : b.held() ? "held by the operator since " + b.heldAt() : null);
        // the buttons that mean something now (the journal decides again when one is pressed)
        List<String> actions = new ArrayList<>();
        boolean queued = p.count(RowState.ACCEPTED) > 0 && b.error() == null && b.haltReason() == null && !b.cancelled();
        if (queued && !b.held()) {
            actions.add("hold");
        }
        if (b.held() && !b.cancelled()) {
            actions.add("resume");
        }
        if (queued) {
            actions.add("cancel");
        }
        m.put("actions", actions);
        return m;
    }
}
