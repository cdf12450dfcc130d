package org.topupbatch.reconcile;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A day's reconciliation of the list of accounts, in its order, as {@code reconcile-DAY.summary.json}
 * gives it (docs/reconcile.md#reconcile-with-the-provider). Several accounts: the totals of the accounts that were
 * reconciled, whether every account was ({@code complete}), and each account's figures under
 * {@code accounts}, the same as the single account's summary, or why it could not be. The one account of
 * topup.base-url ({@link #lone()}): its own figures, as they always were.
 */
public record AccountsSummary(String day, String zone, List<AccountReconciliation> accounts, Instant ranAt) {

    /**
     * The one account of topup.base-url (a list of one with no name): its files, its journal record and
     * its printed lines keep the single account's form, with no account column or part.
     */
    public boolean lone() {
        return accounts.size() == 1 && accounts.get(0).account() == null;
    }

    /** The run as the journal records it for status, the dashboard and the metrics. */
    org.topupbatch.journal.ReconcileJournal.Reconciliation record(String summaryFile) {
        if (lone()) {
            ReconcileSummary s = accounts.get(0).result().summary();
            return new org.topupbatch.journal.ReconcileJournal.Reconciliation(s.day(), s.zone(), s.ranAt(),
                    s.providerOrders(), s.journalOrders(), s.matched(), s.exceptions(), s.exceptionCount(), s.unexplained(),
                    summaryFile);
        }
        return new org.topupbatch.journal.ReconcileJournal.Reconciliation(day, zone, ranAt, providerOrders(), journalOrders(),
                matched(), exceptions(), exceptionCount(), unexplained(), summaryFile, lines());
    }

    /** Whether every account was reconciled. */
    public boolean complete() {
        return accounts.stream().allMatch(AccountReconciliation::reconciled);
    }

    public List<AccountReconciliation> reconciled() {
        return accounts.stream().filter(AccountReconciliation::reconciled).toList();
    }

    public long providerOrders() {
        return reconciled().stream().mapToLong(a -> a.result().summary().providerOrders()).sum();
    }

    public long journalOrders() {
        return reconciled().stream().mapToLong(a -> a.result().summary().journalOrders()).sum();
    }

    public long matched() {
        return reconciled().stream().mapToLong(a -> a.result().summary().matched()).sum();
    }

    /** Every kind with its count over the accounts reconciled. */
    public Map<String, Long> exceptions() {
        Map<String, Long> sum = new LinkedHashMap<>();
        for (ExceptionKind kind : ExceptionKind.values()) {
            sum.put(kind.wire(), reconciled().stream().mapToLong(a -> a.result().summary().exceptions().getOrDefault(kind.wire(), 0L)).sum());
        }
        return sum;
    }

    public long exceptionCount() {
        return exceptions().values().stream().mapToLong(Long::longValue).sum();
    }

    /** The accounts' unexplained amounts together; null unless every account was reconciled with one known. */
    public Long unexplained() {
        long sum = 0;
        for (AccountReconciliation a : accounts) {
            if (!a.reconciled() || a.result().summary().unexplained() == null) {
                return null;
            }
            sum += a.result().summary().unexplained();
        }
        return sum;
    }

    /** The day was not over when it was reconciled: its later orders are not in it. */
    public boolean partial() {
        return java.time.LocalDate.parse(day).plusDays(1).atStartOfDay(java.time.ZoneId.of(zone)).toInstant().isAfter(ranAt);
    }

    public int requests() {
        return reconciled().stream().mapToInt(a -> a.result().summary().requests()).sum();
    }

    /** Each account's part in one line, by account, for status. */
    public Map<String, String> lines() {
        Map<String, String> lines = new LinkedHashMap<>();
        accounts.forEach(a -> lines.put(a.account(), a.line()));
        return lines;
    }

    ObjectNode json() {
        ObjectNode n = ReconcileFiles.JSON.createObjectNode();
        n.put("day", day);
        n.put("zone", zone);
        n.put("complete", complete());
        n.put("partial", partial());
        n.put("provider_orders", providerOrders());
        n.put("journal_orders", journalOrders());
        n.put("matched", matched());
        ObjectNode exceptions = n.putObject("exceptions");
        exceptions().forEach(exceptions::put);
        n.put("requests", requests());
        n.put("reconciled_at", ranAt.toString());
        ObjectNode each = n.putObject("accounts");
        for (AccountReconciliation a : accounts) {
            each.set(a.account(), json(a));
        }
        return n;
    }

    private static ObjectNode json(AccountReconciliation a) {
        ObjectNode n = ReconcileFiles.JSON.createObjectNode();
        n.put("dialect", a.dialect());
        n.put("reconciled", a.reconciled());
        if (!a.reconciled()) {
            n.put("error", a.failure());
            return n;
        }
        n.put("method", a.method().wire());
        ObjectNode figures = ReconcileFiles.json(a.result().summary());
        figures.remove("day");
        figures.remove("zone");
        n.setAll(figures);
        n.put("not_looked_up", a.notLookedUp());
        // a status check finds only the journal's orders: the account's others are not listed, and the
        // exceptions' unknown_to_journal counts only ref_ids of ours the provider holds for another order
        n.put("unknown_orders_listed", a.method() == AccountReconciliation.Method.HISTORY);
        return n;
    }
}
