package org.topupbatch.command;

import org.topupbatch.run.ExitCode;
import org.topupbatch.text.OneLine;

import org.topupbatch.report.TimeSpan;

import org.topupbatch.text.Rupiah;
import org.topupbatch.config.ProviderSession;
import org.topupbatch.settings.Settings;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.topupbatch.settings.BalancePolicy;
import org.topupbatch.intake.BatchCheck;
import org.topupbatch.intake.BatchPlanner;
import org.topupbatch.intake.BatchRow;
import org.topupbatch.provider.CachedPriceCatalog;
import org.topupbatch.intake.CustomerRules;
import org.topupbatch.intake.PlanSummary;
import org.topupbatch.intake.PlanWriter;
import org.topupbatch.intake.RowDecision;
import org.topupbatch.intake.UnreadableBatchException;
import org.topupbatch.provider.AccountLimits;
import org.topupbatch.journal.Journal;

/**
 * {@code java -jar topup-batch.jar plan FILE.csv}: the intake's own checks ({@link BatchCheck}) on
 * one file, ordering nothing and recording nothing; the file is only read. Prints each rejected row
 * and each warning as it is found (memory stays flat), then the cost at the current prices, the
 * balance against the balance policy, and the time at the account's rate and daily limit.
 * Exit 0 when every row is acceptable, 2 when some are rejected, 1 with one line when it cannot plan.
 */
public final class PlanCommand implements Command {

    /** Share of the rate budget a batch leaves to status checks, balance and price list reads. */
    static final double OVERHEAD_SHARE = 0.10;

    private final CommandContext context;
    private final PrintStream out;

    public PlanCommand(CommandContext context) {
        this.context = context;
        this.out = context.out();
    }

    @Override
    public int run(List<String> args) {
        return CommandFrame.run("plan", context, () -> plan(args));
    }

    private int plan(List<String> args) {
        if (args.size() != 1 || args.get(0).isBlank()) {
            throw new CommandFailure.Usage("plan FILE.csv");
        }
        Path file = Path.of(args.get(0));
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new CommandFailure("cannot read " + file + ": "
                    + (Files.exists(file) ? "not a readable file" : "no such file"));
        }
        Settings settings = context.settings();
        CustomerRules rules;
        try {
            rules = settings.customerRules() == null ? CustomerRules.loadDefault()
                    : CustomerRules.load(Path.of(settings.customerRules()));
        } catch (RuntimeException e) {
            throw new CommandFailure("bad setting: topup.customer-rules: " + OneLine.of(String.valueOf(e.getMessage()), 500), e);
        }
        try (Journal journal = context.openJournal()) {
            if (settings.severalAccounts()) {
                return new AccountsPlan(out, context.clock()).plan(file, settings, rules, journal);
            }
            try (ProviderSession provider = context.providerSession(journal)) {
                return plan(file, settings, rules, journal, provider);
            }
        } catch (UnreadableBatchException e) {
            throw new CommandFailure(OneLine.of(file.toString()) + " cannot be read as a batch: "
                    + OneLine.of(e.getMessage(), 1000), e);
        } catch (IOException e) {
            throw new CommandFailure("cannot read " + file + ": " + OneLine.of(String.valueOf(e.getMessage()), 500), e);
        }
    }

    private int plan(Path file, Settings settings, CustomerRules rules, Journal journal, ProviderSession provider)
            throws IOException {
        AccountLimits limits = provider.limits();
        CachedPriceCatalog catalog = new CachedPriceCatalog(provider.gateway::priceList);
        long[] balanceRead = {0};
        long[] reserved = {0};
        PlanWriter[] writer = {null};
        long[] warnings = {0};
        long[] waiting = {0};
        out.println("Plan of " + OneLine.of(file.getFileName().toString()) + " (nothing is ordered; the file stays where it is)"
                + (provider.sandbox() ? ", with the embedded sandbox's prices: no provider is set" : ""));
        PlanSummary summary = new BatchCheck(catalog, rules, settings.balancePolicy(), settings.inputCharset(),
                        settings.repeatWindow(), java.time.Clock.systemUTC())
                .check(file, (delimiter, encoding, extras) -> {
            out.println("Read as:  " + encoding.shown() + ", delimiter " + shownDelimiter(delimiter));
            balanceRead[0] = provider.gateway.checkBalance().balance();
            reserved[0] = journal.reservedAmount();
            writer[0] = new PlanWriter(journal::ordersAmong, journal::repeatsAmong);
            return new BatchCheck.Opened(writer[0], balanceRead[0] - reserved[0]);
        }, new BatchPlanner.RowListener() {
            @Override
            public void decided(BatchRow row, RowDecision decision, String rejection) {
                if (rejection != null) {
                    out.println("  rejected  line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(rejection, 500));
                }
                warnings[0] += warn(row, decision);
            }

            // acceptable: ordered if the order it repeats fails (docs/batch-files-and-reports.md#rejected-rows)
            @Override
            public void waits(BatchRow row, String message) {
                waiting[0]++;
                out.println("  waits     line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(message, 500));
            }
        });
        long balance = balanceRead[0] - reserved[0];
        boolean allOrNothingRefused = writer[0] != null && writer[0].allAcceptedRejected();
        out.println();
        out.println("Rows:     " + summary.rows() + " read, " + summary.accepted() + " acceptable, " + summary.rejected()
                + " rejected" + (warnings[0] > 0 ? ", " + warnings[0] + " with warnings" : "")
                + (waiting[0] > 0 ? "; " + waiting[0] + " of the acceptable waiting for the outcome of the order "
                        + (waiting[0] == 1 ? "it repeats" : "each repeats") : ""));
        out.println("Cost:     " + Rupiah.format(summary.totalPrice()) + " for the acceptable rows at the current prices");
        out.println("Balance:  " + Rupiah.format(balanceRead[0]) + (reserved[0] > 0 ? ", of which " + Rupiah.format(reserved[0])
                + " is held for rows of running batches" : "") + "; " + coverage(settings.balancePolicy(), summary,
                balance, allOrNothingRefused));
        out.println("Time:     " + duration(summary.accepted(), limits));
        return (summary.rejected() > 0 ? ExitCode.ATTENTION : ExitCode.OK).code();
    }

    /** A ref_id as read, on one line: a quoted one may hold line breaks that would forge lines of the plan. */
    private static String shown(BatchRow row) {
        return row.refId().isEmpty() ? "(empty)" : OneLine.of(row.refId());
    }

    private static String shownDelimiter(char delimiter) {
        return delimiter == '\t' ? "tab" : "'" + delimiter + "'";
    }

    private int warn(BatchRow row, RowDecision decision) {
        for (String warning : decision.warnings()) {
            out.println("  warning   line " + row.line() + "  ref_id " + shown(row) + ": " + OneLine.of(warning, 500));
        }
        return decision.warnings().isEmpty() ? 0 : 1;
    }

    private static String coverage(BalancePolicy policy, PlanSummary summary, long balance, boolean allOrNothingRefused) {
        if (allOrNothingRefused) {
            return "it does not cover the batch, and the balance policy is all-or-nothing: no row would be ordered";
        }
        if (summary.rejected() > 0 && policy == BalancePolicy.BEST_EFFORT && summary.totalPrice() <= balance) {
            return "it covers the acceptable rows (" + Rupiah.format(balance - summary.totalPrice()) + " left)";
        }
        return "it covers the batch (" + Rupiah.format(balance - summary.totalPrice()) + " left)";
    }

    /**
     * One order takes at least one request; the rest of the budget goes to status checks and reads.
     * The daily limit counts requests since midnight at the provider.
     */
    static String duration(long orders, AccountLimits limits) {
        if (orders == 0) {
            return "nothing to order";
        }
        long perMinute = Math.max(1, (long) Math.floor(limits.perMinute() * (1 - OVERHEAD_SHARE)));
        long leftToday = Math.max(0, limits.perDay() - limits.usedToday());
        String rate = "at " + perMinute + " orders per minute (the account's " + limits.perMinute()
                + " requests per minute, less " + Math.round(OVERHEAD_SHARE * 100) + "% for status checks)";
        if (orders <= leftToday) {
            return "about " + TimeSpan.minutes(Duration.ofSeconds((long) Math.ceil(orders * 60.0 / perMinute))) + " " + rate
                    + "; " + leftToday + " of the " + limits.perDay() + " daily requests are left today";
        }
        long later = orders - leftToday;
        long days = (later + limits.perDay() - 1) / limits.perDay();
        return "it spans " + (days + 1) + " days: the daily limit of " + limits.perDay() + " requests leaves " + leftToday
                + " today, so " + later + " orders wait for the next day" + (days > 1 ? "s" : "") + "; each day's share goes "
                + rate;
    }

}
