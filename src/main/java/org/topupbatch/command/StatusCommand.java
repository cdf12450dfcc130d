package org.topupbatch.command;

import org.topupbatch.run.ExitCode;
import org.topupbatch.text.OneLine;

import org.topupbatch.text.Rupiah;
import org.topupbatch.journal.BatchStatus;
import org.topupbatch.settings.AccountList;
import org.topupbatch.config.CommandSettings;

import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Collectors;
import org.topupbatch.cluster.NodeSessions;
import org.topupbatch.cluster.TwoNodes;
import org.topupbatch.journal.BatchProgress;
import org.topupbatch.journal.BatchRecord;
import org.topupbatch.journal.Journal;
import org.topupbatch.journal.ProductOutages;
import org.topupbatch.journal.RowRecord;
import org.topupbatch.journal.RowState;

/**
 * {@code java -jar topup-batch.jar status [BATCH]}: what the journal says, without calling the
 * provider, also while the service runs (the journal is opened for reading: no instance lock).
 * Without BATCH, the latest batches with their counts, charge and state; with BATCH (an id or an
 * input file name), that batch and its orders still waiting for an outcome, with their age.
 * Exit 0, or 1 with one line on stderr.
 */
public final class StatusCommand implements Command {

    static final int BATCHES_SHOWN = 30;
    static final int ORDERS_SHOWN = 200;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final CommandContext context;
    private final PrintStream out;
    private final Clock clock;
    /** topup.outage-wait, for when held rows are rejected. */
    private Duration outageWait = Duration.ofMinutes(30);

    public StatusCommand(CommandContext context) {
        this.context = context;
        this.out = context.out();
        this.clock = context.clock();
    }

    @Override
    public int run(List<String> args) {
        return CommandFrame.run("status", context, () -> {
            if (args.size() > 1 || (args.size() == 1 && args.get(0).isBlank())) {
                throw new CommandFailure.Usage("status [BATCH] (a batch id, or an input file name)");
            }
            CommandSettings settings = context.settings();
            return context.onJournal((journal, attemptOut, attemptErr) ->
                    new StatusCommand(context.printingTo(attemptOut, attemptErr)).show(settings, journal, args));
        });
    }

    /** What {@code status} prints from an open journal. */
    private int show(CommandSettings settings, Journal journal, List<String> args) {
        outageWait = settings.track().outageWait();
        if (args.isEmpty()) {
            if (TwoNodes.sharedJournal(settings.journal().url())) {
                out.println(nodes(NodeSessions.read(settings.journal().url(), settings.journal().user(), settings.journal().password())));
                // each named account's leader; the unnamed account is led by the active node, said above
                List<String> named = settings.accountNames().stream().filter(java.util.Objects::nonNull).toList();
                accountLeaders(NodeSessions.accountLeaders(settings.journal().url(), settings.journal().user(), settings.journal().password(), named))
                        .ifPresent(out::println);
            }
            return listBatches(journal);
        }
        String wanted = args.get(0).trim();
        List<BatchRecord> matches = BatchArgument.some(journal.reporting(), wanted);
        if (matches.size() > 1) {
            out.println("'" + OneLine.of(wanted) + "' names " + matches.size() + " batches; the latest first:");
        }
        for (int i = matches.size() - 1; i >= 0; i--) {
            showBatch(journal, matches.get(i));
        }
        return ExitCode.OK.code();
    }

    private int listBatches(Journal journal) {
        List<BatchRecord> batches = journal.status().recentBatches(BATCHES_SHOWN);
        if (batches.isEmpty()) {
            out.println("No batch in the journal yet.");
            return ExitCode.OK.code();
        }
        out.println(header());
        for (BatchRecord batch : batches) {
            out.println(line(journal, batch));
        }
        if (batches.size() == BATCHES_SHOWN) {
            out.println("(the latest " + BATCHES_SHOWN + " batches; 'status BATCH' shows any one)");
        }
        printHeld(journal);
        printReconciliation(journal);
        printOutbox(journal);
        return ExitCode.OK.code();
    }

    /** Outgoing messages that wait or were given up (docs/operating.md#notifications). */
    private void printOutbox(Journal journal) {
        org.topupbatch.notify.OutboxLines.of(journal.outbox().state(OUTBOX_SHOWN))
                .forEach(out::println);
    }

    private static final int OUTBOX_SHOWN = 10;

    /** The last reconciliation with the provider (docs/reconcile.md#reconcile-with-the-provider). */
    private void printReconciliation(Journal journal) {
        journal.reconciliations().lastReconciliation().ifPresent(r -> {
            out.println("Reconciled: " + r.day() + " (" + r.zone()
                    + ") at " + TIME.format(r.ranAt().atZone(ZoneId.systemDefault())) + ": " + r.matched() + " of "
                    + r.providerOrders() + " provider orders matched, " + (r.exceptionCount() == 0 ? "no exception"
                    : r.exceptionCount() + " exceptions " + r.exceptions().entrySet().stream().filter(e -> e.getValue() > 0)
                            .map(e -> e.getKey() + " " + e.getValue()).collect(java.util.stream.Collectors.joining(", ")))
                    + ", unexplained " + (r.unexplained() == null ? "unknown" : org.topupbatch.text.Rupiah.format(r.unexplained()))
                    + " (" + r.summaryFile() + ")");
            // several accounts: the figures above are theirs together; each account's part, or why it is missing
            r.accounts().forEach((account, part) -> out.println("  Account " + account + ": " + part));
        });
    }

    private void showBatch(Journal journal, BatchRecord batch) {
        out.println(header());
        out.println(line(journal, batch));
        if (batch.error() != null) {
            out.println("Unreadable: " + OneLine.of(batch.error(), 1000));
            return;
        }
        if (batch.haltReason() != null) {
            out.println("Halted: " + OneLine.of(batch.haltReason(), 1000));
        }
        if (batch.held()) {
            out.println("Held by the operator since " + TIME.format(batch.heldAt().atZone(ZoneId.systemDefault()))
                    + ": its queued rows wait for 'resume " + batch.id() + "'");
        }
        if (batch.cancelled()) {
            out.println("Cancelled by the operator at " + TIME.format(batch.cancelledAt().atZone(ZoneId.systemDefault()))
                    + ": its rows not sent then are reported rejected; its sent orders are tracked to the end");
        }
        printHeld(journal);
        printAccounts(journal, batch);
        // WAITING: a row waiting for the outcome of an order it repeats (reported pending, like these)
        List<RowRecord> waiting = journal.status().rowsOfBatch(batch.id(), EnumSet.of(RowState.PENDING, RowState.UNKNOWN,
                RowState.SENDING, RowState.WAITING), ORDERS_SHOWN);
        if (waiting.isEmpty()) {
            out.println("No order waits for an outcome.");
            return;
        }
        out.println();
        out.println(String.format("%-8s %-6s %-30s %-10s %-20s %s", "STATE", "LINE", "REF_ID", "AGE", "SENT", "CHECKS"));
        Instant now = clock.instant();
        for (RowRecord row : waiting) {
            Instant since = row.sentAt() != null ? row.sentAt() : row.updatedAt();
            // several accounts: the order's ref_id and its account, where it is looked up
            String ref = row.account() == null ? row.refId() : row.orderRefId() + " at " + row.account();
            out.println(String.format("%-8s %-6d %-30s %-10s %-20s %d", row.state(), row.line(), OneLine.of(ref, 80),
                    age(Duration.between(since, now)), TIME.format(since.atZone(ZoneId.systemDefault())), row.checks()));
        }
        if (waiting.size() == ORDERS_SHOWN) {
            out.println("(the first " + ORDERS_SHOWN + " in file order)");
        }
    }

    /**
     * One line per named account with the batch's rows there (docs/accounts-and-dialects.md#several-accounts),
     * by outcome, what they cost, and how many reached it after another account refused them (counted
     * by the journal, as the dashboard counts them). The unnamed account's rows are the batch's line above:
     * the journal counts only rows routed to a named account.
     */
    private void printAccounts(Journal journal, BatchRecord batch) {
        journal.status().accountCounts(batch.id()).forEach((account, n) -> out.println("Account " + account + ": " + n.success()
                + " success, " + n.failed() + " failed, " + n.pending() + " pending, " + n.queued() + " queued; "
                + n.movedHere() + " of them after another account refused them; charged " + Rupiah.format(n.charged())));
    }

    /** Products the provider reports unavailable, whose rows wait in QUEUED (docs/batch-files-and-reports.md#outages-rows-held-not-sent). */
    private void printHeld(Journal journal) {
        for (ProductOutages.ProductOutage outage : journal.outages().productOutages()) {
            if (outage.held()) {
                out.println("Held: " + OneLine.of(outage.describe(outageWait), 1000));
            }
        }
    }

    /** Which node is active and which stand by (docs/two-nodes.md#two-nodes), with when each connected to the journal. */
    static String nodes(List<NodeSessions.Node> nodes) {
        if (nodes.isEmpty()) {
            return "Nodes: none is connected to this journal";
        }
        return nodes.stream().map(n -> n.name() + " (" + (n.active() ? "active" : "standing by")
                        + (n.connected() == null ? "" : ", connected " + TIME.format(n.connected().atZone(ZoneId.systemDefault())))
                        + ")")
                .collect(Collectors.joining(", ", "Nodes: ", ""));
    }

    /** Named accounts on two nodes: {@code Accounts: main led by node a, dfz led by no node}; nothing without one. */
    static java.util.Optional<String> accountLeaders(java.util.Map<String, String> leaders) {
        if (leaders.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(leaders.entrySet().stream().map(e -> e.getKey() + " led by " + (e.getValue() == null ? "no node"
                : "node " + e.getValue())).collect(Collectors.joining(", ", "Accounts: ", "")));
    }

    private static String header() {
        return String.format("%-6s %-28s %7s %7s %6s %7s %6s %8s %16s  %-10s %s", "BATCH", "FILE", "ROWS", "SUCCESS",
                "FAILED", "PENDING", "QUEUED", "REJECTED", "CHARGED", "STATE", "STARTED");
    }

    private String line(Journal journal, BatchRecord batch) {
        BatchProgress p = journal.reporting().progress(batch.id());
        return String.format("%-6d %-28s %7d %7d %6d %7d %6d %8d %16s  %-10s %s", batch.id(), OneLine.of(batch.fileName(), 60), p.rows(),
                p.count(RowState.SUCCESS), p.count(RowState.FAILED) + p.count(RowState.REFUSED),
                p.count(RowState.PENDING) + p.count(RowState.UNKNOWN) + p.count(RowState.SENDING),
                // a row waiting for the order it repeats is not sent yet: queued, as summary.json counts it
                p.count(RowState.ACCEPTED) + p.count(RowState.WAITING), p.count(RowState.REJECTED), Rupiah.format(journal.status().charged(batch.id())),
                BatchStatus.of(batch, p).word(), TIME.format(batch.startedAt().atZone(ZoneId.systemDefault())));
    }

    static String age(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m" + String.format("%02d", s % 60) + "s";
        }
        if (s < 86_400) {
            return s / 3600 + "h" + String.format("%02d", s % 3600 / 60) + "m";
        }
        return s / 86_400 + "d" + String.format("%02d", s % 86_400 / 3600) + "h";
    }
}
