package org.topupbatch.command;

import org.topupbatch.run.ExitCode;
import org.topupbatch.text.OneLine;

import org.topupbatch.report.TimeSpan;

import org.topupbatch.config.ProviderSession;
import org.topupbatch.config.CommandSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
import org.topupbatch.provider.AccountsCatalog;
import org.topupbatch.provider.PriceCatalog;
import org.topupbatch.provider.Product;
import org.topupbatch.provider.ProductMap;
import org.topupbatch.provider.Routing;
import java.util.Map;
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

    /** Big enough that the intake's balance policy never turns a row down: several accounts' balances are judged each. */
    private static final long EVERY_BALANCE = Long.MAX_VALUE / 4;

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
        CommandSettings settings = context.settings();
        CustomerRules rules;
        try {
            rules = settings.guards().customerRules() == null ? CustomerRules.loadDefault()
                    : CustomerRules.load(Path.of(settings.guards().customerRules()));
        } catch (RuntimeException e) {
            throw new CommandFailure("bad setting: topup.customer-rules: " + OneLine.of(String.valueOf(e.getMessage()), 500), e);
        }
        try (Journal journal = context.openJournal()) {
            return plan(file, settings, rules, journal);
        } catch (UnreadableBatchException e) {
            throw new CommandFailure(OneLine.of(file.toString()) + " cannot be read as a batch: "
                    + OneLine.of(e.getMessage(), 1000), e);
        } catch (IOException e) {
            throw new CommandFailure("cannot read " + file + ": " + OneLine.of(String.valueOf(e.getMessage()), 500), e);
        }
    }

    /**
     * The one path for a list of accounts: each is asked, the file is checked against their prices, and
     * with several accounts each acceptable row is routed to the account that would take it first.
     */
    private int plan(Path file, CommandSettings settings, CustomerRules rules, Journal journal) throws IOException {
        List<PlanAccount> accounts = accounts(settings, journal);
        try {
            return plan(file, settings, rules, journal, accounts);
        } finally {
            accounts.forEach(PlanAccount::close);
        }
    }

    /** The accounts the settings name: those of topup.providers in order, or topup.base-url's as a list of one with no name. */
    private List<PlanAccount> accounts(CommandSettings settings, Journal journal) {
        if (settings.provider().accounts().isEmpty()) {
            return List.of(new PlanAccount(null, settings.provider().dialect(), settings.provider().baseUrl(), () -> context.providerSession(journal)));
        }
        return settings.provider().accounts().stream().map(a -> new PlanAccount(a.name(), a.dialect(), a.baseUrl(),
                () -> settings.providerSession(a, journal, context.clock()))).toList();
    }

    private int plan(Path file, CommandSettings settings, CustomerRules rules, Journal journal, List<PlanAccount> accounts)
            throws IOException {
        // one unnamed account plans as it always did: no routing, its balance judged by the balance policy
        boolean lone = accounts.size() == 1 && accounts.get(0).name == null;
        ProductMap map = lone ? null : settings.provider().productMap() == null ? ProductMap.identity(PlanAccount.names(accounts))
                : ProductMap.load(settings.provider().productMap(), PlanAccount.names(accounts));
        // rows are routed by the accounts' price lists, read first; a lone account's is read when a row needs it
        accounts.forEach(a -> a.ask(!lone));
        if (accounts.stream().allMatch(a -> a.unreachable != null)) {
            throw new CommandFailure("no account could be asked: " + String.join("; ",
                    accounts.stream().map(a -> a.name + ": " + a.unreachable).toList()));
        }
        Map<String, Map<String, Product>> priceLists = PlanAccount.priceLists(accounts);
        PlanAccount first = accounts.get(0);
        PriceCatalog catalog = lone ? new CachedPriceCatalog(first.session.gateway::priceList)
                : new AccountsCatalog(map, priceLists);
        PlanPrinted printed = new PlanPrinted(out, lone);
        PlanPrinted.Tally tally = new PlanPrinted.Tally();
        PlanWriter[] writer = {null};
        printed.header(file, accounts, settings.provider().productMap(), map);
        PlanSummary summary = new BatchCheck(catalog, rules, settings.guards().balancePolicy(), settings.pickUp().inputCharset(),
                settings.guards().repeatWindow(), java.time.Clock.systemUTC())
                .check(file, (delimiter, encoding, extras) -> {
            printed.readAs(encoding.shown(), delimiter);
            // a journal without a row (a first plan, the in-memory journal of a data folder no product opened)
            // has no earlier order to find: its look-ups, two queries every 1,000 rows, are left out
            writer[0] = journal.intake().holdsRows()
                    ? new PlanWriter(journal.intake()::ordersAmong, journal.intake()::repeatsAmong)
                    : new PlanWriter(refIds -> java.util.Set.of(), (keys, since) -> Map.of());
            if (!lone) {
                return new BatchCheck.Opened(writer[0], EVERY_BALANCE);
            }
            first.balance = first.session.gateway.checkBalance().balance();
            tally.reserved = journal.intake().reservedAmount();
            return new BatchCheck.Opened(writer[0], first.balance - tally.reserved);
        }, new BatchPlanner.RowListener() {
            @Override
            public void decided(BatchRow row, RowDecision decision, String rejection) {
                if (rejection != null) {
                    printed.rejected(row, rejection);
                } else if (!lone) {
                    route(row, decision, map, priceLists, accounts, printed, tally);
                }
                tally.warnings += printed.warnings(row, decision);
            }

            // acceptable: ordered if the order it repeats fails (docs/batch-files-and-reports.md#rejected-rows)
            @Override
            public void waits(BatchRow row, String message) {
                if (lone) { // a routed row's line already names its account
                    tally.waiting++;
                    printed.waits(row, message);
                }
            }
        });
        tally.allOrNothingRefused = writer[0] != null && writer[0].allAcceptedRejected();
        printed.totals(summary, tally, accounts, settings.guards().balancePolicy());
        // several accounts' balances are judged here, each against its share; a lone one's by the balance policy
        boolean attention = summary.rejected() > 0 || tally.unroutable > 0 || !lone && accounts.stream()
                .anyMatch(a -> a.unreachable != null || a.cost > a.balance);
        return (attention ? ExitCode.ATTENTION : ExitCode.OK).code();
    }

    /** The account that would take the row first gets it and its price; none: the row is counted as no account's. */
    private static void route(BatchRow row, RowDecision decision, ProductMap map, Map<String, Map<String, Product>> priceLists,
                              List<PlanAccount> accounts, PlanPrinted printed, PlanPrinted.Tally tally) {
        Routing.Decision routed = Routing.route(map.routeFor(row.productSku()), decision.maxPrice(), priceLists);
        if (!routed.routed()) {
            tally.unroutable++;
            printed.unroutable(row, routed.reason());
            return;
        }
        Routing.Candidate to = routed.first();
        PlanAccount account = accounts.stream().filter(a -> to.account().equals(a.name)).findFirst().orElseThrow();
        account.rows++;
        account.cost += to.price();
        printed.routed(row, to);
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
