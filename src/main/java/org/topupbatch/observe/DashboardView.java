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
import org.topupbatch.journal.AccountCounts;
import org.topupbatch.journal.BatchOverview;
import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.BatchStatus;
import org.topupbatch.journal.RowState;
import org.topupbatch.provider.RateBudget;

/**
 * What the dashboard page shows, as the JSON it fetches every few seconds (routes/dashboard.yaml):
 * recent batches with their counts and spend, the rate budget in use, pending orders and the
 * balance as of the latest provider answer that carried one, with its age. With several accounts,
 * also each account (where it is, its balance, whether it answers, its rate budget) and each batch's
 * rows per account. Read from the journal, the budgets and the answers already received: a page view
 * never calls a provider.
 */
public final class DashboardView {

    /** topup.outage-wait: when held rows are rejected, as the outage lines say. */
    private final Duration outageWait;

    private final RunReadings readings;
    private final RateBudget budget;
    private final String provider;
    private final NodeRole node;
    private final Clock clock;
    /** Several accounts, in the order of topup.providers; empty with one account. */
    private final List<ObservedAccount> accounts;
    /** Whether each account answered its latest request. */
    private final ProviderReach reach;
    private final String template;
    private final ObjectMapper json = new ObjectMapper();
    /** The outbox's lines (docs/operating.md#notifications): what waits and what was given up. */
    private java.util.function.Supplier<List<String>> outbox = List::of;

    /** {@code accounts}: several accounts, in the order of topup.providers (empty with one account). */
    public DashboardView(RunReadings readings, RateBudget budget, String provider, NodeRole node, Clock clock,
                         Duration outageWait, List<ObservedAccount> accounts, ProviderReach reach) {
        this.outageWait = outageWait;
        this.accounts = List.copyOf(accounts);
        this.reach = reach;
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

    /** The page's Content-Security-Policy: its own script and style only (their hashes), no framing. */
    public String contentSecurityPolicy() {
        return PagePolicy.of(template);
    }

    /** Shows the outbox's lines (what waits, what was given up) under the outages. */
    public DashboardView withOutbox(java.util.function.Supplier<List<String>> lines) {
        this.outbox = lines;
        return this;
    }

    private List<String> outboxLines() {
        try {
            return outbox.get();
        } catch (RuntimeException e) {
            return List.of("Outbox: cannot be read now (" + org.topupbatch.text.OneLine.of(String.valueOf(e.getMessage()), 200) + ")");
        }
    }

    /** Where the page's template expects the initial view (a JSON data block, never run). */
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
        putBalance(view, balance);
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
        view.put("outbox", outboxLines());
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
        view.put("rate", rate(budget.inWindow(), limits));
        if (!accounts.isEmpty()) {
            view.put("accounts", accounts.stream().map(this::account).toList());
        }
        // counted for every batch; shown as a table per batch only when an account has a name (the unnamed
        // account's rows are the batch's own line)
        Map<Long, Map<String, AccountCounts>> perAccount = readings.accountsOf(reading.batches());
        List<Map<String, Object>> batches = new ArrayList<>();
        for (BatchOverview o : reading.batches()) {
            Map<String, Object> shown = batch(o);
            if (!accounts.isEmpty()) {
                shown.put("accounts", batchAccounts(perAccount.getOrDefault(o.batch().id(), Map.of())));
            }
            batches.add(shown);
        }
        view.put("batches", batches);
        return view;
    }

    /** The balance, when its answer came and how long ago (all null when no answer has carried one). */
    private void putBalance(Map<String, Object> shown, Optional<BalanceSeen.Reading> balance) {
        shown.put("balance", balance.map(BalanceSeen.Reading::balance).orElse(null));
        shown.put("balanceAt", balance.map(b -> b.at().toString()).orElse(null));
        shown.put("balanceAgeSeconds", balance.map(b -> Math.max(0, Duration.between(b.at(), clock.instant()).toSeconds()))
                .orElse(null));
    }

    /** A rate budget's window and day; {@code perSecond}: its even pace (docs/architecture.md#how-it-works). */
    private static Map<String, Object> rate(int used, AccountLimits limits) {
        Map<String, Object> rate = new LinkedHashMap<>();
        rate.put("used", used);
        rate.put("limit", limits.perMinute());
        rate.put("usedToday", limits.usedToday());
        rate.put("limitPerDay", limits.perDay());
        rate.put("perSecond", limits.perMinute() / 60.0);
        return rate;
    }

    /**
     * One account: where it is, its balance as its latest answer carried it, whether it answers, its
     * own rate budget.
     */
    private Map<String, Object> account(ObservedAccount account) {
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("name", account.name());
        shown.put("dialect", account.dialect());
        shown.put("host", account.host());
        putBalance(shown, account.balances().last());
        // out of reach while its latest requests got no answer at all (no connection, a timeout)
        Optional<java.time.Instant> unanswered = reach.unansweredSince(account.name());
        shown.put("reachable", unanswered.isEmpty());
        shown.put("unansweredSeconds", unanswered.map(at -> Math.max(0, Duration.between(at, clock.instant()).toSeconds()))
                .orElse(null));
        shown.put("rate", rate(account.budget().inWindow(), account.budget().limits()));
        return shown;
    }

    /**
     * A batch's rows per account: every account of topup.providers in its order (zeros where no row
     * went), then any other its rows stand at (routed under earlier settings).
     */
    private List<Map<String, Object>> batchAccounts(Map<String, AccountCounts> counted) {
        Map<String, AccountCounts> each = new LinkedHashMap<>();
        accounts.forEach(a -> each.put(a.name(), AccountCounts.NONE));
        each.putAll(counted);
        List<Map<String, Object>> shown = new ArrayList<>();
        each.forEach((name, n) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("submitted", n.submitted());
            m.put("success", n.success());
            m.put("failed", n.failed());
            m.put("pending", n.pending());
            m.put("queued", n.queued());
            m.put("movedHere", n.movedHere());
            m.put("charged", n.charged());
            shown.add(m);
        });
        return shown;
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
        // a row waiting for the order it repeats is unsent as well: hold and cancel still apply to it
        boolean queued = p.count(RowState.ACCEPTED) + p.count(RowState.WAITING) > 0 && b.error() == null && b.haltReason() == null && !b.cancelled();
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
